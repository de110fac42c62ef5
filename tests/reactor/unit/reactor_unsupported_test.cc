// The group the reference does not implement: its reactor slot
// (new_thread_event) throws its exact Error. Upstream implements it, so this
// is the reference's own text (label unit, not in the conformance runner).

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

}  // namespace
}  // namespace zar::reactor_testing
