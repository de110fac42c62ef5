// zend-async-ref scheduler conformance tests, support.
//
// Everything here is written against the ABI (ZEND_ASYNC_* macros, the
// exported function pointers, the waker API) and the mock Zend API; none of
// it knows core/'s internals.
//
//   SchedulerTest       the fixture: the async extension under test
//                       (zar::testing::AsyncModule(): scheduler, reactor,
//                       pool) in every test's engine; its TearDown fails
//                       the test on any leaked block or live object.
//   Spawn(body)         ZEND_ASYNC_SPAWN with a closure as the coroutine's
//                       fcall; returns the coroutine (borrowed: keep a
//                       CoroutineRef to use it after it may have finished).
//   Await(co)           what PHP's await() does: replay when finished,
//                       otherwise resume_when(current, co, resolve) and
//                       suspend. Returns the result or the exception.
//   Yield()             enqueue the current coroutine, suspend.
//   Delay(ms)           suspend until a one-shot ms timer fires.
//   PlainEvent          an event no reactor knows: nothing ever fires it
//                       unless a test does.
//
// Threading: tests are single-threaded.

#ifndef ZAR_TESTS_SCHEDULER_SUPPORT_SCHEDULER_TEST_H_
#define ZAR_TESTS_SCHEDULER_SUPPORT_SCHEDULER_TEST_H_

#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "mock_zend/callable.h"
#include "tests/support/engine_test.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::scheduler_testing {

class SchedulerTest : public zar::testing::EngineTest {
 protected:
  std::vector<zend_module_entry*> Modules() override;
};

// One reference to a coroutine, released when the ref goes (or Reset()).
class CoroutineRef {
 public:
  CoroutineRef() = default;
  explicit CoroutineRef(zend_coroutine_t* coroutine);
  ~CoroutineRef() { Reset(); }
  CoroutineRef(const CoroutineRef&) = delete;
  CoroutineRef& operator=(const CoroutineRef&) = delete;
  CoroutineRef(CoroutineRef&& other) noexcept;
  CoroutineRef& operator=(CoroutineRef&& other) noexcept;

  zend_coroutine_t* get() const { return coroutine_; }
  zend_coroutine_t* operator->() const { return coroutine_; }
  void Reset();

 private:
  zend_coroutine_t* coroutine_ = nullptr;
};

// Spawns a coroutine running `body` (in `scope`, with `priority`); NULL
// when the spawn failed (the exception is left in flight).
zend_coroutine_t* Spawn(mock_zend::NativeBody body,
                        zend_async_scope_t* scope = nullptr,
                        int32_t priority = 0);

// The outcome of an await: `result` described (mock_zend::Describe) or
// `error` as "Class: message" ("" when none); `error_object` identifies
// the exception (not a reference: compare only).
struct AwaitOutcome {
  std::string result;
  std::string error;
  const zend_object* error_object = nullptr;
};

// Awaits `coroutine` from the current coroutine; the exception (if any) is
// taken and described, not left in flight. With `timeout_ms` > 0 a one-shot
// timer cancels the wait (zend_async_waker_callback_cancel).
AwaitOutcome Await(zend_coroutine_t* coroutine, zend_ulong timeout_ms = 0);

// Enqueue the current coroutine and suspend (a yield). Returns the
// suspend's result.
bool Yield();

// Suspends until a one-shot timer of `ms` milliseconds fires (through
// ZEND_ASYNC_NEW_TIMER_EVENT, trans_event, the resolve callback).
bool Delay(zend_ulong ms);

// A plain C event (ref_count 1) that only a test can fire.
zend_async_event_t* NewPlainEvent();
// Notifies its callbacks (NULL result, NULL exception).
void FirePlainEvent(zend_async_event_t* event);

// Suspends the current coroutine until `event` fires (resume_when with
// the resolve callback, no ownership transfer).
bool WaitFor(zend_async_event_t* event);

// Takes EG(exception) and renders it "Class: message" ("" when none).
std::string TakeExceptionText();

// Reported errors as "E_LEVEL: message".
std::vector<std::string> ErrorLog();

// Checks (GoogleTest expectations) that `waker` is as zend_async_waker_init
// leaves it: no status, no events, no result, error or suspension site.
void ExpectWakerInitialised(const zend_async_waker_t* waker);

}  // namespace zar::scheduler_testing

#endif  // ZAR_TESTS_SCHEDULER_SUPPORT_SCHEDULER_TEST_H_
