// Behaviours A2: acquiring and releasing, counting, max enforcement.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolAcquireReleaseTest = PoolTest;

// A2 004
TEST_F(PoolAcquireReleaseTest, ReleasedResourceIsReusedByTheNextAcquire) {
  RunWithPool(2, [&] {
    Zval first = TryAcquire(pool);
    EXPECT_EQ(Render(first), "1");
    EXPECT_EQ(IdleCount(pool), 0);
    EXPECT_EQ(ActiveCount(pool), 1);
    EXPECT_POOL_TALLY(pool, made);
    Release(pool, first);
    EXPECT_EQ(IdleCount(pool), 1);
    EXPECT_EQ(ActiveCount(pool), 0);
    EXPECT_POOL_TALLY(pool, made);
    Zval again = TryAcquire(pool);
    EXPECT_EQ(Render(again), "1");
    EXPECT_POOL_TALLY(pool, made);
    Release(pool, again);
  });
  EXPECT_EQ(made, 1);
}

// A2 011
TEST_F(PoolAcquireReleaseTest, CountOfThePoolIsIdlePlusActive) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool =
        NewPhpPool({.factory = CountingFactory(&made), .min = 2, .max = 5});
    // Countable: PHP's count($pool) uses a count_elements handler when the
    // object has one and calls count() otherwise; PHP requires neither to
    // exist, so the method is what is checked here.
    EXPECT_TRUE(instanceof_function(Z_OBJCE_P(pool.get()), zend_ce_countable));
    EXPECT_EQ(Count(pool), 2);
    EXPECT_POOL_TALLY(pool, made);
    Zval resource = TryAcquire(pool);
    EXPECT_EQ(Count(pool), 2);
    EXPECT_EQ(IdleCount(pool), 1);
    EXPECT_EQ(ActiveCount(pool), 1);
    EXPECT_POOL_TALLY(pool, made);
    Release(pool, resource);
    EXPECT_EQ(Count(pool), 2);
    EXPECT_POOL_TALLY(pool, made);
  }));
}

// A2 012
TEST_F(PoolAcquireReleaseTest, CoroutineAcquiresAndReleases) {
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory = CountingFactory(&made, &log), .max = 2});
    zend_coroutine_t* worker = Spawn([&] {
      log.push_back("acquiring");
      Zval resource = Acquire(pool);
      log.push_back("got " + Render(resource));
      EXPECT_POOL_TALLY(pool, made);
      Release(pool, resource);
      log.push_back("released");
      EXPECT_POOL_TALLY(pool, made);
    });
    Await(worker);
    EXPECT_EQ(Count(pool), 1);
    EXPECT_EQ(IdleCount(pool), 1);
  }));
  EXPECT_EQ(Joined(log), "acquiring factory(1) got 1 released");
}

// A2 016
TEST_F(PoolAcquireReleaseTest, ObjectResourcesKeepTheirIdentity) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool(
        {.factory =
             [&](mock_zend::Call& call) {
               ++made;
               log.push_back("created " + std::to_string(made));
               Zval object = NewObject(made);
               ZVAL_COPY(call.result(), object.get());
             },
         .destructor =
             [&](mock_zend::Call& call) {
               log.push_back("destroyed " + std::to_string(IdOf(call.arg(0))));
             },
         .min = 2,
         .max = 5});
    EXPECT_EQ(Joined(log), "created 1 created 2");
    Zval resource = TryAcquire(pool);
    EXPECT_EQ(IdOf(resource.get()), 1);
    EXPECT_EQ(Z_OBJCE_P(resource.get()), zend_standard_class_def);
    zend_object* identity = resource.obj();
    Release(pool, resource);
    Zval again = TryAcquire(pool);
    // FIFO idle: the other one comes first, then the same instance.
    EXPECT_EQ(IdOf(again.get()), 2);
    Zval third = TryAcquire(pool);
    EXPECT_EQ(third.obj(), identity);
    Release(pool, again);
    Release(pool, third);
    EXPECT_POOL_TALLY(pool, made);
    log.clear();
    Close(pool);
    log.push_back("Closed");
    EXPECT_POOL_TALLY(pool, 0);
  }));
  ASSERT_EQ(log.size(), 3u);
  std::vector<std::string> destroyed(log.begin(), log.end() - 1);
  std::sort(destroyed.begin(), destroyed.end());
  EXPECT_EQ(Joined(destroyed), "destroyed 1 destroyed 2");
  EXPECT_EQ(log.back(), "Closed");
}

// A2 019
TEST_F(PoolAcquireReleaseTest, TryAcquireStopsAtMax) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made), .max = 3});
    Zval held[3];
    for (int i = 0; i < 3; i++) {
      held[i] = TryAcquire(pool);
      EXPECT_EQ(held[i].lval(), i + 1);
      EXPECT_POOL_TALLY(pool, made);
    }
    Zval fourth = TryAcquire(pool);
    EXPECT_TRUE(fourth.is_null());
    EXPECT_EQ(made, 3);
    EXPECT_POOL_TALLY(pool, made);
    for (Zval& r : held) Release(pool, r);
  }));
  EXPECT_EQ(made, 3);
}

// A2 020
TEST_F(PoolAcquireReleaseTest, SameResourceIsReusedAcrossCycles) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory =
                                [this](mock_zend::Call& call) {
                                  ++made;
                                  const std::string name =
                                      "resource_" + std::to_string(made);
                                  ZVAL_STRING(call.result(), name.c_str());
                                },
                            .max = 2});
    for (int i = 0; i < 3; i++) {
      Zval resource = Acquire(pool);
      EXPECT_EQ(Render(resource), "'resource_1'");
      EXPECT_POOL_TALLY(pool, made);
      Release(pool, resource);
      EXPECT_POOL_TALLY(pool, made);
    }
  }));
  EXPECT_EQ(made, 1);
}

// A2 024 (pool_concurrent_acquire)
TEST_F(PoolAcquireReleaseTest, CoroutinesWithoutSuspensionShareOneResource) {
  RunWithPool(2, [&] {
    for (int c = 1; c <= 3; c++) {
      Spawn([&, c] {
        Zval resource = Acquire(pool);
        log.push_back("c" + std::to_string(c) + ":" + Render(resource));
        Release(pool, resource);
        EXPECT_POOL_TALLY(pool, made);
      });
    }
  });
  EXPECT_EQ(Joined(log), "c1:1 c2:1 c3:1");
  EXPECT_EQ(made, 1);
}

// A2 024 (pool_max_size_concurrent_factory). The scenario's 50/100/75 ms
// are scaled down; the outcome does not depend on them.
TEST_F(PoolAcquireReleaseTest, SlowFactoryCountsAgainstMaxWhileItRuns) {
  int making = 0;  // factories suspended in their Delay
  zend_long probed = -1;
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory =
                           [&](mock_zend::Call& call) {
                             ++made;
                             ++making;
                             const int id = made;
                             Delay(10);
                             --making;
                             ZVAL_LONG(call.result(), id);
                           },
                       .max = 3});
    for (int i = 0; i < 10; i++) {
      Spawn([&] {
        Zval resource = Acquire(pool);
        EXPECT_FALSE(resource.undef()) << TakeExceptionText();
        EXPECT_POOL_TALLY(pool, made, making);
        Delay(20);
        Release(pool, resource);
        EXPECT_POOL_TALLY(pool, made, making);
      });
    }
    Spawn([&] {
      Delay(15);
      probed = Count(pool);
      EXPECT_POOL_TALLY(pool, made, making);
    });
  }));
  EXPECT_EQ(probed, 3);
  EXPECT_EQ(made, 3);
  EXPECT_EQ(Count(pool), 3);
}

// A2 033
TEST_F(PoolAcquireReleaseTest, ConcurrentWorkersNeverExceedMax) {
  int holders = 0;
  int peak = 0;
  int completed = 0;
  RunWithPool(2, [&] {
    for (int i = 0; i < 5; i++) {
      Spawn([&] {
        Zval resource = Acquire(pool);
        holders++;
        peak = std::max(peak, holders);
        EXPECT_POOL_TALLY(pool, made);
        Yield();
        holders--;
        Release(pool, resource);
        EXPECT_POOL_TALLY(pool, made);
        completed++;
      });
    }
  });
  EXPECT_EQ(completed, 5);
  EXPECT_EQ(peak, 2);
  EXPECT_EQ(IdleCount(pool), 2);
  EXPECT_EQ(Count(pool), 2);
}

// A2 037
TEST_F(PoolAcquireReleaseTest, ProducerConsumerTasksAllProcessed) {
  int processed = 0;
  RunWithPool(3, [&] {
    for (int i = 0; i < 10; i++) {
      Spawn([&] {
        Zval resource = Acquire(pool);
        Yield();
        Release(pool, resource);
        processed++;
        EXPECT_POOL_TALLY(pool, made);
      });
    }
  });
  EXPECT_EQ(processed, 10);
  EXPECT_EQ(Count(pool), 3);
  EXPECT_EQ(IdleCount(pool), Count(pool));
}

// A2 046
TEST_F(PoolAcquireReleaseTest, IdleRingGrowsPastItsInitialCapacity) {
  bool release_now = false;
  zend_long active_while_held = -1;
  RunWithPool(15, [&] {
    SpawnHolders(pool, 15, release_now);
    Yield();  // every worker acquires and waits at the barrier
    active_while_held = ActiveCount(pool);
    EXPECT_POOL_TALLY(pool, made);
    release_now = true;
    YieldTimes(2);
    EXPECT_EQ(Count(pool), 15);
    EXPECT_EQ(IdleCount(pool), 15);
    EXPECT_EQ(ActiveCount(pool), 0);
    EXPECT_POOL_TALLY(pool, made);
    Zval again = Acquire(pool);
    EXPECT_GE(again.lval(), 1);
    EXPECT_LE(again.lval(), 15);
    Release(pool, again);
  });
  EXPECT_EQ(active_while_held, 15);
  EXPECT_EQ(made, 15);
}

// A2 056. The scenario's 30/20/10 ms are scaled down.
TEST_F(PoolAcquireReleaseTest, ResourceInsideASuspendedHookStillCounts) {
  int checking = 0;  // hooks suspended in their Delay
  std::vector<zend_long> samples;
  EXPECT_TRUE(RunMain([&] {
    auto slow_true = [&checking](mock_zend::Call& call) {
      ++checking;
      Delay(6);
      --checking;
      ZVAL_TRUE(call.result());
    };
    pool = NewPhpPool({.factory = CountingFactory(&made),
                       .before_acquire = slow_true,
                       .before_release = slow_true,
                       .max = 1});
    Spawn([&] {
      Zval resource = Acquire(pool);
      Delay(4);
      Release(pool, resource);
      // Once more: beforeAcquire runs on the idle resource this time.
      Zval again = Acquire(pool);
      Release(pool, again);
    });
    Spawn([&] {
      for (int i = 0; i < 8; i++) {
        Delay(2);
        samples.push_back(Count(pool));
        EXPECT_POOL_TALLY(pool, made, checking);
      }
    });
  }));
  ASSERT_EQ(samples.size(), 8u);
  for (zend_long sample : samples) EXPECT_EQ(sample, 1);
  EXPECT_EQ(made, 1);
}

// A2 067
TEST_F(PoolAcquireReleaseTest, ReleaseKeepsTheCallersReference) {
  std::string tag;
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool(
        {.factory =
             [this](mock_zend::Call& call) {
               ++made;
               Zval object = NewObject(1);
               ZVAL_COPY(call.result(), object.get());
             },
         .destructor = CountingDestructor(&destroyed),
         .before_release =
             [](mock_zend::Call& call) { ZVAL_FALSE(call.result()); },
         .max = 1});
    Spawn([&] {
      Zval resource = Acquire(pool);
      zend_update_property_string(nullptr, resource.obj(), ZEND_STRL("tag"),
                                  "mine");
      const uint32_t refcount = Z_REFCOUNT_P(resource.get());
      Release(pool, resource);
      EXPECT_EQ(Z_REFCOUNT_P(resource.get()), refcount);
      zval rv;
      zval* value = zend_read_property(nullptr, resource.obj(),
                                       ZEND_STRL("tag"), true, &rv);
      ASSERT_NE(value, nullptr);
      tag = std::string(Z_STRVAL_P(value), Z_STRLEN_P(value));
      EXPECT_POOL_TALLY(pool, made - destroyed);
    });
  }));
  EXPECT_EQ(destroyed, 1);
  EXPECT_EQ(tag, "mine");
  EXPECT_EQ(IdleCount(pool), 0);
  EXPECT_EQ(Count(pool), 0);
}

}  // namespace
}  // namespace zar::pool_testing
