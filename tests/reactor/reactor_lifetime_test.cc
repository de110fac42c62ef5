// Event lifetime: dispose of started and never-started events, disposal
// from a callback, several owners, and the end of a request with live
// handles. The fixture's TearDown also fails on any block left at request
// end.

#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

class ReactorLifetimeTest : public ReactorTest {};

TEST_F(ReactorLifetimeTest, DisposeOfNeverStartedEventsFreesEverything) {
  ASSERT_TRUE(ZEND_ASYNC_REACTOR_STARTUP());
  const size_t blocks_before = zend_mm_live_blocks();
  EveryKind kinds;
  EXPECT_GT(zend_mm_live_blocks(), blocks_before);

  kinds.ReleaseAll();
  // The handles' close callbacks free the memory on the next pass.
  ZEND_ASYNC_REACTOR_EXECUTE(true);

  EXPECT_EQ(zend_mm_live_blocks(), blocks_before);
  EXPECT_TRUE(kinds.log.empty());
}

TEST_F(ReactorLifetimeTest, DisposeOfStartedEventsStopsAndFreesEverything) {
  ASSERT_TRUE(ZEND_ASYNC_REACTOR_STARTUP());
  // A reactor may keep tables of its own once it has watched a kind of
  // event, until it shuts down (php-async keeps its signal tables): one
  // round of every kind first, so that only the events' memory is measured.
  {
    EveryKind warm_up;
    ASSERT_TRUE(warm_up.StartAll());
    warm_up.ReleaseAll();
    ZEND_ASYNC_REACTOR_EXECUTE(true);
  }
  const size_t blocks_before = zend_mm_live_blocks();
  EveryKind kinds;
  ASSERT_TRUE(kinds.StartAll());
  // One each: the proxy's reference on the poll does not count it twice.
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 5u);

  kinds.ReleaseAll();
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  ZEND_ASYNC_REACTOR_EXECUTE(true);

  EXPECT_EQ(zend_mm_live_blocks(), blocks_before);
  EXPECT_TRUE(kinds.log.empty());
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
  zend_async_timer_event_t* periodic =
      StartedTimer(1, true, &log, "periodic", ReleaseFromCallback);
  AddRecorder(&periodic->base, &log, "after");

  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));
  ZEND_ASYNC_REACTOR_EXECUTE(true);

  // The walk finished (the event was kept alive during it), then the
  // release disposed the event: stopped, freed.
  EXPECT_EQ(Names(log), (std::vector<std::string>{"periodic", "after"}));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_EQ(zend_mm_live_blocks(), blocks_before);
}

TEST_F(ReactorLifetimeTest, RequestEndFreesLiveEventsHeldBySeveralOwners) {
  EveryKind kinds;
  ASSERT_TRUE(kinds.StartAll());
  // Some owners hold extra references: the end of the request frees the
  // events regardless, without notifying anybody.
  ZEND_ASYNC_EVENT_ADD_REF(&kinds.poll->base);
  ZEND_ASYNC_EVENT_ADD_REF(&kinds.timer->base);

  const php_mock_request_report report = ShutdownRequest();

  EXPECT_EQ(report.leaked_blocks, 0u);
  EXPECT_EQ(report.objects_alive_at_shutdown, 0u);
  EXPECT_TRUE(kinds.log.empty());
}

TEST_F(ReactorLifetimeTest, RequestEndWithLiveHandlesLeaksNothing) {
  EveryKind kinds;
  ASSERT_TRUE(kinds.timer->base.start(&kinds.timer->base));
  ASSERT_TRUE(kinds.proxy->base.start(&kinds.proxy->base));
  ASSERT_TRUE(kinds.trigger->base.start(&kinds.trigger->base));

  const php_mock_request_report report = ShutdownRequest();

  EXPECT_EQ(report.leaked_blocks, 0u);
  EXPECT_EQ(report.objects_alive_at_shutdown, 0u);
}

// Between requests async is off and there is no loop: the reactor refuses
// to start one (upstream's libuv_reactor_startup), so no event is made.
TEST_F(ReactorLifetimeTest, WithAsyncOffTheReactorRefusesToStart) {
  ShutdownRequest();
  ASSERT_TRUE(ZEND_ASYNC_IS_OFF);

  EXPECT_FALSE(ZEND_ASYNC_REACTOR_STARTUP());
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Async mode is disabled. Reactor API cannot "
            "be used.");
  EXPECT_EQ(ZEND_ASYNC_NEW_TIMER_EVENT(1, false), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Async mode is disabled. Reactor API cannot "
            "be used.");
}

TEST_F(ReactorLifetimeTest, ShutdownWithoutALoopIsANoOp) {
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_SHUTDOWN());
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
}

}  // namespace
}  // namespace zar::reactor_testing
