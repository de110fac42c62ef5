// The reference's answer where the ABI's class table leaves the choice
// open: ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_POOL) is NULL here, although the
// reference registers Async\Pool (core/pool); php-async answers NULL too
// (async_API.c async_get_class_ce) and registers Async\Pool as well.

#include <gtest/gtest.h>

#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ClassesReferenceTest = SchedulerTest;

TEST_F(ClassesReferenceTest, ThePoolTypeHasNoClass) {
  EXPECT_EQ(ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_POOL), nullptr);
}

}  // namespace
}  // namespace zar::scheduler_testing
