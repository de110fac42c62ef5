// Tests of the monotonic clock (zend_hrtime.h).

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

extern "C" {
#include "zend_hrtime.h"
}

namespace {

TEST(MockZendHrtimeTest, IsNanosecondsOfTheMonotonicClock) {
  timespec ts{};
  ASSERT_EQ(clock_gettime(CLOCK_MONOTONIC, &ts), 0);
  const zend_hrtime_t before =
      static_cast<zend_hrtime_t>(ts.tv_sec) * ZEND_NANO_IN_SEC + ts.tv_nsec;
  const zend_hrtime_t now = zend_hrtime();
  ASSERT_EQ(clock_gettime(CLOCK_MONOTONIC, &ts), 0);
  const zend_hrtime_t after =
      static_cast<zend_hrtime_t>(ts.tv_sec) * ZEND_NANO_IN_SEC + ts.tv_nsec;
  EXPECT_LE(before, now);
  EXPECT_LE(now, after);
}

TEST(MockZendHrtimeTest, MeasuresASleep) {
  zend_startup_hrtime();
  const zend_hrtime_t start = zend_hrtime();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const zend_hrtime_t elapsed = zend_hrtime() - start;
  EXPECT_GE(elapsed, 20u * 1000 * 1000);
  EXPECT_LT(elapsed, 5u * ZEND_NANO_IN_SEC);
  EXPECT_EQ(ZEND_NANO_IN_SEC, 1000000000u);
}

}  // namespace
