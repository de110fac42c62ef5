// zend-async-ref testing: coroutines through the ABI.
//
//   zend_coroutine_t* co = zar::testing::Spawn([&] { ... });
//   zar::testing::Yield();          // every coroutine queued now runs once
//   zar::testing::Delay(10);        // waits 10 ms on a reactor timer
//   AwaitOutcome out = zar::testing::Await(co);   // its result or exception
//
// Everything goes through the ZEND_ASYNC_* macros, the exported zend_async_*
// function pointers and PHP's own API, never an implementation's internals,
// so the helpers work with any async extension that registered itself (the
// conformance suites use them with every --impl library). A spawned body
// runs when the spawner suspends or ends, in spawn order. Yield, Delay and
// Await called from the main flow (no coroutine yet) launch the scheduler
// first; the main flow then continues as the main coroutine.
//
// Bodies report errors by throwing through the engine (zend_throw_*), never
// with C++ exceptions; an exception a body leaves is its coroutine's
// outcome (its awaiter receives it; unawaited, the scheduler handles it as
// unhandled).
//
// Threading: the request's thread.

#ifndef ZEND_ASYNC_REF_TESTING_COROUTINES_H_
#define ZEND_ASYNC_REF_TESTING_COROUTINES_H_

#include <cstdint>
#include <functional>
#include <string>

#include "mock_zend/callable.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::testing {

// Spawns a coroutine (ZEND_ASYNC_SPAWN_WITH_SCOPE_EX: in `scope`, NULL for
// the current one, with `priority`) whose fcall runs `body`. Returns the
// coroutine, borrowed (hold a CoroutineRef to use it after it may have
// finished), or nullptr when the spawn failed (the exception left in
// flight).
zend_coroutine_t* Spawn(std::function<void()> body,
                        zend_async_scope_t* scope = nullptr,
                        int32_t priority = 0);
// The same with a body that sees its call: its result zval (the
// coroutine's result), its arguments.
zend_coroutine_t* Spawn(mock_zend::NativeBody body,
                        zend_async_scope_t* scope = nullptr,
                        int32_t priority = 0);
// The same with a C body: `body(arg)` (`arg` borrowed).
zend_coroutine_t* Spawn(void (*body)(void* arg), void* arg,
                        zend_async_scope_t* scope = nullptr,
                        int32_t priority = 0);

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
  // REQUIRES: get() != nullptr.
  bool finished() const { return ZEND_COROUTINE_IS_FINISHED(coroutine_); }
  void Reset();

 private:
  zend_coroutine_t* coroutine_ = nullptr;
};

// Enqueues the current coroutine and suspends: every coroutine queued now
// runs once before this one continues. The waker is left as the resume
// left it (the next wait's ZEND_ASYNC_WAKER_NEW resets it). Returns the
// suspend's result (false: resumed with an exception).
bool Yield();
// Yield() `times` times.
void YieldTimes(int times);
// Yields until `done()` holds, at most `max_yields` times; returns done().
bool YieldUntil(const std::function<bool()>& done, int max_yields = 1000);

// Delay, WaitFor, WaitForIo and Await park through zend_async_ref_park
// (zend_async_ref/park.h), so they follow its rule: true when resumed with
// no exception in flight, false with one (the resume's, or a refusal to
// arm), and the waker cleaned after the resume (ready for the next wait).
//
// Suspends until a one-shot timer of `ms` milliseconds fires
// (ZEND_ASYNC_NEW_TIMER_EVENT, handed to the park, resolve callback).
// False also when the timer could not be made (the exception in flight).
bool Delay(zend_ulong ms);

// Suspends the current coroutine until `event` fires (the resolve
// callback; the event stays the caller's).
bool WaitFor(zend_async_event_t* event);

// Suspends the current coroutine until the IO request `req` of `io`
// completes, as PHP's stream layer waits for one: a waker callback on the
// handle's event that resumes on a notification carrying `req` once it is
// completed, or on one without a request (the handle was closed: its
// exception, "Stream was closed", is the resume's). With `timeout_ms` > 0
// a one-shot timer ends the wait with Async\TimeoutException
// (zend_async_waker_callback_timeout). The request stays the caller's (it
// disposes it); its own outcome is in `req`. Returns true at once for a
// request completed at submission.
bool WaitForIo(zend_async_io_t* io, zend_async_io_req_t* req,
               zend_ulong timeout_ms = 0);

// The outcome of an await: `result` described (mock_zend::Describe) or
// `error` as "Class: message" ("" when none); `error_object` identifies
// the exception (not a reference: compare only).
struct AwaitOutcome {
  std::string result;
  std::string error;
  const zend_object* error_object = nullptr;
};

// Awaits `coroutine` as PHP's await() does: its outcome at once when it has
// finished, otherwise a park on the coroutine (resolve callback).
// The exception, if any, is taken (not left in flight) and described. With
// `timeout_ms` > 0 a one-shot timer cancels the wait
// (zend_async_waker_callback_cancel).
AwaitOutcome Await(zend_coroutine_t* coroutine, zend_ulong timeout_ms = 0);

// ZEND_ASYNC_CANCEL(coroutine) with the default cancellation.
void Cancel(zend_coroutine_t* coroutine);

}  // namespace zar::testing

#endif  // ZEND_ASYNC_REF_TESTING_COROUTINES_H_
