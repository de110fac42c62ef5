// The groups the reference does not implement: every reactor slot of such
// a group throws its exact Error; the thread-pool group is not registered
// at all. Upstream implements all of them, so
// these are the reference's own texts and choices (label unit, not in the
// conformance runner).

#include <netdb.h>
#include <sys/socket.h>

#include <cstring>

#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

class ReactorUnsupportedTest : public ReactorTest {};

TEST_F(ReactorUnsupportedTest, ThreadEventsThrow) {
  EXPECT_EQ(ZEND_ASYNC_NEW_THREAD_EVENT(nullptr, nullptr), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Error: Thread events are not supported by zend-async-ref");
}

TEST_F(ReactorUnsupportedTest, ThreadPoolIsNotRegistered) {
  EXPECT_FALSE(zend_async_thread_pool_is_enabled());
  EXPECT_EQ(zend_async_new_thread_pool_fn, nullptr);
}

}  // namespace
}  // namespace zar::reactor_testing
