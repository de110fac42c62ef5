// Trigger events: a wakeup from another thread, coalescing, liveness.

#include <thread>

#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

class TriggerEventTest : public ReactorTest {};

TEST_F(TriggerEventTest, TriggerFromAnotherThreadWakesTheLoopAndNotifies) {
  NotificationLog log;
  zend_async_trigger_event_t* trigger = ZEND_ASYNC_NEW_TRIGGER_EVENT();
  AddRecorder(&trigger->base, &log, "trigger");
  ASSERT_TRUE(trigger->base.start(&trigger->base));

  // The loop blocks in EXECUTE(false) until the other thread's trigger.
  std::thread other([trigger] { trigger->trigger(trigger); });
  const bool notified = RunUntil([&] { return !log.empty(); });
  other.join();

  ASSERT_TRUE(notified);
  EXPECT_EQ(log.size(), 1u);
  EXPECT_FALSE(log[0].has_result);
  EXPECT_EQ(log[0].exception, "");
  EXPECT_FALSE(ZEND_ASYNC_EVENT_IS_CLOSED(&trigger->base));
  EXPECT_EQ(trigger->base.loop_ref_count, 1u);
  ZEND_ASYNC_EVENT_RELEASE(&trigger->base);
}

TEST_F(TriggerEventTest, TriggersBeforeAPassCoalesceIntoOneNotification) {
  NotificationLog log;
  zend_async_trigger_event_t* trigger = ZEND_ASYNC_NEW_TRIGGER_EVENT();
  AddRecorder(&trigger->base, &log, "trigger");
  ASSERT_TRUE(trigger->base.start(&trigger->base));

  trigger->trigger(trigger);
  trigger->trigger(trigger);
  trigger->trigger(trigger);
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_EXECUTE(true));

  EXPECT_EQ(log.size(), 1u);
  ZEND_ASYNC_EVENT_RELEASE(&trigger->base);
}

TEST_F(TriggerEventTest, OnlyAStartedTriggerKeepsTheLoopAlive) {
  zend_async_trigger_event_t* trigger = ZEND_ASYNC_NEW_TRIGGER_EVENT();
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_EXECUTE(false));

  ASSERT_TRUE(trigger->base.start(&trigger->base));
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);

  EXPECT_TRUE(trigger->base.stop(&trigger->base));
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  // An upstream fact: php-async's libuv reactor writes this very info().
  EXPECT_EQ(InfoOf(&trigger->base), "Trigger");
  ZEND_ASYNC_EVENT_RELEASE(&trigger->base);
}

TEST_F(TriggerEventTest, ClosedTriggerNoLongerNotifies) {
  NotificationLog log;
  zend_async_trigger_event_t* trigger = ZEND_ASYNC_NEW_TRIGGER_EVENT();
  AddRecorder(&trigger->base, &log, "trigger");
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(1, false);
  NotificationLog timer_log;
  AddRecorder(&timer->base, &timer_log, "timer");
  ASSERT_TRUE(timer->base.start(&timer->base));

  ZEND_ASYNC_EVENT_SET_CLOSED(&trigger->base);
  trigger->trigger(trigger);
  ASSERT_TRUE(RunUntil([&] { return !timer_log.empty(); }));

  EXPECT_TRUE(log.empty());
  ZEND_ASYNC_EVENT_RELEASE(&trigger->base);
  ZEND_ASYNC_EVENT_RELEASE(&timer->base);
}

}  // namespace
}  // namespace zar::reactor_testing
