// Behaviours A4: waiting, FIFO fairness, reservations, cancellation.

#include <gtest/gtest.h>

#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolWaitingTest = PoolTest;

// A4 029
TEST_F(PoolWaitingTest, AcquireBlocksUntilRelease) {
  RunWithPool(1, [&] {
    Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back("c1 got " + Render(resource));
      YieldTimes(2);
      log.push_back("c1 releases");
      Release(pool, resource);
      EXPECT_POOL_TALLY(pool, made);
    });
    Spawn([&] {
      log.push_back("c2 sees idle=" + std::to_string(IdleCount(pool)));
      Zval resource = Acquire(pool);
      log.push_back("c2 got " + Render(resource));
      EXPECT_POOL_TALLY(pool, made);
      Release(pool, resource);
    });
  });
  EXPECT_EQ(Joined(log), "c1 got 1 c2 sees idle=0 c1 releases c2 got 1");
  EXPECT_EQ(Count(pool), 1);
  EXPECT_EQ(made, 1);
}

// A4 030
TEST_F(PoolWaitingTest, MultipleWaitersAreAllServedWithTheOneResource) {
  RunWithPool(1, [&] {
    SpawnHolder(pool, 5);
    for (const char* name : {"A", "B", "C"}) {
      Spawn([&, name] {
        Zval resource = Acquire(pool);
        log.push_back(std::string(name) + ":" + Render(resource));
        EXPECT_POOL_TALLY(pool, made);
        Release(pool, resource);
      });
    }
  });
  EXPECT_EQ(Joined(log), "A:1 B:1 C:1");
  EXPECT_EQ(made, 1);
}

// A4 034
TEST_F(PoolWaitingTest, ReleaseWakesTheWaiter) {
  zend_long holder_result = 0;
  zend_long waiter_result = 0;
  RunWithPool(1, [&] {
    Spawn([&] {
      Zval resource = Acquire(pool);
      holder_result = resource.lval();
      YieldTimes(2);
      Release(pool, resource);
    });
    Spawn([&] {
      Zval resource = Acquire(pool);
      waiter_result = resource.lval();
      Release(pool, resource);
    });
  });
  EXPECT_EQ(holder_result, 1);
  EXPECT_EQ(waiter_result, 1);
  EXPECT_EQ(Count(pool), 1);
}

// A4 035
TEST_F(PoolWaitingTest, AllWaitersHoldingAcrossASuspensionAreServed) {
  RunWithPool(1, [&] {
    SpawnHolder(pool, 1);
    for (const char* name : {"A", "B", "C"}) {
      Spawn([&, name] {
        Zval resource = Acquire(pool);
        Yield();
        log.push_back(std::string(name) + " served");
        Release(pool, resource);
        EXPECT_POOL_TALLY(pool, made);
      });
    }
  });
  EXPECT_EQ(Joined(log), "A served B served C served");
}

// A4 054 (issue #141). The scenario's 10/30/5 ms are scaled down.
TEST_F(PoolWaitingTest, BrokenReleaseWakesAParkedWaiter) {
  bool healthy = true;
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory =
                           [this](mock_zend::Call& call) {
                             ++made;
                             const int id = made;
                             Delay(4);
                             ZVAL_LONG(call.result(), id);
                           },
                       .before_release =
                           [&healthy](mock_zend::Call& call) {
                             ZVAL_BOOL(call.result(), healthy);
                           },
                       .max = 1});
    Spawn([&] {
      Zval resource = Acquire(pool);
      Delay(12);
      healthy = false;
      Release(pool, resource);
      log.push_back("coro1: released broken");
      healthy = true;
      EXPECT_POOL_TALLY(pool, made - 1);
    });
    for (const char* name : {"coro2", "coro3"}) {
      Spawn([&, name] {
        Delay(2);
        Zval resource = Acquire(pool);
        log.push_back(std::string(name) + ": acquired r=" + Render(resource));
        Release(pool, resource);
      });
    }
  }));
  EXPECT_EQ(Joined(log),
            "coro1: released broken coro2: acquired r=2 coro3: acquired r=2");
  EXPECT_EQ(made, 2);
}

// A4 058 (issue #235)
TEST_F(PoolWaitingTest, ReleaseDoesNotBarge) {
  RunWithPool(1, [&] {
    for (const char* name : {"A", "B"}) {
      Spawn([&, name] {
        for (int i = 0; i < 3; i++) {
          Zval resource = Acquire(pool);
          log.push_back(std::string(name) + std::to_string(i));
          EXPECT_POOL_TALLY(pool, made);
          Yield();
          Release(pool, resource);
        }
      });
    }
  });
  EXPECT_EQ(Joined(log), "A0 B0 A1 B1 A2 B2");
  EXPECT_EQ(made, 1);
}

// A4 059
TEST_F(PoolWaitingTest, WaitersServedInOrder) {
  RunWithPool(1, [&] {
    for (int id = 0; id < 6; id++) {
      Spawn([&, id] {
        for (int round = 0; round < 3; round++) {
          Zval resource = Acquire(pool);
          log.push_back(std::to_string(id));
          Yield();
          Release(pool, resource);
          EXPECT_POOL_TALLY(pool, made);
          Yield();
        }
      });
    }
  });
  EXPECT_EQ(Joined(log), "0 1 2 3 4 5 0 1 2 3 4 5 0 1 2 3 4 5");
  EXPECT_EQ(made, 1);
}

// A4 060
TEST_F(PoolWaitingTest, CancelledWaiterHandsWakeupOn) {
  bool released = false;
  RunWithPool(1, [&] {
    SpawnHolder(pool, 2, &released);
    CoroutineRef w1(Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back(
          "W1 " + (resource.undef() ? TakeExceptionText() : Render(resource)));
      if (!resource.undef()) Release(pool, resource);
    }));
    Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back("W2 acquired " + Render(resource));
      Release(pool, resource);
    });
    ASSERT_TRUE(YieldUntil([&] { return released; }));
    EXPECT_POOL_TALLY(pool, made);
    Cancel(w1.get());
    Await(w1.get());
    EXPECT_POOL_TALLY(pool, made);
  });
  EXPECT_EQ(Joined(log),
            "W1 Async\\AsyncCancellation: Coroutine cancelled W2 acquired 1");
  EXPECT_EQ(IdleCount(pool), 1);
  EXPECT_EQ(made, 1);
}

// A4 061
TEST_F(PoolWaitingTest, TryAcquireRespectsReservation) {
  bool released = false;
  RunWithPool(1, [&] {
    SpawnHolder(pool, 2, &released);
    Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back("Waiter acquired " + Render(resource));
      Release(pool, resource);
    });
    ASSERT_TRUE(YieldUntil([&] { return released; }));
    Zval stolen = TryAcquire(pool);
    log.push_back("tryAcquire " + Render(stolen));
    EXPECT_POOL_TALLY(pool, made);
  });
  EXPECT_EQ(Joined(log), "tryAcquire null Waiter acquired 1");
  EXPECT_EQ(IdleCount(pool), 1);
}

// A4 062
TEST_F(PoolWaitingTest, CancelledWaiterKeepsResourceIdle) {
  bool released = false;
  RunWithPool(1, [&] {
    SpawnHolder(pool, 2, &released);
    CoroutineRef waiter(Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back("waiter " + (resource.undef() ? TakeExceptionText()
                                                  : Render(resource)));
    }));
    ASSERT_TRUE(YieldUntil([&] { return released; }));
    Cancel(waiter.get());
    Await(waiter.get());
    EXPECT_EQ(IdleCount(pool), 1);
    EXPECT_POOL_TALLY(pool, made);
    // The cancelled waiter's reservation is gone: the idle resource is
    // open to a caller that never waited.
    Zval probe = TryAcquire(pool);
    EXPECT_EQ(Render(probe), "1");
    Release(pool, probe);
    Zval later = Acquire(pool);
    log.push_back("later " + Render(later));
    Release(pool, later);
  });
  EXPECT_EQ(Joined(log),
            "waiter Async\\AsyncCancellation: Coroutine cancelled later 1");
  EXPECT_EQ(made, 1);
  EXPECT_EQ(IdleCount(pool), 1);
}

// A4 064
TEST_F(PoolWaitingTest, CapacityWakeupHandedOnAfterCancellation) {
  bool released = false;
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool(
        {.factory = CountingFactory(&made),
         .destructor = CountingDestructor(&destroyed),
         .before_release =
             [](mock_zend::Call& call) { ZVAL_FALSE(call.result()); },
         .max = 1});
    SpawnHolder(pool, 2, &released);
    CoroutineRef w1(Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back(
          "W1 " + (resource.undef() ? TakeExceptionText() : Render(resource)));
    }));
    Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back("W2 acquired " + Render(resource));
      Release(pool, resource);
    });
    ASSERT_TRUE(YieldUntil([&] { return released; }));
    EXPECT_EQ(IdleCount(pool), 0);
    EXPECT_POOL_TALLY(pool, made - destroyed);
    Cancel(w1.get());
    Await(w1.get());
  }));
  EXPECT_EQ(Joined(log),
            "W1 Async\\AsyncCancellation: Coroutine cancelled W2 acquired 2");
  EXPECT_EQ(IdleCount(pool), 0);
  EXPECT_EQ(made, 2);
  EXPECT_EQ(destroyed, 2);
}

// A4 065
TEST_F(PoolWaitingTest, SurplusStaysAvailable) {
  bool release_now = false;
  RunWithPool(3, [&] {
    SpawnHolders(pool, 3, release_now);
    Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back("Waiter acquired");
      Release(pool, resource);
    });
    Yield();  // holders acquire, the waiter parks
    EXPECT_EQ(ActiveCount(pool), 3);
    release_now = true;
    ASSERT_TRUE(YieldUntil([&] { return IdleCount(pool) == 3; }));
    log.push_back("idle=" + std::to_string(IdleCount(pool)));
    EXPECT_POOL_TALLY(pool, made);
    // Only one resource is reserved (for the waiter): the other two are
    // open to tryAcquire, a third call finds none.
    Zval surplus[3];
    for (Zval& taken : surplus) {
      taken = TryAcquire(pool);
      log.push_back(taken.is_null() ? "tryAcquire null" : "tryAcquire got");
    }
    EXPECT_POOL_TALLY(pool, made);
    Yield();
    for (Zval& taken : surplus) {
      if (!taken.is_null()) Release(pool, taken);
    }
  });
  EXPECT_EQ(Joined(log),
            "idle=3 tryAcquire got tryAcquire got tryAcquire null Waiter "
            "acquired");
  EXPECT_EQ(made, 3);
}

}  // namespace
}  // namespace zar::pool_testing
