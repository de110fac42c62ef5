// The loop-level entries: liveness, loop_ref_count and
// active_event_count bookkeeping (HIDDEN included), execute, now,
// available_parallelism, quiesce, startup/shutdown.

#include <chrono>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

using ::testing::ElementsAre;

class ReactorLoopTest : public ReactorTest {};

TEST_F(ReactorLoopTest, NothingStartedIsNotAliveAndExecuteReturnsAtOnce) {
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_EXECUTE(true));
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_EXECUTE(false));

  // A created but never started event changes nothing.
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(60000, false);
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_EXECUTE(false));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ZEND_ASYNC_EVENT_RELEASE(&timer->base);
}

TEST_F(ReactorLoopTest, StartsAndStopsCountLoopReferencesOnePerEvent) {
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(60000, false);
  zend_async_event_t* event = &timer->base;

  ASSERT_TRUE(event->start(event));
  ExpectLoopReferences(event, 1, 1);
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());

  ASSERT_TRUE(event->start(event));
  ExpectLoopReferences(event, 2, 1);

  EXPECT_TRUE(event->stop(event));
  ExpectLoopReferences(event, 1, 1);
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());

  EXPECT_TRUE(event->stop(event));
  ExpectLoopReferences(event, 0, 0);
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());

  // Stopping a stopped event is a no-op.
  EXPECT_TRUE(event->stop(event));
  ExpectLoopReferences(event, 0, 0);
  ZEND_ASYNC_EVENT_RELEASE(event);
}

TEST_F(ReactorLoopTest, SeveralEventsEachCountOnce) {
  zend_async_timer_event_t* a = ZEND_ASYNC_NEW_TIMER_EVENT(60000, false);
  zend_async_timer_event_t* b = ZEND_ASYNC_NEW_TIMER_EVENT(60000, true);
  zend_async_trigger_event_t* c = ZEND_ASYNC_NEW_TRIGGER_EVENT();
  ASSERT_TRUE(a->base.start(&a->base));
  ASSERT_TRUE(b->base.start(&b->base));
  ASSERT_TRUE(c->base.start(&c->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 3u);

  // Disposing a started event stops it.
  ZEND_ASYNC_EVENT_RELEASE(&b->base);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 2u);
  ZEND_ASYNC_EVENT_RELEASE(&a->base);
  ZEND_ASYNC_EVENT_RELEASE(&c->base);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
}

TEST_F(ReactorLoopTest, HiddenEventIsNotCountedAndDoesNotKeepTheLoopAlive) {
  zend_async_timer_event_t* hidden = ZEND_ASYNC_NEW_TIMER_EVENT(3600000, true);
  ZEND_ASYNC_EVENT_SET_HIDDEN(&hidden->base);

  ASSERT_TRUE(hidden->base.start(&hidden->base));
  EXPECT_EQ(hidden->base.loop_ref_count, 1u);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  // Does not wait for the hidden timer (this would block for an hour).
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_EXECUTE(false));

  EXPECT_TRUE(hidden->base.stop(&hidden->base));
  EXPECT_EQ(hidden->base.loop_ref_count, 0u);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ZEND_ASYNC_EVENT_RELEASE(&hidden->base);
}

TEST_F(ReactorLoopTest, HiddenEventStillFiresWhileTheLoopRunsForOthers) {
  NotificationLog log;
  zend_async_timer_event_t* hidden = ZEND_ASYNC_NEW_TIMER_EVENT(1, false);
  ZEND_ASYNC_EVENT_SET_HIDDEN(&hidden->base);
  AddRecorder(&hidden->base, &log, "hidden");
  zend_async_timer_event_t* visible = ZEND_ASYNC_NEW_TIMER_EVENT(5, false);
  AddRecorder(&visible->base, &log, "visible");
  ASSERT_TRUE(hidden->base.start(&hidden->base));
  ASSERT_TRUE(visible->base.start(&visible->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);

  ASSERT_TRUE(RunUntil([&] { return log.size() == 2; }));

  EXPECT_THAT(Names(log), ElementsAre("hidden", "visible"));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ZEND_ASYNC_EVENT_RELEASE(&hidden->base);
  ZEND_ASYNC_EVENT_RELEASE(&visible->base);
}

TEST_F(ReactorLoopTest, ExecuteReturnsWhetherTheLoopIsStillAlive) {
  NotificationLog log;
  zend_async_timer_event_t* timer = StartedTimer(1, false, &log, "once");

  bool alive = true;
  int passes = 0;
  while (alive && passes++ < 10000) {
    alive = ZEND_ASYNC_REACTOR_EXECUTE(false);
  }

  EXPECT_FALSE(alive);
  EXPECT_EQ(log.size(), 1u);
  ZEND_ASYNC_EVENT_RELEASE(&timer->base);
}

void ThrowFromCallback(zend_async_event_t*, void*) {
  zend_throw_error(nullptr, "callback failed");
}

TEST_F(ReactorLoopTest, ACallbackExceptionEndsThePassAndStaysPending) {
  NotificationLog log;
  zend_async_timer_event_t* timer =
      StartedTimer(1, false, &log, "thrower", ThrowFromCallback);
  AddRecorder(&timer->base, &log, "second");

  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  EXPECT_THAT(Names(log), ElementsAre("thrower"));
  EXPECT_EQ(TakeExceptionText(), "Error: callback failed");
  ZEND_ASYNC_EVENT_RELEASE(&timer->base);
}

TEST_F(ReactorLoopTest, NowIsCachedUntilALoopPassAndNeverGoesBack) {
  const uint64_t before = ZEND_ASYNC_NOW();

  // Real time passes; the cached loop time does not move without a pass.
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start <
         std::chrono::milliseconds(3)) {
    EXPECT_EQ(ZEND_ASYNC_NOW(), before);
  }
  EXPECT_EQ(ZEND_ASYNC_NOW(), before);

  // A 1 ms timer fires only once the loop time reached its deadline.
  NotificationLog log;
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(1, false);
  AddRecorder(&timer->base, &log, "tick");
  ASSERT_TRUE(timer->base.start(&timer->base));
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  EXPECT_GE(ZEND_ASYNC_NOW(), before + 1);
  ZEND_ASYNC_EVENT_RELEASE(&timer->base);
}

TEST_F(ReactorLoopTest, AvailableParallelismIsAtLeastOne) {
  EXPECT_GE(ZEND_ASYNC_AVAILABLE_PARALLELISM(), 1u);
}

TEST_F(ReactorLoopTest, QuiesceReturnsAtOnce) {
  ZEND_ASYNC_REACTOR_QUIESCE();
  EXPECT_EQ(EG(exception), nullptr);
}

TEST_F(ReactorLoopTest, StartupAndShutdownThroughTheAbi) {
  const size_t blocks_before = zend_mm_live_blocks();
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_STARTUP());
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_STARTUP());

  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(60000, false);
  NotificationLog log;
  AddRecorder(&timer->base, &log, "never");
  ASSERT_TRUE(timer->base.start(&timer->base));
  EXPECT_GT(zend_mm_live_blocks(), blocks_before);

  EXPECT_TRUE(ZEND_ASYNC_REACTOR_SHUTDOWN());
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_EQ(zend_mm_live_blocks(), blocks_before);
  EXPECT_TRUE(log.empty());
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_SHUTDOWN());

  // The loop comes back on the next use.
  zend_async_timer_event_t* again = ZEND_ASYNC_NEW_TIMER_EVENT(1, false);
  ASSERT_NE(again, nullptr);
  AddRecorder(&again->base, &log, "again");
  ASSERT_TRUE(again->base.start(&again->base));
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));
  ZEND_ASYNC_EVENT_RELEASE(&again->base);
}

}  // namespace
}  // namespace zar::reactor_testing
