// core/'s reactor seen from inside (core/reactor/reactor.h): its module name,
// its registration quirk, ShutdownReactorForRequest, and the slots the
// reference leaves unset. The ABI-level behaviours are in the conformance
// suite next to this folder.

#include "core/reactor/reactor.h"
#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

extern "C" {
#include "ext/async/php_async.h"
}

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
  EveryKind kinds;
  ASSERT_TRUE(kinds.StartAll());
  // Some owners hold extra references: shutdown frees regardless.
  ZEND_ASYNC_EVENT_ADD_REF(&kinds.poll->base);
  ZEND_ASYNC_EVENT_ADD_REF(&kinds.timer->base);

  zar::core::ShutdownReactorForRequest();

  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_EQ(zend_mm_live_blocks(), blocks_before);
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  EXPECT_TRUE(kinds.log.empty());
  // Safe to call again.
  zar::core::ShutdownReactorForRequest();
}

TEST_F(ReactorInternalTest, ShutdownReactorForRequestWithoutALoopIsANoOp) {
  zar::core::ShutdownReactorForRequest();
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_SHUTDOWN());
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
}

TEST_F(ReactorInternalTest, TheRequestsLoopIsAsyncGUvloop) {
  EXPECT_TRUE(ASYNC_G(reactor_started));  // from request startup
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(1, false);
  ASSERT_NE(timer, nullptr);
  ASSERT_TRUE(timer->base.start(&timer->base));
  EXPECT_NE(uv_loop_alive(&ASYNC_G(uvloop)), 0);
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  timer->base.dispose(&timer->base);
  zar::core::ShutdownReactorForRequest();
  EXPECT_FALSE(ASYNC_G(reactor_started));
}

TEST_F(ReactorInternalTest, AHarnessMayRunAsyncGUvloopItself) {
  // What upstream's reactor harness does: uv_run on the extension's loop
  // fires the reactor's callbacks (here a timer's close callback, which
  // frees the event's memory).
  const size_t blocks_before = zend_mm_live_blocks();
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(1, false);
  ASSERT_NE(timer, nullptr);
  timer->base.dispose(&timer->base);
  EXPECT_NE(uv_loop_alive(&ASYNC_G(uvloop)), 0);  // the close is pending
  for (int i = 0; i < 3 && uv_run(&ASYNC_G(uvloop), UV_RUN_NOWAIT) != 0; i++) {
  }
  EXPECT_EQ(uv_loop_alive(&ASYNC_G(uvloop)), 0);
  EXPECT_EQ(zend_mm_live_blocks(), blocks_before);
}

TEST(AsyncModuleGlobals, AreDeclaredInTheModuleEntry) {
  EXPECT_STREQ(zar_async_module_entry.name, PHP_ASYNC_NAME);
  EXPECT_EQ(zar_async_module_entry.globals_size, sizeof(zend_async_globals));
  EXPECT_EQ(zar_async_module_entry.globals_ptr, ASYNC_GLOBALS);
  EXPECT_EQ(phpext_async_ptr, &zar_async_module_entry);
}

}  // namespace
}  // namespace zar::reactor_testing
