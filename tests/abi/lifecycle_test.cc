// The async state machine through a request (zend_async_state_t and the
// lifecycle macros of true-async/php-src Zend/zend_async_API.h, de8c19de),
// with a fake extension whose RINIT does ZEND_ASYNC_INITIALIZE and whose
// scheduler launch does ZEND_ASYNC_ACTIVATE.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/abi/support/fake_async.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace zar::abi_testing {
namespace {

class AbiLifecycleTest : public zar::testing::RequestFixture {
 protected:
  std::vector<zend_module_entry*> Modules() override {
    return {FakeAsyncModule()};
  }
};

TEST_F(AbiLifecycleTest, StateGoesOffReadyActiveReadyOff) {
  EXPECT_EQ(State().state_after_rinit, ZEND_ASYNC_READY);
  EXPECT_TRUE(ZEND_ASYNC_IS_READY);
  EXPECT_TRUE(ZEND_ASYNC_ON);

  zend_async_state_t in_main_before_launch = ZEND_ASYNC_OFF;
  zend_async_state_t in_main_after_launch = ZEND_ASYNC_OFF;
  ASSERT_TRUE(RunMain([&] {
    in_main_before_launch = ZEND_ASYNC_G(state);
    EXPECT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    in_main_after_launch = ZEND_ASYNC_G(state);
  }));

  EXPECT_EQ(in_main_before_launch, ZEND_ASYNC_READY);
  EXPECT_EQ(in_main_after_launch, ZEND_ASYNC_ACTIVE);
  EXPECT_EQ(State().launches, 1);
  // After main: RUN_SCHEDULER_AFTER_MAIN(false) while ACTIVE, then READY.
  ASSERT_FALSE(State().suspends.empty());
  EXPECT_TRUE(State().suspends[0].from_main);
  EXPECT_FALSE(State().suspends[0].is_bailout);
  EXPECT_EQ(State().suspends[0].state, ZEND_ASYNC_ACTIVE);
  EXPECT_TRUE(ZEND_ASYNC_IS_READY);

  const size_t suspends_before_shutdown = State().suspends.size();
  ShutdownRequest();

  // Request shutdown runs the scheduler once more, then deactivates before
  // the modules' RSHUTDOWN.
  ASSERT_EQ(State().suspends.size(), suspends_before_shutdown + 1);
  EXPECT_TRUE(State().suspends.back().from_main);
  EXPECT_FALSE(State().suspends.back().is_bailout);
  EXPECT_EQ(State().suspends.back().state, ZEND_ASYNC_READY);
  EXPECT_EQ(State().state_in_rshutdown, ZEND_ASYNC_OFF);
  EXPECT_TRUE(ZEND_ASYNC_IS_OFF);
  EXPECT_FALSE(ZEND_ASYNC_ON);
}

TEST_F(AbiLifecycleTest, BailoutRunsTheSchedulerAfterMainWithIsBailout) {
  ExpectFatalErrors({"fatal in main"});
  EXPECT_FALSE(RunMain([] {
    ZEND_ASYNC_SCHEDULER_LAUNCH();
    zend_error(E_ERROR, "fatal in main");
  }));

  ASSERT_FALSE(State().suspends.empty());
  EXPECT_TRUE(State().suspends[0].from_main);
  EXPECT_TRUE(State().suspends[0].is_bailout);
  EXPECT_EQ(State().suspends[0].state, ZEND_ASYNC_ACTIVE);
}

TEST_F(AbiLifecycleTest, SchedulerInitLaunchesOnlyWithoutACurrentCoroutine) {
  ZEND_ASYNC_SCHEDULER_INIT();
  EXPECT_EQ(State().launches, 1);
  EXPECT_TRUE(ZEND_ASYNC_IS_ACTIVE);

  zend_coroutine_t coroutine = MakeCoroutine();
  ZEND_ASYNC_CURRENT_COROUTINE = &coroutine;
  ZEND_ASYNC_SCHEDULER_INIT();
  EXPECT_EQ(State().launches, 1);
  ZEND_ASYNC_CURRENT_COROUTINE = nullptr;
}

TEST_F(AbiLifecycleTest, StateMacrosAssignAndTest) {
  ZEND_ASYNC_ACTIVATE;
  EXPECT_TRUE(ZEND_ASYNC_IS_ACTIVE);
  EXPECT_FALSE(ZEND_ASYNC_IS_READY);
  ZEND_ASYNC_DEACTIVATE;
  EXPECT_TRUE(ZEND_ASYNC_IS_OFF);
  EXPECT_FALSE(ZEND_ASYNC_ON);
  ZEND_ASYNC_INITIALIZE;
  EXPECT_TRUE(ZEND_ASYNC_IS_READY);
  EXPECT_EQ(ZEND_ASYNC_OFF, 0);
  EXPECT_EQ(ZEND_ASYNC_READY, 1);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE, 2);
}

TEST_F(AbiLifecycleTest, GlobalsStartZeroed) {
  EXPECT_FALSE(ZEND_ASYNC_IS_SCHEDULER_CONTEXT);
  EXPECT_FALSE(ZEND_ASYNC_GRACEFUL_SHUTDOWN);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_COROUTINE_COUNT, 0u);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_EQ(ZEND_ASYNC_CURRENT_COROUTINE, nullptr);
  EXPECT_EQ(ZEND_ASYNC_MAIN_COROUTINE, nullptr);
  EXPECT_EQ(ZEND_ASYNC_MAIN_SCOPE, nullptr);
  EXPECT_EQ(ZEND_ASYNC_SCHEDULER, nullptr);
  EXPECT_EQ(ZEND_ASYNC_EXIT_EXCEPTION, nullptr);
  EXPECT_EQ(ZEND_ASYNC_ACTING_COROUTINE, nullptr);
  EXPECT_EQ(ZEND_ASYNC_G(heartbeat_handler), nullptr);
  EXPECT_EQ(ZEND_ASYNC_G(main_coroutine_start_handlers).length, 0u);
  EXPECT_EQ(ZEND_ASYNC_G(main_coroutine_start_handlers).data, nullptr);
  EXPECT_EQ(ZEND_ASYNC_CURRENT_SCOPE, nullptr);
  EXPECT_EQ(ZEND_ASYNC_REQUEST_SCOPE, nullptr);
  EXPECT_EQ(ZEND_ASYNC_CURRENT_CONTEXT, nullptr);
}

TEST_F(AbiLifecycleTest, CurrentScopeAndActingCoroutineFollowTheGlobals) {
  zend_async_scope_t request_scope = Zeroed<zend_async_scope_t>();
  zend_async_scope_t scope = Zeroed<zend_async_scope_t>();
  scope.request_scope = &request_scope;
  zend_coroutine_t coroutine = MakeCoroutine();
  coroutine.scope = &scope;

  ZEND_ASYNC_CURRENT_COROUTINE = &coroutine;
  EXPECT_EQ(ZEND_ASYNC_CURRENT_SCOPE, &scope);
  EXPECT_EQ(ZEND_ASYNC_REQUEST_SCOPE, &request_scope);
  ZEND_ASYNC_CURRENT_COROUTINE = nullptr;

  ZEND_ASYNC_ACT_AS_START(&coroutine);
  EXPECT_EQ(ZEND_ASYNC_ACTING_COROUTINE, &coroutine);
  ZEND_ASYNC_ACT_AS_END();
  EXPECT_EQ(ZEND_ASYNC_ACTING_COROUTINE, nullptr);
}

TEST_F(AbiLifecycleTest, EventCountSkipsHiddenEventsAndSaturatesAtZero) {
  zend_async_event_t visible = Zeroed<zend_async_event_t>();
  zend_async_event_t hidden = Zeroed<zend_async_event_t>();
  ZEND_ASYNC_EVENT_SET_HIDDEN(&hidden);

  ZEND_ASYNC_INCREASE_EVENT_COUNT(&visible);
  ZEND_ASYNC_INCREASE_EVENT_COUNT(&hidden);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);
  ZEND_ASYNC_DECREASE_EVENT_COUNT(&hidden);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);
  ZEND_ASYNC_DECREASE_EVENT_COUNT(&visible);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ZEND_ASYNC_DECREASE_EVENT_COUNT(&visible);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);

  ZEND_ASYNC_INCREASE_COROUTINE_COUNT
  ZEND_ASYNC_INCREASE_COROUTINE_COUNT
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_COROUTINE_COUNT, 2u);
  ZEND_ASYNC_DECREASE_COROUTINE_COUNT
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_COROUTINE_COUNT, 1u);
  ZEND_ASYNC_DECREASE_COROUTINE_COUNT
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_COROUTINE_COUNT, 0u);
  ZEND_ASYNC_DECREASE_COROUTINE_COUNT
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_COROUTINE_COUNT, 0u);
}

}  // namespace
}  // namespace zar::abi_testing
