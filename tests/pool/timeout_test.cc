// Behaviours A5: acquire timeouts.

#include <gtest/gtest.h>

#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolTimeoutTest = PoolTest;

// A5 031
TEST_F(PoolTimeoutTest, AcquireTimesOutWithTimeoutException) {
  std::string caught;
  Zval held;
  RunWithPool(1, [&] {
    held = TryAcquire(pool);
    Spawn([&] {
      Zval resource = Acquire(pool, 50);
      EXPECT_TRUE(resource.undef());
      caught = TakeExceptionText();
      EXPECT_POOL_TALLY(pool, made);
    });
  });
  EXPECT_EQ(caught,
            "Async\\TimeoutException: Operation has been cancelled by timeout");
  Release(pool, held);
  // The timed-out waiter left no reservation behind: the released resource
  // is open to a caller that never waited.
  Zval again = TryAcquire(pool);
  EXPECT_EQ(Render(again), "1");
  Release(pool, again);
}

// A5 038
TEST_F(PoolTimeoutTest, OneMillisecondTimeoutThenTryAcquireAfterRelease) {
  RunWithPool(1, [&] {
    Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back("outer got " + Render(resource));
      zend_coroutine_t* inner = Spawn([&] {
        Zval other = Acquire(pool, 1);
        log.push_back("inner " +
                      (other.undef() ? TakeExceptionText() : Render(other)));
      });
      Await(inner);
      Release(pool, resource);
      Zval again = TryAcquire(pool);
      log.push_back("tryAcquire " + Render(again));
      Release(pool, again);
      EXPECT_POOL_TALLY(pool, made);
    });
  });
  EXPECT_EQ(Joined(log),
            "outer got 1 inner Async\\TimeoutException: Operation has been "
            "cancelled by timeout tryAcquire 1");
}

// A5 055
TEST_F(PoolTimeoutTest, TimeoutExceptionIsNotAPoolException) {
  Zval held;
  RunWithPool(1, [&] {
    held = TryAcquire(pool);
    Zval resource = Acquire(pool, 50);
    EXPECT_TRUE(resource.undef());
    zend_object* exception = EG(exception);
    ASSERT_NE(exception, nullptr);
    zend_class_entry* pool_exception = LookupClass("Async\\PoolException");
    ASSERT_NE(pool_exception, nullptr);
    EXPECT_FALSE(instanceof_function(exception->ce, pool_exception));
    log.push_back(TakeExceptionText());
    Close(pool);
    Zval after = Acquire(pool);
    EXPECT_TRUE(after.undef());
    log.push_back(TakeExceptionText());
  });
  EXPECT_EQ(Joined(log),
            "Async\\TimeoutException: Operation has been cancelled by timeout "
            "Async\\PoolException: Pool is closed");
  Release(pool, held);  // into a closed pool: destroyed
  EXPECT_EQ(Count(pool), 0);
}

TEST_F(PoolTimeoutTest, ZeroOrNegativeTimeoutWaitsForever) {
  RunWithPool(1, [&] {
    Spawn([&] {
      Zval resource = Acquire(pool);
      Delay(20);  // longer than any timeout a 0 could be mistaken for
      Release(pool, resource);
    });
    for (zend_long timeout : {0, -5}) {
      Spawn([&, timeout] {
        Zval resource = Acquire(pool, timeout);
        log.push_back("timeout " + std::to_string(timeout) + " got " +
                      Render(resource));
        Release(pool, resource);
      });
    }
  });
  EXPECT_EQ(Joined(log), "timeout 0 got 1 timeout -5 got 1");
}

TEST_F(PoolTimeoutTest, WaiterServedBeforeItsTimeoutKeepsNoTimer) {
  std::string got;
  RunWithPool(1, [&] {
    SpawnHolder(pool, 1);
    Spawn([&] {
      Zval resource = Acquire(pool, 10000);
      got = Render(resource);
      Release(pool, resource);
    });
  });
  // The request ends at once: the 10 s timer was disposed with the wait.
  EXPECT_EQ(got, "1");
}

}  // namespace
}  // namespace zar::pool_testing
