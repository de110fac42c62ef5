// Behaviours A8: the periodic healthcheck of idle resources.

#include <gtest/gtest.h>

#include <map>

#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolHealthcheckTest = PoolTest;

// A8 048. The scenario's 30 ms interval / 120 ms delay are scaled down.
TEST_F(PoolHealthcheckTest, UnhealthyIdleResourceIsReplacedToKeepMin) {
  std::map<zend_long, int> checks;
  Log destroyed_log;
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewCheckedPool(
        [&](mock_zend::Call& call) {
          const zend_long id = Z_LVAL_P(call.arg(0));
          checks[id]++;
          ZVAL_BOOL(call.result(), id != 1);
        },
        2, 4, 5, &destroyed_log);
    Delay(40);
    EXPECT_POOL_TALLY(pool, made - destroyed);
    EXPECT_EQ(Count(pool), 2) << "refilled up to min";
    Close(pool);
    EXPECT_EQ(TakeExceptionText(), "");
  }));
  EXPECT_GE(checks[1], 1);
  EXPECT_GE(checks[2], 1);
  EXPECT_EQ(checks[1], 1) << "resource 1 was destroyed at its first check";
  EXPECT_EQ(destroyed_log.front(), "destroy(1)");
  EXPECT_EQ(made, 3);
}

// A8 049. The scenario's 25 ms interval / 100 ms delay are scaled down.
TEST_F(PoolHealthcheckTest, HealthcheckExceptionMeansUnhealthyAndIsSwallowed) {
  Log destroyed_log;
  int checked = 0;
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewCheckedPool(
        [&](mock_zend::Call& call) {
          checked++;
          if (Z_LVAL_P(call.arg(0)) == 1) {
            ThrowRuntime("unhealthy");
            return;
          }
          ZVAL_TRUE(call.result());
        },
        2, 4, 5, &destroyed_log);
    Delay(30);
    EXPECT_EQ(TakeExceptionText(), "");
    EXPECT_POOL_TALLY(pool, made - destroyed);
  }));
  EXPECT_GE(checked, 1);
  ASSERT_FALSE(destroyed_log.empty());
  EXPECT_EQ(destroyed_log.front(), "destroy(1)");
}

TEST_F(PoolHealthcheckTest, ResourceCountsAsActiveWhileChecked) {
  std::vector<std::string> seen;
  EXPECT_TRUE(RunMain([&] {
    Zval pool;
    pool =
        NewPhpPool({.factory = CountingFactory(&made),
                    .healthcheck =
                        [&](mock_zend::Call& call) {
                          seen.push_back(std::to_string(IdleCount(pool)) + "/" +
                                         std::to_string(ActiveCount(pool)));
                          ZVAL_TRUE(call.result());
                        },
                    .min = 1,
                    .healthcheck_interval = 2});
    Delay(10);
    EXPECT_POOL_TALLY(pool, made);
  }));
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.front(), "0/1");
}

TEST_F(PoolHealthcheckTest, OnlyIdleResourcesAreChecked) {
  std::vector<zend_long> checked;
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made),
                            .healthcheck =
                                [&](mock_zend::Call& call) {
                                  checked.push_back(Z_LVAL_P(call.arg(0)));
                                  ZVAL_TRUE(call.result());
                                },
                            .min = 2,
                            .healthcheck_interval = 2});
    Zval lent = Acquire(pool);  // resource 1
    Delay(15);
    Release(pool, lent);
  }));
  ASSERT_FALSE(checked.empty());
  for (zend_long id : checked) EXPECT_EQ(id, 2);
}

TEST_F(PoolHealthcheckTest, HiddenTimerDoesNotKeepTheRequestAlive) {
  // Main ends at once although the pool (and its periodic timer) lives on.
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool(
        {.factory = CountingFactory(&made),
         .healthcheck = [](mock_zend::Call& call) { ZVAL_TRUE(call.result()); },
         .min = 1,
         .healthcheck_interval = 1000});
    Yield();
  }));
  Close(pool);
}

TEST_F(PoolHealthcheckTest, NoTimerWithoutHealthcheckOrInterval) {
  EXPECT_TRUE(RunMain([&] {
    const unsigned int events_before = ZEND_ASYNC_ACTIVE_EVENT_COUNT;
    Zval with_interval_only = NewPhpPool(
        {.factory = CountingFactory(&made), .healthcheck_interval = 5});
    Zval with_check_only =
        NewPhpPool({.factory = CountingFactory(&made),
                    .healthcheck = [](mock_zend::Call&) { FAIL(); }});
    Delay(15);
    EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, events_before);
  }));
}

TEST_F(PoolHealthcheckTest, CloseStopsTheHealthcheck) {
  int checks = 0;
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made),
                            .healthcheck =
                                [&checks](mock_zend::Call& call) {
                                  checks++;
                                  ZVAL_TRUE(call.result());
                                },
                            .min = 1,
                            .healthcheck_interval = 2});
    for (int i = 0; i < 100 && checks == 0; i++) Delay(2);
    ASSERT_GT(checks, 0);
    Close(pool);
    const int at_close = checks;
    Delay(15);
    EXPECT_EQ(checks, at_close);
  }));
}

}  // namespace
}  // namespace zar::pool_testing
