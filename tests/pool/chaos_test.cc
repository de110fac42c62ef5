// Behaviours F: the fuzzy/chaos scenarios' invariants, as deterministic
// tests (a fixed interleaving instead of a chaos scheduler).
//
// Invariants checked at every sampled instant: count() == idleCount() +
// activeCount() (and the event's info agrees), active + reserved <= max;
// at the end: acquired == released and activeCount() == 0.

#include <gtest/gtest.h>

#include <ostream>

#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolChaosTest = PoolTest;

// n workers, each doing `rounds` acquire -> (0..2 yields) -> release, with
// an inspector sampling the invariants at every turn.
struct Workload {
  zend_long min;
  zend_long max;
  int workers;
};

void PrintTo(const Workload& w, std::ostream* os) {
  *os << "(min=" << w.min << ", max=" << w.max << ", n=" << w.workers << ")";
}

class PoolChaosScenarioTest : public PoolTest,
                              public ::testing::WithParamInterface<Workload> {};

TEST_P(PoolChaosScenarioTest, AcquiredEqualsReleasedAndCountsStayConsistent) {
  const Workload w = GetParam();
  constexpr int kRounds = 5;
  int acquired = 0;
  int released = 0;
  int finished = 0;
  int samples = 0;
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool(
        {.factory = CountingFactory(&made), .min = w.min, .max = w.max});
    for (int id = 0; id < w.workers; id++) {
      Spawn([&, id] {
        for (int round = 0; round < kRounds; round++) {
          Zval resource = Acquire(pool);
          ASSERT_FALSE(resource.undef()) << TakeExceptionText();
          acquired++;
          YieldTimes((id + round) % 3);
          Release(pool, resource);
          released++;
        }
        finished++;
      });
    }
    Spawn([&] {
      while (finished < w.workers) {
        EXPECT_POOL_TALLY(pool, made);
        EXPECT_LE(Count(pool), w.max);
        samples++;
        Yield();
      }
    });
  }));
  EXPECT_EQ(acquired, w.workers * kRounds);
  EXPECT_EQ(released, acquired);
  EXPECT_EQ(ActiveCount(pool), 0);
  EXPECT_GT(samples, 0);
  EXPECT_POOL_TALLY(pool, made);
}

INSTANTIATE_TEST_SUITE_P(
    FeatureScenarios, PoolChaosScenarioTest,
    ::testing::Values(Workload{0, 10, 1}, Workload{0, 4, 5}, Workload{2, 8, 6}),
    [](const ::testing::TestParamInfo<Workload>& info) {
      return "Min" + std::to_string(info.param.min) + "Max" +
             std::to_string(info.param.max) + "Workers" +
             std::to_string(info.param.workers);
    });

TEST_F(PoolChaosTest, FourWorkersTimesThreeOnMaxTwo) {
  int acquired = 0;
  int released = 0;
  RunWithPool(2, [&] {
    for (int id = 0; id < 4; id++) {
      Spawn([&] {
        for (int i = 0; i < 3; i++) {
          Zval resource = Acquire(pool);
          acquired++;
          Yield();
          Release(pool, resource);
          released++;
          EXPECT_POOL_TALLY(pool, made);
        }
      });
    }
  });
  EXPECT_EQ(acquired, 12);
  EXPECT_EQ(released, 12);
  EXPECT_EQ(ActiveCount(pool), 0);
}

TEST_F(PoolChaosTest, ConcurrentTryAcquireGotPlusNullIsTwo) {
  int got = 0;
  int nulls = 0;
  RunWithPool(1, [&] {
    for (int i = 0; i < 2; i++) {
      Spawn([&] {
        Zval resource = TryAcquire(pool);
        if (resource.is_null()) {
          nulls++;
          return;
        }
        got++;
        Yield();
        Release(pool, resource);
      });
    }
  });
  EXPECT_EQ(got + nulls, 2);
  EXPECT_EQ(got, 1);
  EXPECT_EQ(ActiveCount(pool), 0);
}

TEST_F(PoolChaosTest, ThreeInspectorsOnMinThreeMaxSix) {
  int finished = 0;
  int inspections = 0;
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory = CountingFactory(&made), .min = 3, .max = 6});
    for (int id = 0; id < 4; id++) {
      Spawn([&, id] {
        for (int i = 0; i < 4; i++) {
          Zval resource = Acquire(pool);
          YieldTimes(1 + id % 2);
          Release(pool, resource);
        }
        finished++;
      });
    }
    for (int inspector = 0; inspector < 3; inspector++) {
      Spawn([&] {
        while (finished < 4) {
          EXPECT_POOL_TALLY(pool, made);
          EXPECT_GE(Count(pool), 3);
          EXPECT_LE(Count(pool), 6);
          inspections++;
          Yield();
        }
      });
    }
  }));
  EXPECT_GT(inspections, 3);
  EXPECT_EQ(ActiveCount(pool), 0);
}

TEST_F(PoolChaosTest, BreakerCyclesEndActive) {
  EXPECT_TRUE(RunMain([&] {
    for (int cycles : {1, 3}) {
      Zval pool = NewPhpPool({.factory = CountingFactory(&made), .min = 1});
      for (int i = 0; i < cycles; i++) {
        CallMethod(pool.get(), "deactivate");
        EXPECT_TRUE(TryAcquire(pool).is_null());
        CallMethod(pool.get(), "recover");
        Zval resource = TryAcquire(pool);
        EXPECT_FALSE(resource.is_null());
        Release(pool, resource);
        CallMethod(pool.get(), "activate");
        EXPECT_POOL_TALLY(pool, made);
      }
      log.push_back(std::to_string(cycles) + ":" + State(pool));
      made = 0;
    }
  }));
  EXPECT_EQ(Joined(log), "1:ACTIVE 3:ACTIVE");
}

struct Counts {
  int success = 0;
  int failure = 0;
};

Zval NewCountingStrategy(Counts* counts) {
  return NewStrategy(
      "CountingStrategy", [counts](mock_zend::Call&) { counts->success++; },
      [counts](mock_zend::Call&) { counts->failure++; },
      [](mock_zend::Call& call) { ZVAL_FALSE(call.result()); });
}

TEST_F(PoolChaosTest, RecordingStrategyCountsThreeSuccesses) {
  Counts counts;
  RunWithPool(2, [&] {
    Zval strategy = NewCountingStrategy(&counts);
    SetStrategy(pool, strategy.get());
    for (int i = 0; i < 3; i++) {
      Spawn([&] {
        Zval resource = Acquire(pool);
        Yield();
        Release(pool, resource);
      });
    }
  });
  EXPECT_EQ(counts.success, 3);
  EXPECT_EQ(counts.failure, 0);
}

TEST_F(PoolChaosTest, PoolRejectingEveryReleaseReportsTwoFailures) {
  Counts counts;
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory = CountingFactory(&made),
                       .destructor = CountingDestructor(&destroyed),
                       .before_release = [](mock_zend::Call& call) {
                         ZVAL_FALSE(call.result());
                       }});
    Zval strategy = NewCountingStrategy(&counts);
    SetStrategy(pool, strategy.get());
    for (int i = 0; i < 2; i++) {
      Spawn([&] {
        Zval resource = Acquire(pool);
        Release(pool, resource);
        EXPECT_POOL_TALLY(pool, made - destroyed);
      });
    }
  }));
  EXPECT_EQ(counts.failure, 2);
  EXPECT_EQ(counts.success, 0);
  EXPECT_EQ(Count(pool), 0);
}

TEST_F(PoolChaosTest, StrategyAttachDetach) {
  Counts counts;
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made)});
    Zval strategy = NewCountingStrategy(&counts);
    auto cycle = [&] {
      Zval resource = Acquire(pool);
      Release(pool, resource);
    };
    SetStrategy(pool, strategy.get());
    cycle();
    Zval null = Zval::Null();
    SetStrategy(pool, null.get());
    cycle();
    SetStrategy(pool, strategy.get());
    cycle();
    Zval other = NewCountingStrategy(&counts);
    SetStrategy(pool, other.get());  // replaces (the old one is released)
    cycle();
    EXPECT_POOL_TALLY(pool, made);
  }));
  EXPECT_EQ(counts.success, 3);
}

}  // namespace
}  // namespace zar::pool_testing
