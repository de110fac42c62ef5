// zend-async-ref pool tests: the fixture and helpers.
//
// Everything here reaches the pool and the scheduler through the ABI
// (ZEND_ASYNC_* macros, event vtables) and the mock engine's API (calling
// Async\Pool's methods as the engine calls internal methods, closures made
// with mock_zend::MakeCallable standing in for userland callables).
//
//   PoolTest           EngineTest with the async extension under test
//                      (zar::testing::AsyncModule()) loaded; its TearDown
//                      fails on leaked blocks or live objects.
//   Spawn / Yield / Delay / Await / Cancel
//                      coroutines: a spawned body runs when the spawner
//                      suspends or ends (FIFO); Yield lets every other
//                      queued coroutine run once; Delay waits on a real
//                      reactor timer (tests assert order, never durations).
//   Zv                 an owned zval.
//   PoolSpec/NewPhpPool  new Async\Pool(...) with closures.
//   Acquire, Release, ...  Async\Pool method calls.
//   ExpectPoolInvariants  count == idle + active (through the methods) and,
//                      when the test counts them, count == live resources
//                      (made minus destroyed); for a pool the test reaches
//                      through the ABI (zend_async_pool_t*), the event's
//                      info() agrees and active + reserved <= max. Tests
//                      call it after every step.
//
// An Async\Pool object is opaque: the ABI gives no way from the object to
// its zend_async_pool_t (an implementation may lay the object out as it
// likes), so PHP-made pools are observed only through their methods, and
// only pools made with ZEND_ASYNC_NEW_POOL are observed through the event.
//
// Threading: the test's thread.

#ifndef ZAR_TESTS_POOL_SUPPORT_POOL_TEST_H_
#define ZAR_TESTS_POOL_SUPPORT_POOL_TEST_H_

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "mock_zend/callable.h"
#include "tests/support/engine_test.h"
#include "tests/support/implementation.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
}

namespace zar::pool_testing {

class PoolTest : public zar::testing::EngineTest {
 protected:
  std::vector<zend_module_entry*> Modules() override {
    return {zar::testing::AsyncModule()};
  }
};

// ---- Values ---------------------------------------------------------------

// An owned zval (UNDEF when empty); movable, not copyable.
class Zv {
 public:
  Zv() { ZVAL_UNDEF(&value_); }
  ~Zv() { zval_ptr_dtor(&value_); }
  Zv(Zv&& other) noexcept {
    ZVAL_COPY_VALUE(&value_, &other.value_);
    ZVAL_UNDEF(&other.value_);
  }
  Zv& operator=(Zv&& other) noexcept {
    if (this != &other) {
      zval_ptr_dtor(&value_);
      ZVAL_COPY_VALUE(&value_, &other.value_);
      ZVAL_UNDEF(&other.value_);
    }
    return *this;
  }
  Zv(const Zv&) = delete;
  Zv& operator=(const Zv&) = delete;

  static Zv Long(zend_long n);
  static Zv Null();
  // A copy of `value` (one reference added).
  static Zv Copy(const zval* value);
  // Takes over the reference `value` holds.
  static Zv Adopt(zval* value);

  zval* get() { return &value_; }
  const zval* get() const { return &value_; }
  bool undef() const { return Z_ISUNDEF(value_); }
  bool is_null() const { return Z_TYPE(value_) == IS_NULL; }
  uint8_t type() const { return Z_TYPE(value_); }
  zend_long lval() const { return Z_LVAL(value_); }
  zend_object* obj() const { return Z_OBJ(value_); }
  void Reset() {
    zval_ptr_dtor(&value_);
    ZVAL_UNDEF(&value_);
  }

 private:
  zval value_;
};

// A short rendering: "1" for ints, "null", "false", "'s'", "stdClass#id".
std::string Str(const zval* value);
inline std::string Str(const Zv& value) { return Str(value.get()); }

// ---- Exceptions -----------------------------------------------------------

// Takes EG(exception): "Class: message", or "" when none.
std::string TakeExceptionText();
// Takes EG(exception): its class name, or "" when none.
std::string TakeExceptionClass();

// ---- Logs -----------------------------------------------------------------

using Log = std::vector<std::string>;
// The entries joined by single spaces.
std::string Joined(const Log& log);

// ---- Coroutines -------------------------------------------------------------

// Spawns a coroutine running `body`. An exception `body` leaves uncaught
// fails the test. Returns the coroutine (borrowed: valid while it runs).
zend_coroutine_t* Spawn(std::function<void()> body);

// A reference to a coroutine kept by a test (for Cancel after it may have
// finished). Releases it on destruction.
class CoroutineRef {
 public:
  explicit CoroutineRef(zend_coroutine_t* coroutine);
  ~CoroutineRef();
  CoroutineRef(const CoroutineRef&) = delete;
  CoroutineRef& operator=(const CoroutineRef&) = delete;
  zend_coroutine_t* get() const { return coroutine_; }
  bool finished() const;

 private:
  zend_coroutine_t* coroutine_;
};

// Lets every coroutine queued now run once before this one continues.
void Yield();
void YieldTimes(int times);
// Yields until `done()` holds (at most `max_yields` times); returns done().
bool YieldUntil(const std::function<bool()>& done, int max_yields = 1000);
// Waits `ms` milliseconds on a reactor timer.
void Delay(uint32_t ms);
// Waits until `coroutine` has finished (its exception, if any, is not
// rethrown).
void Await(zend_coroutine_t* coroutine);
// ZEND_ASYNC_CANCEL with the default cancellation.
void Cancel(zend_coroutine_t* coroutine);

// ---- Async\Pool (userland path)
// ------------------------------------------------

// Arguments of new Async\Pool(...). Unset callables are passed as null,
// unset ints as their default (only up to the last argument given).
struct PoolSpec {
  mock_zend::NativeBody factory = {};
  mock_zend::NativeBody destructor = {};
  mock_zend::NativeBody healthcheck = {};
  mock_zend::NativeBody before_acquire = {};
  mock_zend::NativeBody before_release = {};
  std::optional<zend_long> min = std::nullopt;
  std::optional<zend_long> max = std::nullopt;
  std::optional<zend_long> healthcheck_interval = std::nullopt;
};

// new Async\Pool(...): the object, or UNDEF with the exception pending.
Zv NewPhpPool(const PoolSpec& spec);
// new Async\Pool(...args) with the arguments as given (borrowed).
Zv ConstructPool(const std::vector<zval*>& args);
// Calls `$object->method(...args)`; UNDEF with the exception pending.
Zv CallMethod(zval* object, const char* method,
              std::initializer_list<zval*> args = {});

Zv Acquire(Zv& pool);
Zv Acquire(Zv& pool, zend_long timeout_ms);
Zv TryAcquire(Zv& pool);
void Release(Zv& pool, zval* resource);
inline void Release(Zv& pool, Zv& resource) { Release(pool, resource.get()); }
void Close(Zv& pool);
bool IsClosed(Zv& pool);
zend_long Count(Zv& pool);
zend_long IdleCount(Zv& pool);
zend_long ActiveCount(Zv& pool);
// getState()->name: "ACTIVE", "INACTIVE" or "RECOVERING".
std::string State(Zv& pool);
void SetStrategy(Zv& pool, zval* strategy);

// Closures (userland callables).
// A factory returning 1, 2, 3, ... and logging "factory(N)" when `log`.
mock_zend::NativeBody CountingFactory(int* made, Log* log = nullptr);
// A destructor logging "destroy(R)" and counting.
mock_zend::NativeBody CountingDestructor(int* destroyed, Log* log = nullptr);

// A stdClass object with property `id`.
Zv NewObject(zend_long id);
// The `id` property of an object, or -1.
zend_long IdOf(const zval* object);
// Throws RuntimeException(message).
void ThrowRuntime(const std::string& message);

// ---- Invariants -------------------------------------------------------------

struct PoolStats {
  uint64_t idle = 0;
  uint64_t active = 0;
  uint64_t reserved = 0;
  uint64_t max = 0;
};
// Parsed from the event's info(): "Pool(idle=, active=, reserved=, max=)".
PoolStats StatsOf(zend_async_event_t* pool_event);

// `live` < 0: not counted by the test.
void CheckPoolInvariants(Zv& pool, int64_t live = -1);
void CheckPoolInvariants(zend_async_pool_t* pool, int64_t live = -1);

#define EXPECT_POOL_INVARIANTS(...)                        \
  do {                                                     \
    SCOPED_TRACE("pool invariants");                       \
    ::zar::pool_testing::CheckPoolInvariants(__VA_ARGS__); \
  } while (0)

}  // namespace zar::pool_testing

#endif  // ZAR_TESTS_POOL_SUPPORT_POOL_TEST_H_
