// The reference's own choices for timer and exec events where the ABI
// leaves the outcome open (php-async chooses otherwise; the conformance
// suite asserts only what both must do):
// - start() of a closed event returns false (php-async: true, doing nothing);
// - a fired MULTISHOT one-shot timer and a finished command hold no loop
//   reference (php-async: they count as started until their owner stops
//   them), and a finished command's event is closed;
// - rearm refuses a timer without MULTISHOT, and NULL (outside rearm's
//   contract; php-async asserts on the first);
// - milliseconds and nanoseconds given together add up (php-async uses the
//   nanoseconds only when the milliseconds are 0).

#include <climits>

#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

class TimerEventReferenceTest : public ReactorTest {};

TEST_F(TimerEventReferenceTest, StartOfAFiredOneShotReturnsFalse) {
  NotificationLog log;
  zend_async_timer_event_t* timer = StartedTimer(1, false, &log, "once");
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  EXPECT_FALSE(timer->base.start(&timer->base));
  ZEND_ASYNC_EVENT_RELEASE(&timer->base);
}

TEST_F(TimerEventReferenceTest, AFiredMultishotOneShotHoldsNoLoopReference) {
  NotificationLog log;
  zend_async_timer_event_t* timer = StartedTimer(1, false, &log, "multi");
  ZEND_ASYNC_TIMER_SET_MULTISHOT(timer);  // before it fires

  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  EXPECT_FALSE(ZEND_ASYNC_EVENT_IS_CLOSED(&timer->base));
  ExpectLoopReferences(&timer->base, 0, 0);
  ZEND_ASYNC_EVENT_RELEASE(&timer->base);
}

TEST_F(TimerEventReferenceTest, RearmRefusesATimerWithoutMultishotAndNull) {
  zend_async_timer_event_t* plain = ZEND_ASYNC_NEW_TIMER_EVENT(10, false);
  EXPECT_FALSE(ZEND_ASYNC_TIMER_REARM(plain, 5, 0));
  EXPECT_EQ(plain->timeout, 10u);
  EXPECT_EQ(plain->base.loop_ref_count, 0u);

  EXPECT_FALSE(ZEND_ASYNC_TIMER_REARM(nullptr, 5, 0));
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ZEND_ASYNC_EVENT_RELEASE(&plain->base);
}

TEST_F(TimerEventReferenceTest, MillisecondsAndNanosecondsAddUp) {
  EXPECT_EQ(TimeoutOf(2, 500000), 3u);
  EXPECT_EQ(TimeoutOf(UINT_MAX - 1, 2000000), UINT_MAX);

  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(10, false);
  ZEND_ASYNC_TIMER_SET_MULTISHOT(timer);
  EXPECT_TRUE(ZEND_ASYNC_TIMER_REARM(timer, 1, 1));
  EXPECT_EQ(timer->timeout, 2u);
  ZEND_ASYNC_EVENT_RELEASE(&timer->base);
}

class ExecEventReferenceTest : public ReactorTest {};

TEST_F(ExecEventReferenceTest, AFinishedCommandIsClosedAndHoldsNoReference) {
  zval buffer;
  zval value;
  ZVAL_NULL(&buffer);
  ZVAL_NULL(&value);
  NotificationLog log;
  zend_async_exec_event_t* exec =
      ZEND_ASYNC_NEW_EXEC_EVENT(ZEND_ASYNC_EXEC_MODE_EXEC, "true", &buffer,
                                &value, nullptr, nullptr, nullptr);
  AddRecorder(&exec->base, &log, "done");
  ASSERT_TRUE(exec->base.start(&exec->base));
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  EXPECT_TRUE(log[0].closed);
  ExpectLoopReferences(&exec->base, 0, 0);
  // A start after the end takes no reference either.
  exec->base.start(&exec->base);
  ExpectLoopReferences(&exec->base, 0, 0);
  ZEND_ASYNC_EVENT_RELEASE(&exec->base);
  zval_ptr_dtor(&buffer);
  zval_ptr_dtor(&value);
}

}  // namespace
}  // namespace zar::reactor_testing
