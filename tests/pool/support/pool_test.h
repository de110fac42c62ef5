// zend-async-ref pool tests: the fixture and helpers.
//
// Everything here reaches the pool and the scheduler through the ABI
// (ZEND_ASYNC_* macros, event vtables) and the mock engine's API (calling
// Async\Pool's methods as the engine calls internal methods, closures made
// with mock_zend::MakeCallable standing in for userland callables).
//
//   PoolTest           RequestFixture with the async extension under test
//                      (zar::testing::AsyncModule()) loaded; its TearDown
//                      fails on leaked blocks or live objects.
//   Spawn / Yield / Delay / Await / Cancel, Zval, Render, CallMethod
//                      from ZendAsyncRef::testing and mock_zend: a spawned
//                      body runs when the spawner suspends or ends (FIFO);
//                      Yield lets every other queued coroutine run once;
//                      Delay waits on a real reactor timer (tests assert
//                      order, never durations).
//   PoolSpec/NewPhpPool  new Async\Pool(...) with closures.
//   Acquire, Release, ...  Async\Pool method calls.
//   EXPECT_POOL_TALLY  the pool's counts held against the test's own tally
//                      of its resources (below); tests check it after every
//                      step.
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
#include "mock_zend/methods.h"
#include "mock_zend/zval.h"
#include "tests/pool/support/resources.h"
#include "tests/support/implementation.h"
#include "tests/support/log.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
}

namespace zar::pool_testing {

using mock_zend::CallMethod;
using mock_zend::Render;
using mock_zend::Zval;
using zar::testing::Await;
using zar::testing::Cancel;
using zar::testing::CoroutineRef;
using zar::testing::Delay;
using zar::testing::Joined;
using zar::testing::Log;
using zar::testing::Spawn;
using zar::testing::TakeExceptionClass;
using zar::testing::TakeExceptionText;
using zar::testing::Yield;
using zar::testing::YieldTimes;
using zar::testing::YieldUntil;

class PoolTest : public zar::testing::AsyncTest {
 protected:
  void SetUp() override;
  void TearDown() override;

  // What most scenarios keep: the log of what happened, how many resources
  // the test's factory made and its destructor destroyed
  // (CountingFactory(&made), CountingDestructor(&destroyed)), and the pool
  // they work with, which outlives the script (a coroutine may release into
  // it after main returned) and is let go before the request ends.
  Log log;
  int made = 0;
  int destroyed = 0;
  Zval pool;

  // Runs `main` as the request's main script (expecting it to return), with
  // `pool` a new Async\Pool(CountingFactory(&made), max: max) first.
  void RunWithPool(zend_long max, const std::function<void()>& main);

  // new Async\Pool(CountingFactory(&made), CountingDestructor(&destroyed,
  // destroyed_log), healthcheck, min: min, max: max, healthcheckInterval:
  // interval_ms): the object, or UNDEF with the exception pending.
  Zval NewCheckedPool(mock_zend::NativeBody healthcheck, zend_long min,
                      zend_long max, zend_long interval_ms, Log* destroyed_log);
};

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
Zval NewPhpPool(const PoolSpec& spec);
// new Async\Pool(...args) with the arguments as given (borrowed).
Zval ConstructPool(const std::vector<zval*>& args);

// Lending: each acquire or tryAcquire that returns a resource, and each
// release, is counted in the pool's tally (below).
Zval Acquire(Zval& pool);
Zval Acquire(Zval& pool, zend_long timeout_ms);
Zval TryAcquire(Zval& pool);
void Release(Zval& pool, zval* resource);
inline void Release(Zval& pool, Zval& resource) {
  Release(pool, resource.get());
}
void Close(Zval& pool);
bool IsClosed(Zval& pool);
zend_long Count(Zval& pool);
zend_long IdleCount(Zval& pool);
zend_long ActiveCount(Zval& pool);
// getState()->name: "ACTIVE", "INACTIVE" or "RECOVERING".
std::string State(Zval& pool);
void SetStrategy(Zval& pool, zval* strategy);

// Closures (userland callables).
// A factory returning 1, 2, 3, ... and logging "factory(N)" when `log`.
mock_zend::NativeBody CountingFactory(int* made, Log* log = nullptr);
// A destructor logging "destroy(R)" and counting.
mock_zend::NativeBody CountingDestructor(int* destroyed, Log* log = nullptr);
// A destructor logging "destroy(R)" into `log` and throwing
// RuntimeException(message), or RuntimeException(message + " R") when
// `naming_the_resource`.
mock_zend::NativeBody ThrowingDestructor(Log* log, const std::string& message,
                                         bool naming_the_resource = false);

// The class or interface declared as `name` (e.g. "Async\\Pool"), or NULL.
using mock_zend::LookupClass;
// An Async\Pool object whose __construct never ran.
Zval NewUnconstructedPool();

// An object of a new userland class "<name>N" (N counting the classes made)
// implementing Async\CircuitBreakerStrategy with these methods.
Zval NewStrategy(const std::string& name, mock_zend::NativeBody report_success,
                 mock_zend::NativeBody report_failure,
                 mock_zend::NativeBody should_recover);

// A stdClass "holder" and a closure (running `body`) that uses the holder;
// once the holder keeps a pool made with the closure, the three form a
// cycle: holder -> Pool -> closure -> holder.
struct Cycle {
  Zval holder;
  Zval closure;
};
Cycle NewCycle(mock_zend::NativeBody body);
// $holder->pool = $pool; unset($holder, $closure, $pool): what is left of
// the cycle is reachable only through itself.
void LeaveCycle(Cycle& cycle, Zval& pool);

// Spawns a holder: it acquires from `pool`, yields `yields` times, releases
// and then sets `*released` (when given). release() reserves the resource
// for the oldest waiter before it returns, so once `*released` holds, a
// woken waiter holds a reservation and has not run yet.
void SpawnHolder(Zval& pool, int yields, bool* released = nullptr);

// Spawns `holders` coroutines that each acquire from `pool`, wait (yielding)
// until `release_now` holds, and release.
void SpawnHolders(Zval& pool, int holders, const bool& release_now);

// NewObject(id), IdOf(object), ThrowRuntime(message): resources.h.

// ---- A pool through the ABI (C users)
// -----------------------------------------

// ZEND_ASYNC_POOL_ACQUIRE / _TRY_ACQUIRE / _RELEASE, counted in the pool's
// tally as the methods above are.
bool Acquire(zend_async_pool_t* pool, zval* resource, zend_long timeout_ms);
bool TryAcquire(zend_async_pool_t* pool, zval* resource);
void Release(zend_async_pool_t* pool, zval* resource);

struct PoolStats {
  uint64_t idle = 0;
  uint64_t active = 0;
  uint64_t reserved = 0;
  uint64_t max = 0;
};
// Parsed from the event's info(): "Pool(idle=, active=, reserved=, max=)".
PoolStats StatsOf(zend_async_event_t* pool_event);

// ---- The test's tally
// ---------------------------------------------------------
//
// What the test itself saw of a pool's resources, kept apart from the pool:
//   alive  made by its factory (or being made: a factory call that has
//          not returned) and not yet destroyed by its destructor, as the
//          test's own factory and destructor count them (the test passes
//          the number);
//   lent   returned by an acquire or tryAcquire and not yet given back by a
//          release, as the helpers above count them, per pool.
//   busy   inside the test's factory or hooks now (a factory or hook that
//          suspends), which the pool counts as active but has not lent, as
//          the test's factory and hooks count them (default 0).
// The pool must agree: count() == alive, activeCount() == lent + busy and
// idleCount() == alive - lent - busy; through the ABI, the event's info()
// says idle + active == alive, active == lent + busy and active + reserved
// <= max.

// The resources lent from `pool` now, by the helpers' count.
int64_t Lent(Zval& pool);
int64_t Lent(zend_async_pool_t* pool);

void CheckPoolTally(Zval& pool, int64_t alive, int64_t busy = 0);
void CheckPoolTally(zend_async_pool_t* pool, int64_t alive, int64_t busy = 0);

// EXPECT_POOL_TALLY(pool, alive) or EXPECT_POOL_TALLY(pool, alive, busy).
#define EXPECT_POOL_TALLY(...)                         \
  do {                                                 \
    SCOPED_TRACE("the pool against the test's tally"); \
    ::zar::pool_testing::CheckPoolTally(__VA_ARGS__);  \
  } while (0)

}  // namespace zar::pool_testing

#endif  // ZAR_TESTS_POOL_SUPPORT_POOL_TEST_H_
