// Behaviours A7: closing a pool.

#include <gtest/gtest.h>

#include "mock_zend/inspect.h"
#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolCloseTest = PoolTest;

// A7 005
TEST_F(PoolCloseTest, CloseDestroysIdleResourcesInOrder) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made),
                            .destructor = CountingDestructor(&destroyed, &log),
                            .min = 2,
                            .max = 5});
    log.push_back("idle=" + std::to_string(IdleCount(pool)) +
                  (IsClosed(pool) ? " closed" : " open"));
    Close(pool);
    log.push_back(IsClosed(pool) ? "closed" : "open");
    EXPECT_POOL_TALLY(pool, made - destroyed);
  }));
  EXPECT_EQ(Joined(log), "idle=2 open destroy(1) destroy(2) closed");
}

// A7 006
TEST_F(PoolCloseTest, AcquireOnAClosedPoolThrows) {
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory = CountingFactory(&made)});
    Close(pool);
    Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back(TakeExceptionText());
    });
    log.push_back("Done");
  }));
  EXPECT_EQ(Joined(log), "Done Async\\PoolException: Pool is closed");
  EXPECT_EQ(made, 0);
}

// A7 013
TEST_F(PoolCloseTest, DoubleCloseIsANoOp) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made),
                            .destructor = CountingDestructor(&destroyed, &log),
                            .min = 1});
    Close(pool);
    EXPECT_TRUE(IsClosed(pool));
    Close(pool);
    EXPECT_TRUE(IsClosed(pool));
    EXPECT_EQ(TakeExceptionText(), "");
  }));
  EXPECT_EQ(Joined(log), "destroy(1)");
}

// A7 015
TEST_F(PoolCloseTest, ReleaseIntoAClosedPoolDestroysTheResource) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool =
        NewPhpPool({.factory = CountingFactory(&made),
                    .destructor = CountingDestructor(&destroyed, &log)});
    Zval resource = Acquire(pool);
    Close(pool);
    log.push_back("closed");
    EXPECT_POOL_TALLY(pool, made - destroyed);
    Release(pool, resource);
    EXPECT_EQ(IdleCount(pool), 0);
    EXPECT_POOL_TALLY(pool, made - destroyed);
  }));
  EXPECT_EQ(Joined(log), "closed destroy(1)");
}

// A7 028
TEST_F(PoolCloseTest, DestroyingThePoolObjectClosesThePool) {
  EXPECT_TRUE(RunMain([&] {
    auto function = [&] {
      Zval pool =
          NewPhpPool({.factory = CountingFactory(&made, &log),
                      .destructor = CountingDestructor(&destroyed, &log),
                      .min = 2});
      EXPECT_POOL_TALLY(pool, made - destroyed);
    };  // the local goes out of scope here
    function();
    log.push_back("returned");
  }));
  EXPECT_EQ(Joined(log),
            "factory(1) factory(2) destroy(1) destroy(2) returned");
}

// A7 032
TEST_F(PoolCloseTest, CloseWakesAWaiterAfterCloseReturns) {
  Zval held;
  RunWithPool(1, [&] {
    held = TryAcquire(pool);
    Spawn([&] {
      log.push_back("Waiter: trying to acquire");
      Zval resource = Acquire(pool);
      zend_object* exception = mock_zend::TakeException();
      ASSERT_NE(exception, nullptr);
      log.push_back("Waiter: " + mock_zend::ExceptionMessage(exception));
      OBJ_RELEASE(exception);
    });
    Spawn([&] {
      log.push_back("Closer: closing pool");
      Close(pool);
      log.push_back("Closer: done");
    });
    log.push_back("Main: done");
  });
  EXPECT_EQ(Joined(log),
            "Main: done Waiter: trying to acquire Closer: closing pool "
            "Closer: done Waiter: Pool is closed");
  Release(pool, held);
}

// A7 036
TEST_F(PoolCloseTest, CloseWakesAllWaiters) {
  Zval held;
  RunWithPool(1, [&] {
    held = TryAcquire(pool);
    for (const char* name : {"W1", "W2", "W3"}) {
      Spawn([&, name] {
        Zval resource = Acquire(pool);
        log.push_back(std::string(name) + " " + TakeExceptionText());
      });
    }
    Spawn([&] {
      YieldTimes(3);
      Close(pool);
      EXPECT_POOL_TALLY(pool, made);
    });
  });
  // Drained from the newest waiter.
  EXPECT_EQ(Joined(log),
            "W3 Async\\PoolException: Pool is closed "
            "W2 Async\\PoolException: Pool is closed "
            "W1 Async\\PoolException: Pool is closed");
  Release(pool, held);
}

// A7 057
TEST_F(PoolCloseTest, CloseDuringUnwindKeepsTheInFlightException) {
  EXPECT_TRUE(RunMain([&] {
    auto function = [&] {
      Zval pool =
          NewPhpPool({.factory = CountingFactory(&made),
                      .destructor = CountingDestructor(&destroyed, &log),
                      .min = 1,
                      .max = 2});
      ThrowRuntime("boom");
    };  // the pool dies while 'boom' is in flight
    function();
    log.push_back("caught " + TakeExceptionText());
  }));
  EXPECT_EQ(Joined(log), "destroy(1) caught RuntimeException: boom");
}

TEST_F(PoolCloseTest, DestructorErrorDuringUnwindIsChainedBehindInFlight) {
  std::vector<std::string> chain;
  EXPECT_TRUE(RunMain([&] {
    auto function = [&] {
      Zval pool = NewPhpPool(
          {.factory = CountingFactory(&made),
           .destructor =
               [](mock_zend::Call&) { ThrowRuntime("destructor failed"); },
           .min = 1});
      ThrowRuntime("boom");
    };
    function();
    zend_object* exception = mock_zend::TakeException();
    ASSERT_NE(exception, nullptr);
    chain = mock_zend::ExceptionChain(exception);
    OBJ_RELEASE(exception);
  }));
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(chain[0], "RuntimeException: boom");
  EXPECT_EQ(chain[1], "RuntimeException: destructor failed");
}

TEST_F(PoolCloseTest, EveryIdleResourceIsDestroyedEvenIfDestructorsThrow) {
  std::vector<std::string> chain;
  EXPECT_TRUE(RunMain([&] {
    Zval pool =
        NewPhpPool({.factory = CountingFactory(&made),
                    .destructor = ThrowingDestructor(&log, "failed", true),
                    .min = 3});
    Close(pool);
    zend_object* exception = mock_zend::TakeException();
    ASSERT_NE(exception, nullptr);
    chain = mock_zend::ExceptionChain(exception);
    OBJ_RELEASE(exception);
    EXPECT_EQ(IdleCount(pool), 0);
  }));
  EXPECT_EQ(Joined(log), "destroy(1) destroy(2) destroy(3)");
  // The last is thrown, with the earlier ones as its previous chain.
  ASSERT_EQ(chain.size(), 3u);
  EXPECT_EQ(chain[0], "RuntimeException: failed 3");
  EXPECT_EQ(chain[1], "RuntimeException: failed 2");
  EXPECT_EQ(chain[2], "RuntimeException: failed 1");
}

// A7 063
TEST_F(PoolCloseTest, CloseWithAReservedResourceDestroysItOnce) {
  bool released = false;
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory = CountingFactory(&made),
                       .destructor = CountingDestructor(&destroyed),
                       .max = 1});
    SpawnHolder(pool, 2, &released);  // its release reserves it for the waiter
    Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back("Waiter " + TakeExceptionText());
    });
    ASSERT_TRUE(YieldUntil([&] { return released; }));
    Close(pool);
    EXPECT_POOL_TALLY(pool, made - destroyed);
  }));
  EXPECT_EQ(Joined(log), "Waiter Async\\PoolException: Pool is closed");
  EXPECT_EQ(made, 1);
  EXPECT_EQ(destroyed, 1);
  EXPECT_EQ(IdleCount(pool), 0);
}

TEST_F(PoolCloseTest, LentResourcesAreDestroyedWhenReleasedAfterClose) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made),
                            .destructor = CountingDestructor(&destroyed),
                            .max = 3});
    Zval a = Acquire(pool);
    Zval b = Acquire(pool);
    Close(pool);
    EXPECT_EQ(ActiveCount(pool), 2);
    EXPECT_POOL_TALLY(pool, made - destroyed);
    Release(pool, a);
    Release(pool, b);
    EXPECT_EQ(Count(pool), 0);
    EXPECT_POOL_TALLY(pool, made - destroyed);
  }));
  EXPECT_EQ(destroyed, 2);
}

// The factory suspends, the pool is closed meanwhile (its owner still holds
// it): the acquire hands out what the factory made, as a lent resource of
// a closed pool, and its release destroys it. Nothing is lost.
TEST_F(PoolCloseTest, AcquireWhoseFactorySuspendsAcrossCloseHandsItOut) {
  bool slow = true;
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory =
                           [&](mock_zend::Call& call) {
                             if (slow) {
                               slow = false;
                               log.push_back("factory suspends");
                               Delay(2);
                             }
                             ZVAL_LONG(call.result(), ++made);
                             log.push_back("made " + std::to_string(made));
                           },
                       .destructor = CountingDestructor(&destroyed, &log),
                       .max = 2});
    Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back("acquired " + Render(resource.get()) + " " +
                    TakeExceptionText());
      EXPECT_POOL_TALLY(pool, made - destroyed);
      Release(pool, resource);
      EXPECT_POOL_TALLY(pool, made - destroyed);
    });
    Yield();  // inside the factory: being made, busy
    EXPECT_POOL_TALLY(pool, /*alive=*/1, /*busy=*/1);
    log.push_back("close");
    Close(pool);
    EXPECT_POOL_TALLY(pool, /*alive=*/1, /*busy=*/1);
  }));
  EXPECT_EQ(Joined(log),
            "factory suspends close made 1 acquired 1  destroy(1)");
  EXPECT_EQ(made, 1);
  EXPECT_EQ(destroyed, 1);
  EXPECT_EQ(Count(pool), 0);
}

}  // namespace
}  // namespace zar::pool_testing
