// Signal events: delivery of a raised signal to the callback.

#include <csignal>

#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

class SignalEventTest : public ReactorTest {};

TEST_F(SignalEventTest, RaisedSignalReachesTheCallbackWithItsNumber) {
  NotificationLog log;
  zend_async_signal_event_t* signal = ZEND_ASYNC_NEW_SIGNAL_EVENT(SIGUSR1);
  EXPECT_EQ(signal->signal, SIGUSR1);
  AddRecorder(&signal->base, &log, "usr1", ResultKind::kSignalNum);
  ASSERT_TRUE(signal->base.start(&signal->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);

  ASSERT_EQ(raise(SIGUSR1), 0);
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].value, SIGUSR1);
  EXPECT_FALSE(log[0].closed);
  EXPECT_EQ(signal->base.loop_ref_count, 1u);

  // Still watching: a second delivery notifies again.
  ASSERT_EQ(raise(SIGUSR1), 0);
  ASSERT_TRUE(RunUntil([&] { return log.size() == 2; }));

  EXPECT_TRUE(signal->base.stop(&signal->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ZEND_ASYNC_EVENT_RELEASE(&signal->base);
}

TEST_F(SignalEventTest, EveryEventWatchingTheSignalIsNotified) {
  NotificationLog log;
  zend_async_signal_event_t* first = ZEND_ASYNC_NEW_SIGNAL_EVENT(SIGUSR2);
  zend_async_signal_event_t* second = ZEND_ASYNC_NEW_SIGNAL_EVENT(SIGUSR2);
  AddRecorder(&first->base, &log, "first", ResultKind::kSignalNum);
  AddRecorder(&second->base, &log, "second", ResultKind::kSignalNum);
  ASSERT_TRUE(first->base.start(&first->base));
  ASSERT_TRUE(second->base.start(&second->base));

  ASSERT_EQ(raise(SIGUSR2), 0);
  ASSERT_TRUE(RunUntil([&] { return log.size() == 2; }));

  EXPECT_EQ(log[0].value, SIGUSR2);
  EXPECT_EQ(log[1].value, SIGUSR2);
  ZEND_ASYNC_EVENT_RELEASE(&first->base);
  ZEND_ASYNC_EVENT_RELEASE(&second->base);
}

TEST_F(SignalEventTest, InvalidSignalNumberFailsToStart) {
  zend_async_signal_event_t* signal = ZEND_ASYNC_NEW_SIGNAL_EVENT(0);

  ExpectStartRefused(&signal->base,
                     "Async\\AsyncException: Failed to start signal handle: "
                     "invalid argument");
  ZEND_ASYNC_EVENT_RELEASE(&signal->base);
}

TEST_F(SignalEventTest, InfoShowsTheSignalNumber) {
  zend_async_signal_event_t* signal = ZEND_ASYNC_NEW_SIGNAL_EVENT(SIGUSR1);
  // An upstream fact: php-async's libuv reactor writes this very info().
  EXPECT_EQ(InfoOf(&signal->base),
            "Signal(signum=" + std::to_string(SIGUSR1) + ")");
  ZEND_ASYNC_EVENT_RELEASE(&signal->base);
}

}  // namespace
}  // namespace zar::reactor_testing
