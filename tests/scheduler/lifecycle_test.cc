// The async state machine, the launch and the request lifecycle.

#include <string>
#include <vector>

#include "tests/scheduler/support/scheduler_test.h"

extern "C" {
#include "zend_async_ref/registry_testing.h"
}

namespace zar::scheduler_testing {
namespace {

using ::testing::ElementsAre;

using LifecycleTest = SchedulerTest;

TEST_F(LifecycleTest, FirstSpawnLaunchesTheScheduler) {
  std::vector<zend_async_state_t> states;
  bool main_is_main = false;
  bool scheduler_has_own_scope = false;
  EXPECT_TRUE(RunMain([&] {
    states.push_back(ZEND_ASYNC_G(state));
    EXPECT_EQ(ZEND_ASYNC_CURRENT_COROUTINE, nullptr);
    Spawn([](mock_zend::Call&) {});
    states.push_back(ZEND_ASYNC_G(state));
    zend_coroutine_t* main = ZEND_ASYNC_CURRENT_COROUTINE;
    main_is_main =
        main == ZEND_ASYNC_MAIN_COROUTINE && ZEND_COROUTINE_IS_MAIN(main) &&
        ZEND_COROUTINE_IS_STARTED(main) && main->scope == ZEND_ASYNC_MAIN_SCOPE;
    scheduler_has_own_scope =
        ZEND_ASYNC_SCHEDULER != nullptr &&
        ZEND_ASYNC_SCHEDULER->scope != nullptr &&
        ZEND_ASYNC_SCHEDULER->scope != ZEND_ASYNC_MAIN_SCOPE;
  }));
  states.push_back(ZEND_ASYNC_G(state));
  EXPECT_THAT(states, ElementsAre(ZEND_ASYNC_READY, ZEND_ASYNC_ACTIVE,
                                  ZEND_ASYNC_READY));
  EXPECT_TRUE(main_is_main);
  EXPECT_TRUE(scheduler_has_own_scope);
  EXPECT_EQ(ZEND_ASYNC_SCHEDULER, nullptr);
  EXPECT_EQ(ZEND_ASYNC_MAIN_SCOPE, nullptr);
  EXPECT_EQ(ZEND_ASYNC_CURRENT_COROUTINE, nullptr);
}

TEST_F(LifecycleTest, LaunchingTwiceThrows) {
  EXPECT_TRUE(RunMain([&] {
    EXPECT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    EXPECT_FALSE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: The scheduler cannot be started when "
              "is already enabled");
  }));
}

TEST_F(LifecycleTest, LaunchingWithoutAReactorThrows) {
  std::string error;
  EXPECT_TRUE(RunMain([&] {
    // The reactor is gone for the launch (no reactor module registered);
    // the scheduler's launch and classes stay (upstream throws its own
    // Async\AsyncException, php-async scheduler.c). So do the engine
    // shutdown and the reactor shutdown it calls, which free what the
    // request start made (php-async async_API.c engine_shutdown).
    const zend_async_scheduler_launch_t launch = zend_async_scheduler_launch_fn;
    const zend_async_get_class_ce_t get_class_ce = zend_async_get_class_ce_fn;
    const zend_async_engine_shutdown_t engine_shutdown =
        zend_async_engine_shutdown_fn;
    const zend_async_reactor_shutdown_t reactor_shutdown =
        zend_async_reactor_shutdown_fn;
    zend_async_ref_reset_registry();
    zend_async_get_class_ce_fn = get_class_ce;
    zend_async_engine_shutdown_fn = engine_shutdown;
    zend_async_reactor_shutdown_fn = reactor_shutdown;
    EXPECT_FALSE(launch());
    error = TakeExceptionText();
  }));
  EXPECT_EQ(error,
            "Async\\AsyncException: The scheduler cannot be started without "
            "the Reactor");
}

TEST_F(LifecycleTest, NothingLaunchedMeansNothingToRunAfterMain) {
  EXPECT_TRUE(RunMain([] {}));
  EXPECT_EQ(ZEND_ASYNC_G(state), ZEND_ASYNC_READY);
  EXPECT_TRUE(ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN(false));
}

TEST_F(LifecycleTest, StateMachineAcrossTwoRequests) {
  std::vector<zend_async_state_t> states;
  for (int request = 0; request < 2; request++) {
    if (request > 0) {
      ASSERT_EQ(php_request_startup(), SUCCESS);
    }
    std::vector<std::string> log;
    states.push_back(ZEND_ASYNC_G(state));
    EXPECT_TRUE(RunMain([&] {
      Spawn([&](mock_zend::Call&) {
        log.push_back("coroutine");
        Yield();
      });
      states.push_back(ZEND_ASYNC_G(state));
    }));
    states.push_back(ZEND_ASYNC_G(state));
    EXPECT_THAT(log, ElementsAre("coroutine"));
    if (request == 0) {
      php_mock_request_report report = ShutdownRequest();
      states.push_back(ZEND_ASYNC_G(state));
      EXPECT_EQ(report.leaked_blocks, 0u);
      EXPECT_EQ(report.objects_alive_at_shutdown, 0u);
    }
  }
  EXPECT_THAT(states,
              ElementsAre(ZEND_ASYNC_READY, ZEND_ASYNC_ACTIVE, ZEND_ASYNC_READY,
                          ZEND_ASYNC_OFF, ZEND_ASYNC_READY, ZEND_ASYNC_ACTIVE,
                          ZEND_ASYNC_READY));
}

TEST_F(LifecycleTest, MainCoroutineStartHandlersRunAtLaunch) {
  static int entered = 0;
  entered = 0;
  zend_async_add_main_coroutine_start_handler(
      [](zend_coroutine_t* coroutine, bool is_enter, bool) {
        if (is_enter && ZEND_COROUTINE_IS_MAIN(coroutine)) entered++;
        return false;  // once
      });
  EXPECT_TRUE(RunMain([] { Spawn([](mock_zend::Call&) {}); }));
  EXPECT_EQ(entered, 1);
}

TEST_F(LifecycleTest, GenInfoTellsWhereACoroutineSuspended) {
  std::string info;
  EXPECT_TRUE(RunMain([&] {
    zend_mock_set_location("spawn.php", 3);
    CoroutineRef coroutine(Spawn([](mock_zend::Call&) {
      zend_mock_set_location("wait.php", 9);
      Yield();
    }));
    zend_mock_set_location(nullptr, 0);
    Yield();  // the coroutine suspends at wait.php:9
    char name[] = "worker";
    zend_string* text = zend_coroutine_gen_info(coroutine.get(), name);
    info = ZSTR_VAL(text);
    zend_string_release(text);
    zend_mock_set_location(nullptr, 0);
  }));
  EXPECT_EQ(info,
            "Coroutine spawned at spawn.php:3, suspended at wait.php:9 "
            "(worker)");
}

}  // namespace
}  // namespace zar::scheduler_testing
