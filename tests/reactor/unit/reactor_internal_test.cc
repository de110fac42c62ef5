// core/'s reactor seen from inside (core/reactor.h): its module name, its
// registration quirk, ShutdownReactorForRequest, and the slots the
// reference leaves unset. The ABI-level behaviours are in the conformance
// suite next to this folder.

#include "core/reactor.h"
#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

class ReactorInternalTest : public ReactorTest {};

TEST_F(ReactorInternalTest, ModuleNameNamesTheReactorAndItsVersion) {
  EXPECT_STREQ(zar::core::kReactorModuleName,
               "zend-async-ref libuv reactor v0.1.0");
}

TEST_F(ReactorInternalTest, RegisteringAgainFromTheSameModuleIsRefused) {
  // The ABI's lock quirk: a same-module registration returns true and keeps
  // the lock held, so the one after it returns false.
  EXPECT_TRUE(zar::core::RegisterReactor());
  EXPECT_FALSE(zar::core::RegisterReactor());
}

TEST_F(ReactorInternalTest, DirectlySettableSlotsAreLeftUnset) {
  // Set directly by an extension, not by the reactor registration; the
  // reference sets neither.
  EXPECT_EQ(zend_async_reactor_tick_fn, nullptr);
  EXPECT_EQ(zend_async_sigaction_fn, nullptr);
}

TEST_F(ReactorInternalTest, ShutdownReactorForRequestFreesLiveEvents) {
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

TEST_F(ReactorInternalTest, ShutdownReactorForRequestWithoutALoopIsANoOp) {
  zar::core::ShutdownReactorForRequest();
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_SHUTDOWN());
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
}

}  // namespace
}  // namespace zar::reactor_testing
