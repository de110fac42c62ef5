// The reference scheduler's wakers seen through its own choices: what the
// conformance suite cannot ask of another implementation (upstream's
// coroutines carry their waker for life).

#include <gtest/gtest.h>

#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

class WakerInternalTest : public SchedulerTest {};

// The reference destroys a coroutine's waker when it finishes; a later
// ZEND_ASYNC_WAKER_NEW makes a fresh one.
TEST_F(WakerInternalTest, AFinishedCoroutineHasNoWaker) {
  CoroutineRef finished;
  EXPECT_TRUE(RunMain([&] {
    finished = CoroutineRef(Spawn([](mock_zend::Call&) {}));
    Await(finished.get());
    ASSERT_TRUE(ZEND_COROUTINE_IS_FINISHED(finished.get()));
    EXPECT_EQ(finished->waker, nullptr);
    zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(finished.get());
    ASSERT_NE(waker, nullptr);
    EXPECT_EQ(finished->waker, waker);
    finished.Reset();
  }));
}

}  // namespace
}  // namespace zar::scheduler_testing
