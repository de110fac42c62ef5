// Event lifetime: dispose of started and never-started events, disposal
// from a callback, several owners, and ShutdownReactorForRequest with live
// handles. The fixture's TearDown also fails on any block left at request
// end.

#include <csignal>

#include "core/reactor.h"
#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

class ReactorLifetimeTest : public ReactorTest {};

// One event of every kind, each with a recorder; the proxy shares `poll`.
struct EveryKind {
  zend_async_timer_event_t* timer;
  zend_async_poll_event_t* poll;
  zend_async_poll_proxy_t* proxy;
  zend_async_signal_event_t* signal;
  zend_async_trigger_event_t* trigger;

  std::vector<zend_async_event_t*> Events() const {
    return {&timer->base, &poll->base, &proxy->base, &signal->base,
            &trigger->base};
  }
};

EveryKind MakeEveryKind(const SocketPair& sockets, NotificationLog* log) {
  EveryKind kinds;
  kinds.timer = ZEND_ASYNC_NEW_TIMER_EVENT_EX(60000, true, 16);
  kinds.poll =
      ZEND_ASYNC_NEW_SOCKET_EVENT_EX(sockets.left(), ASYNC_READABLE, 8);
  kinds.proxy =
      ZEND_ASYNC_NEW_POLL_PROXY_EVENT_EX(kinds.poll, ASYNC_READABLE, 8);
  kinds.signal = ZEND_ASYNC_NEW_SIGNAL_EVENT_EX(SIGUSR1, 8);
  kinds.trigger = ZEND_ASYNC_NEW_TRIGGER_EVENT_EX(8);
  for (zend_async_event_t* event : kinds.Events()) {
    AddRecorder(event, log, "any");
  }
  return kinds;
}

TEST_F(ReactorLifetimeTest, DisposeOfNeverStartedEventsFreesEverything) {
  ASSERT_TRUE(ZEND_ASYNC_REACTOR_STARTUP());
  const size_t blocks_before = zend_mm_live_blocks();
  SocketPair sockets;
  NotificationLog log;
  EveryKind kinds = MakeEveryKind(sockets, &log);
  EXPECT_GT(zend_mm_live_blocks(), blocks_before);

  for (zend_async_event_t* event : kinds.Events()) {
    ZEND_ASYNC_EVENT_RELEASE(event);
  }
  // The handles' close callbacks free the memory on the next pass.
  ZEND_ASYNC_REACTOR_EXECUTE(true);

  EXPECT_EQ(zend_mm_live_blocks(), blocks_before);
  EXPECT_TRUE(log.empty());
}

TEST_F(ReactorLifetimeTest, DisposeOfStartedEventsStopsAndFreesEverything) {
  ASSERT_TRUE(ZEND_ASYNC_REACTOR_STARTUP());
  const size_t blocks_before = zend_mm_live_blocks();
  SocketPair sockets;
  NotificationLog log;
  EveryKind kinds = MakeEveryKind(sockets, &log);
  for (zend_async_event_t* event : kinds.Events()) {
    ASSERT_TRUE(event->start(event));
  }
  // One each: the proxy's reference on the poll does not count it twice.
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 5u);

  for (zend_async_event_t* event : kinds.Events()) {
    ZEND_ASYNC_EVENT_RELEASE(event);
  }
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  ZEND_ASYNC_REACTOR_EXECUTE(true);

  EXPECT_EQ(zend_mm_live_blocks(), blocks_before);
  EXPECT_TRUE(log.empty());
}

TEST_F(ReactorLifetimeTest, DirectDisposeBySeveralOwnersDropsOneReference) {
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(60000, false);
  zend_async_event_t* event = &timer->base;
  ZEND_ASYNC_EVENT_ADD_REF(event);
  ASSERT_TRUE(event->start(event));

  EXPECT_TRUE(event->dispose(event));
  EXPECT_EQ(event->ref_count, 1u);
  EXPECT_EQ(event->loop_ref_count, 1u);

  ZEND_ASYNC_EVENT_RELEASE(event);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
}

void ReleaseFromCallback(zend_async_event_t* event, void*) {
  ZEND_ASYNC_EVENT_RELEASE(event);
}

TEST_F(ReactorLifetimeTest, EventReleasedByItsOwnCallbackIsFreedSafely) {
  ASSERT_TRUE(ZEND_ASYNC_REACTOR_STARTUP());
  const size_t blocks_before = zend_mm_live_blocks();
  NotificationLog log;
  zend_async_timer_event_t* periodic = ZEND_ASYNC_NEW_TIMER_EVENT(1, true);
  AddRecorder(&periodic->base, &log, "periodic", ResultKind::kNone,
              ReleaseFromCallback);
  AddRecorder(&periodic->base, &log, "after");
  ASSERT_TRUE(periodic->base.start(&periodic->base));

  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));
  ZEND_ASYNC_REACTOR_EXECUTE(true);

  // The walk finished (the event was kept alive during it), then the
  // release disposed the event: stopped, freed.
  EXPECT_EQ(Names(log), (std::vector<std::string>{"periodic", "after"}));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_EQ(zend_mm_live_blocks(), blocks_before);
}

TEST_F(ReactorLifetimeTest, ShutdownReactorForRequestFreesLiveEvents) {
  ASSERT_TRUE(ZEND_ASYNC_REACTOR_STARTUP());
  const size_t blocks_before = zend_mm_live_blocks();
  SocketPair sockets;
  NotificationLog log;
  EveryKind kinds = MakeEveryKind(sockets, &log);
  for (zend_async_event_t* event : kinds.Events()) {
    ASSERT_TRUE(event->start(event));
  }
  // Some owners hold extra references: shutdown frees regardless.
  ZEND_ASYNC_EVENT_ADD_REF(&kinds.poll->base);
  ZEND_ASYNC_EVENT_ADD_REF(&kinds.timer->base);

  zar::core::ShutdownReactorForRequest();

  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_EQ(zend_mm_live_blocks(), blocks_before);
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  EXPECT_TRUE(log.empty());
  // Safe to call again.
  zar::core::ShutdownReactorForRequest();
}

TEST_F(ReactorLifetimeTest, RequestEndWithLiveHandlesLeaksNothing) {
  SocketPair sockets;
  NotificationLog log;
  EveryKind kinds = MakeEveryKind(sockets, &log);
  ASSERT_TRUE(kinds.timer->base.start(&kinds.timer->base));
  ASSERT_TRUE(kinds.proxy->base.start(&kinds.proxy->base));
  ASSERT_TRUE(kinds.trigger->base.start(&kinds.trigger->base));

  const php_mock_request_report report = ShutdownRequest();

  EXPECT_EQ(report.leaked_blocks, 0u);
  EXPECT_EQ(report.objects_alive_at_shutdown, 0u);
}

TEST_F(ReactorLifetimeTest, ShutdownWithoutALoopIsANoOp) {
  zar::core::ShutdownReactorForRequest();
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_SHUTDOWN());
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
}

}  // namespace
}  // namespace zar::reactor_testing
