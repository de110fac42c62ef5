// The failure modes users of other connection pools report that
// apply to this pool: convoys, lost wake-ups, waiters left parked by a
// dead factory, ownership on the reject path, and close racing everything.

#include <gtest/gtest.h>
#include <unistd.h>

#include <functional>
#include <string>

#include "mock_zend/inspect.h"
#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolFailureModesTest = PoolTest;

// Releaser re-steals its own slot (convoy starvation): N coroutines loop
// acquire -> suspend -> release -> acquire with max < N. Every acquisition
// must go to the oldest waiter: strict round robin.
TEST_F(PoolFailureModesTest, ReleaserNeverRestealsItsSlotUnderLoad) {
  constexpr int kWorkers = 8;
  constexpr int kRounds = 4;
  RunWithPool(3, [&] {
    for (int id = 0; id < kWorkers; id++) {
      Spawn([&, id] {
        for (int round = 0; round < kRounds; round++) {
          Zval resource = Acquire(pool);
          log.push_back(std::to_string(id));
          EXPECT_POOL_TALLY(pool, made);
          Yield();
          Release(pool, resource);  // and straight back to acquire
        }
      });
    }
  });
  Log expected;
  for (int round = 0; round < kRounds; round++) {
    for (int id = 0; id < kWorkers; id++)
      expected.push_back(std::to_string(id));
  }
  EXPECT_EQ(Joined(log), Joined(expected));
  EXPECT_EQ(made, 3);
}

// A waiter removed from the middle of the queue (its timeout) keeps the
// others in arrival order.
TEST_F(PoolFailureModesTest, TimedOutMiddleWaiterKeepsTheOrderOfTheOthers) {
  RunWithPool(1, [&] {
    Zval held = Acquire(pool);
    const std::pair<const char*, zend_long> waiters[] = {
        {"W1", 0}, {"W2", 2}, {"W3", 0}, {"W4", 0}};
    for (const auto& [name, timeout] : waiters) {
      Spawn([&, name = name, timeout = timeout] {
        Zval resource = Acquire(pool, timeout);
        log.push_back(std::string(name) + " " +
                      (resource.undef() ? TakeExceptionText() : "served"));
        if (!resource.undef()) {
          Yield();
          Release(pool, resource);
        }
      });
    }
    Delay(10);  // W2 times out while everybody waits
    log.push_back("release");
    Release(pool, held);
  });
  EXPECT_EQ(Joined(log),
            "W2 Async\\TimeoutException: Operation has been cancelled by "
            "timeout release W1 served W3 served "
            "W4 served");
}

// What the C tests below share: a C pool whose resources are plain ints.
int c_made = 0;
int c_destroyed = 0;
bool CFactory(zend_async_pool_t*, zval* result) {
  ZVAL_LONG(result, ++c_made);
  return true;
}
void CDestructor(zend_async_pool_t*, zval*) { c_destroyed++; }

// A C pool of at most one resource, which `held` now holds (the C
// handlers' counters start again from 0).
zend_async_pool_t* NewHeldCPool(zval* held) {
  c_made = c_destroyed = 0;
  zend_async_pool_t* pool = ZEND_ASYNC_NEW_POOL(CFactory, CDestructor, nullptr,
                                                nullptr, nullptr, 0, 1, 0);
  EXPECT_TRUE(TryAcquire(pool, held));
  return pool;
}

// A waiter acquiring from `pool` with `timeout_ms`, logging "<name> got R"
// (and releasing R) or "<name> <Class: message>".
std::function<void()> CWaiter(Log& log, zend_async_pool_t* pool,
                              std::string name, zend_long timeout_ms) {
  return [&log, pool, name, timeout_ms] {
    zval r;
    if (Acquire(pool, &r, timeout_ms)) {
      log.push_back(name + " got " + Render(&r));
      Release(pool, &r);
    } else {
      log.push_back(name + " " + TakeExceptionText());
    }
  };
}

// A reactor timer whose callback releases a resource into a pool (from the
// reactor, not from a coroutine).
struct ReleaseOnTimer {
  zend_async_event_callback_t base;
  zend_async_pool_t* pool;
  zval resource;
};

void ReleaseNow(zend_async_event_t* timer,
                zend_async_event_callback_t* callback, void*, zend_object*) {
  auto* self = reinterpret_cast<ReleaseOnTimer*>(callback);
  Release(self->pool, &self->resource);
  // The notification holds its own reference while it runs.
  ZEND_ASYNC_EVENT_RELEASE(timer);
}

void ArmRelease(zend_async_pool_t* pool, zval* resource, uint32_t ms) {
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(ms, false);
  auto* callback = reinterpret_cast<ReleaseOnTimer*>(
      zend_async_event_callback_new(ReleaseNow, sizeof(ReleaseOnTimer)));
  callback->pool = pool;
  ZVAL_COPY_VALUE(&callback->resource, resource);
  timer->base.add_callback(&timer->base, &callback->base);
  timer->base.start(&timer->base);
  // ReleaseNow drops the timer's only reference once it has fired.
}

// Lost wake-up: W1's timeout fires and, in the same reactor pass (before
// W1 runs), a release picks W1 as the oldest waiter. W1 leaves with its
// TimeoutException and must hand the place to W2.
TEST_F(PoolFailureModesTest, TimeoutOfTheChosenWaiterHandsThePlaceOn) {
  EXPECT_TRUE(RunMain([&] {
    zval held;
    zend_async_pool_t* pool = NewHeldCPool(&held);
    CoroutineRef w1(Spawn(CWaiter(log, pool, "W1", 5)));
    CoroutineRef w2(Spawn(CWaiter(log, pool, "W2", 0)));
    Yield();  // both park; W1's 5 ms timer starts first
    ArmRelease(pool, &held, 5);
    usleep(20 * 1000);  // both timers are due by the next reactor pass
    Await(w1.get());
    Await(w2.get());
    EXPECT_POOL_TALLY(pool, c_made - c_destroyed);
    EXPECT_EQ(StatsOf(&pool->event).reserved, 0u);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
  EXPECT_EQ(Joined(log),
            "W1 Async\\TimeoutException: Operation has been cancelled by "
            "timeout W2 got 1");
}

// The same race with a cancellation arriving first: the cancelled waiter
// is still queued when the release picks it.
TEST_F(PoolFailureModesTest, CancellationOfTheChosenWaiterHandsThePlaceOn) {
  EXPECT_TRUE(RunMain([&] {
    zval held;
    zend_async_pool_t* pool = NewHeldCPool(&held);
    CoroutineRef w1(Spawn(CWaiter(log, pool, "W1", 0)));
    Spawn(CWaiter(log, pool, "W2", 0));
    Yield();
    Cancel(w1.get());      // W1 queued with its cancellation
    Release(pool, &held);  // ... and chosen by this release
    EXPECT_EQ(StatsOf(&pool->event).reserved, 1u);
    YieldTimes(3);
    EXPECT_POOL_TALLY(pool, c_made - c_destroyed);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
  EXPECT_EQ(Joined(log),
            "W1 Async\\AsyncCancellation: Coroutine cancelled W2 got 1");
}

// A factory that fails for good: every parked waiter is woken with the
// error (none stays parked), and the pool's count returns to 0.
TEST_F(PoolFailureModesTest, PermanentlyFailingFactoryWakesEveryWaiter) {
  bool down = false;
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory =
                           [&](mock_zend::Call& call) {
                             if (down) {
                               ThrowRuntime("database is down");
                               return;
                             }
                             ZVAL_LONG(call.result(), ++made);
                           },
                       .destructor = CountingDestructor(&destroyed),
                       .before_release =
                           [&down](mock_zend::Call& call) {
                             ZVAL_BOOL(call.result(), !down);
                           },
                       .max = 2});
    Zval a = Acquire(pool);
    Zval b = Acquire(pool);
    for (int i = 1; i <= 4; i++) {
      Spawn([&, i] {
        Zval resource = Acquire(pool);
        log.push_back("W" + std::to_string(i) + " " + TakeExceptionText());
        EXPECT_POOL_TALLY(pool, made - destroyed);
      });
    }
    Yield();
    down = true;  // connections break and cannot be replaced
    Release(pool, a);
    Release(pool, b);
    EXPECT_POOL_TALLY(pool, made - destroyed);
  }));
  EXPECT_EQ(Joined(log),
            "W1 RuntimeException: database is down "
            "W2 RuntimeException: database is down "
            "W3 RuntimeException: database is down "
            "W4 RuntimeException: database is down");
  EXPECT_EQ(Count(pool), 0);
  // No reservation is left: with the factory back, both places are open to
  // a caller that never waited.
  down = false;
  Zval first = TryAcquire(pool);
  Zval second = TryAcquire(pool);
  EXPECT_EQ(Render(first) + " " + Render(second), "3 4");
  Release(pool, first);
  Release(pool, second);
}

// Ownership on the reject path: the caller's zval is borrowed, so a
// rejected (destroyed) resource stays valid for the caller, whose reference
// count is unchanged; an accepted one gains the ring's reference.
TEST_F(PoolFailureModesTest, ReleaseBorrowsTheCallersResource) {
  bool accept = false;
  EXPECT_TRUE(RunMain([&] {
    Zval pool =
        NewPhpPool({.factory =
                        [this](mock_zend::Call& call) {
                          ++made;
                          ZVAL_STR(call.result(),
                                   zend_string_init("connection", 10, false));
                        },
                    .destructor = CountingDestructor(&destroyed),
                    .before_release =
                        [&accept](mock_zend::Call& call) {
                          ZVAL_BOOL(call.result(), accept);
                        }});
    Zval resource = Acquire(pool);
    ASSERT_EQ(resource.type(), IS_STRING);
    EXPECT_EQ(Z_REFCOUNT_P(resource.get()), 1u);
    Release(pool, resource);  // rejected
    EXPECT_EQ(destroyed, 1);
    EXPECT_EQ(Z_REFCOUNT_P(resource.get()), 1u);
    EXPECT_EQ(Render(resource), "'connection'");

    accept = true;
    Zval second = Acquire(pool);
    Release(pool, second);  // kept idle: the ring holds its own reference
    EXPECT_EQ(Z_REFCOUNT_P(second.get()), 2u);
    second.Reset();
    Zval again = Acquire(pool);
    EXPECT_EQ(Z_REFCOUNT_P(again.get()), 1u) << "moved out of the ring";
    Release(pool, again);
    EXPECT_POOL_TALLY(pool, made - destroyed);
  }));
}

// Close while a hook is suspended, a waiter holds a reservation and
// another waits: the waiters fail with "Pool is closed", the hook's
// resource is destroyed when its release completes, nothing is destroyed
// twice and nothing leaks.
TEST_F(PoolFailureModesTest, CloseWhileWaitersReservationsAndHooksInFlight) {
  bool slow_release = true;
  int checking = 0;  // hooks suspended in their Delay
  Zval a;  // outlive main: a coroutine releases them after main returned
  Zval b;
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory = CountingFactory(&made),
                       .destructor = CountingDestructor(&destroyed, &log),
                       .before_release =
                           [&](mock_zend::Call& call) {
                             if (slow_release) {
                               slow_release = false;
                               log.push_back("hook suspends");
                               ++checking;
                               Delay(5);
                               --checking;
                               log.push_back("hook resumes");
                             }
                             ZVAL_TRUE(call.result());
                           },
                       .max = 2});
    a = Acquire(pool);
    b = Acquire(pool);
    Spawn([&] {
      Release(pool, a);  // suspends in beforeRelease
      const std::string error = TakeExceptionText();
      log.push_back("released a" + (error.empty() ? "" : " " + error));
    });
    for (const char* name : {"W1", "W2"}) {
      Spawn([&, name] {
        Zval resource = Acquire(pool);
        log.push_back(std::string(name) + " " + TakeExceptionText());
      });
    }
    Yield();           // the hook suspends, W1 and W2 park
    Release(pool, b);  // b idle and reserved for W1
    EXPECT_EQ(IdleCount(pool), 1);
    EXPECT_TRUE(TryAcquire(pool).is_null()) << "b is reserved for W1";
    log.push_back("close");
    Close(pool);
    EXPECT_POOL_TALLY(pool, made - destroyed, checking);
  }));
  EXPECT_EQ(Joined(log),
            "hook suspends close destroy(2) W1 Async\\PoolException: Pool is "
            "closed W2 Async\\PoolException: Pool is closed hook resumes "
            "destroy(1) released a");
  EXPECT_EQ(made, 2);
  EXPECT_EQ(destroyed, 2);
  EXPECT_EQ(Count(pool), 0);
}

// Nested acquire from one coroutine at max=1 cannot be served: with a
// timeout it fails instead of hanging.
TEST_F(PoolFailureModesTest, NestedAcquireAtMaxOneTimesOut) {
  std::string caught;
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made), .max = 1});
    Zval outer = Acquire(pool);
    Zval inner = Acquire(pool, 5);
    caught = TakeExceptionText();
    Release(pool, outer);
  }));
  EXPECT_EQ(caught,
            "Async\\TimeoutException: Operation has been cancelled by timeout");
}

// Without a timeout the same mistake is a deadlock the scheduler detects:
// the waiter is cancelled instead of hanging forever.
TEST_F(PoolFailureModesTest, NestedAcquireWithoutTimeoutIsADetectedDeadlock) {
  ExpectUncaught(
      "Async\\DeadlockError: Deadlock detected: no active coroutines, 1 "
      "coroutines in waiting");
  std::string caught;
  EXPECT_FALSE(RunMain([&] {
    pool = NewPhpPool({.factory = CountingFactory(&made), .max = 1});
    Spawn([&] {
      Zval outer = Acquire(pool);
      Zval inner = Acquire(pool);
      caught = TakeExceptionText();
      Release(pool, outer);
    });
  }));
  EXPECT_EQ(caught, "Async\\AsyncCancellation: Deadlock detected");
  const std::vector<mock_zend::ReportedError> errors =
      mock_zend::ReportedErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message,
            "Uncaught Async\\DeadlockError: Deadlock detected: no active "
            "coroutines, 1 coroutines in waiting");
  zend_mock_errors_clear();
}

}  // namespace
}  // namespace zar::pool_testing
