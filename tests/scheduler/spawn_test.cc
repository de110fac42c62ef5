// Spawning coroutines (behaviours S: tests/spawn/001, 002, 004, 007).

#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "mock_zend/inspect.h"
#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ::testing::ElementsAre;

using SpawnTest = SchedulerTest;

TEST_F(SpawnTest, CoroutineSpawnedFromMainRunsAfterMainEnds) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    log.push_back("start");
    Spawn([&](mock_zend::Call&) { log.push_back("coroutine"); });
    log.push_back("end");
  }));
  EXPECT_THAT(log, ElementsAre("start", "end", "coroutine"));
}

TEST_F(SpawnTest, ThreeCoroutinesStartInSpawnOrder) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    log.push_back("start");
    for (int i = 1; i <= 3; i++) {
      Spawn([&log, i](mock_zend::Call&) {
        log.push_back("coroutine " + std::to_string(i));
      });
    }
    log.push_back("end");
  }));
  EXPECT_THAT(log, ElementsAre("start", "end", "coroutine 1", "coroutine 2",
                               "coroutine 3"));
}

TEST_F(SpawnTest, SpawnReturnsAnAsyncCoroutineWhoseBodyRunsAfterMain) {
  std::vector<std::string> log;
  std::string class_name;
  EXPECT_TRUE(RunMain([&] {
    zend_coroutine_t* coroutine =
        Spawn([&](mock_zend::Call&) { log.push_back("body"); });
    ASSERT_NE(coroutine, nullptr);
    ASSERT_TRUE(ZEND_ASYNC_EVENT_IS_ZEND_OBJ(&coroutine->event));
    class_name =
        mock_zend::ClassName(ZEND_ASYNC_EVENT_TO_OBJECT(&coroutine->event));
    EXPECT_EQ(ZEND_ASYNC_EVENT_TO_OBJECT(&coroutine->event)->ce,
              ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_COROUTINE));
    log.push_back("end");
  }));
  EXPECT_EQ(class_name, "Async\\Coroutine");
  EXPECT_THAT(log, ElementsAre("end", "body"));
}

TEST_F(SpawnTest, UncaughtCoroutineExceptionIsReportedAfterMainEnds) {
  ExpectUncaught("Exception: Test exception");
  std::vector<std::string> log;
  EXPECT_FALSE(RunMain([&] {
    log.push_back("start");
    Spawn([&](mock_zend::Call&) {
      log.push_back("coroutine start");
      zend_throw_exception(zend_ce_exception, "Test exception", 0);
    });
    log.push_back("end");
  }));
  EXPECT_THAT(log, ElementsAre("start", "end", "coroutine start"));
  EXPECT_THAT(ErrorLog(),
              ElementsAre("E_ERROR: Uncaught Exception: Test exception"));
}

TEST_F(SpawnTest, HighPriorityCoroutineRunsBeforeQueuedOnes) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) { log.push_back("normal 1"); });
    Spawn([&](mock_zend::Call&) { log.push_back("normal 2"); });
    Spawn([&](mock_zend::Call&) { log.push_back("high"); }, nullptr,
          ZEND_COROUTINE_HI_PRIORITY);
  }));
  EXPECT_THAT(log, ElementsAre("high", "normal 1", "normal 2"));
}

TEST_F(SpawnTest, SpawnRecordsWhereItHappened) {
  std::string info;
  EXPECT_TRUE(RunMain([&] {
    zend_mock_set_location("script.php", 7);
    CoroutineRef coroutine(Spawn([](mock_zend::Call&) {}));
    zend_mock_set_location(nullptr, 0);
    ASSERT_NE(coroutine.get(), nullptr);
    ASSERT_NE(coroutine->filename, nullptr);
    EXPECT_STREQ(ZSTR_VAL(coroutine->filename), "script.php");
    EXPECT_EQ(coroutine->lineno, 7u);
    Await(coroutine.get());
    char name[] = "task";
    zend_string* text = zend_coroutine_gen_info(coroutine.get(), name);
    info = ZSTR_VAL(text);
    zend_string_release(text);
  }));
  // Whether a finished coroutine still reads as "suspended at" depends on
  // the waker it keeps (ZEND_COROUTINE_SUSPENDED: upstream's finished
  // coroutines keep one with no status, so they do); the spawn site and the
  // name are the same either way.
  EXPECT_THAT(info, ::testing::StartsWith("Coroutine spawned at script.php:7"));
  EXPECT_THAT(info, ::testing::EndsWith(" (task)"));
}

TEST_F(SpawnTest, SpawnWhenAsyncIsOffThrows) {
  EXPECT_TRUE(RunMain([&] {
    ZEND_ASYNC_DEACTIVATE;
    EXPECT_EQ(ZEND_ASYNC_SPAWN(), nullptr);
    ZEND_ASYNC_INITIALIZE;
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: Cannot spawn a coroutine when async is "
              "disabled");
  }));
}

TEST_F(SpawnTest, SpawnInAClosedScopeThrows) {
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    zend_async_scope_t* scope = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_MAIN_SCOPE);
    ZEND_ASYNC_SCOPE_CLOSE(scope, false);
    EXPECT_EQ(ZEND_ASYNC_SPAWN_WITH(scope), nullptr);
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: Cannot spawn a coroutine in a closed "
              "scope");
    ZEND_ASYNC_SCOPE_RELEASE(scope);
  }));
}

TEST_F(SpawnTest, SpawnInTheSchedulerScopeThrows) {
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    EXPECT_EQ(ZEND_ASYNC_SPAWN_WITH(ZEND_ASYNC_SCHEDULER->scope), nullptr);
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: You cannot use the Scheduler scope to "
              "create coroutines");
  }));
}

TEST_F(SpawnTest, SpawnCountsTheCoroutineUntilItFinishes) {
  unsigned int count_in_body = 0;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      count_in_body = ZEND_ASYNC_ACTIVE_COROUTINE_COUNT;
    });
    // The main coroutine and the spawned one.
    EXPECT_EQ(ZEND_ASYNC_ACTIVE_COROUTINE_COUNT, 2u);
  }));
  EXPECT_EQ(count_in_body, 1u);  // main has finished by then
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_COROUTINE_COUNT, 0u);
}

TEST_F(SpawnTest, CoroutineResultReachesItsAwaiter) {
  std::string result;
  EXPECT_TRUE(RunMain([&] {
    CoroutineRef coroutine(
        Spawn([](mock_zend::Call& call) { ZVAL_LONG(call.result(), 42); }));
    result = Await(coroutine.get()).result;
  }));
  EXPECT_EQ(result, "int(42)");
}

TEST_F(SpawnTest, SpawnAndThrowRaisesTheExceptionInANewCoroutine) {
  ExpectUncaught("Async\\AsyncException: thrown from a microtask");
  std::vector<std::string> log;
  EXPECT_FALSE(RunMain([&] {
    zend_object* exception = zend_async_new_exception(
        ZEND_ASYNC_EXCEPTION_DEFAULT, "thrown from a microtask");
    EXPECT_TRUE(ZEND_ASYNC_SPAWN_AND_THROW(exception, nullptr, 0));
    OBJ_RELEASE(exception);  // the coroutine took its own reference
    log.push_back("main end");
  }));
  EXPECT_THAT(log, ElementsAre("main end"));
  EXPECT_THAT(ErrorLog(),
              ElementsAre("E_ERROR: Uncaught Async\\AsyncException: "
                          "thrown from a microtask"));
}

}  // namespace
}  // namespace zar::scheduler_testing
