// Graceful shutdown: explicit, after an uncaught error, after a bailout.

#include <string>
#include <vector>

#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ::testing::ElementsAre;

using ShutdownTest = SchedulerTest;

TEST_F(ShutdownTest, ShutdownCancelsEveryCoroutine) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* never = NewPlainEvent();
    Spawn([&](mock_zend::Call&) {
      WaitFor(never);
      log.push_back("waiter: " + TakeExceptionText());
    });
    Yield();  // the waiter starts and suspends
    Spawn([&](mock_zend::Call&) { log.push_back("never started"); });
    EXPECT_TRUE(ZEND_ASYNC_SHUTDOWN());
    EXPECT_TRUE(ZEND_ASYNC_GRACEFUL_SHUTDOWN);
    ZEND_ASYNC_EVENT_RELEASE(never);
  }));
  EXPECT_THAT(log, ElementsAre("waiter: Async\\AsyncCancellation: Graceful "
                               "shutdown"));
  EXPECT_THAT(ReportedErrors(), ElementsAre());
  EXPECT_FALSE(ZEND_ASYNC_GRACEFUL_SHUTDOWN);
}

// The failing coroutine's scope (the main scope) catches its error first:
// it cancels its members ("Coroutine cancelled", upstream scope.c
// scope_catch_or_cancel) and, nobody handling the error, the graceful
// shutdown follows.
TEST_F(ShutdownTest, UncaughtExceptionCancelsTheOtherCoroutines) {
  ExpectUncaught("Exception: failure");
  std::vector<std::string> log;
  zend_async_event_t* never = nullptr;
  EXPECT_FALSE(RunMain([&] {
    never = NewPlainEvent();
    Spawn([&](mock_zend::Call&) {
      WaitFor(never);
      log.push_back("waiter: " + TakeExceptionText());
    });
    Spawn([&](mock_zend::Call&) {
      zend_throw_exception(zend_ce_exception, "failure", 0);
    });
  }));
  EXPECT_THAT(log, ElementsAre("waiter: Async\\AsyncCancellation: Coroutine "
                               "cancelled"));
  EXPECT_THAT(ReportedErrors(),
              ElementsAre("E_ERROR: Uncaught Exception: failure"));
  ZEND_ASYNC_EVENT_RELEASE(never);
}

TEST_F(ShutdownTest, FatalErrorInACoroutineShutsDownGracefully) {
  ExpectFatalErrors({"Fatal in coroutine"});
  std::vector<std::string> log;
  zend_async_event_t* never = nullptr;
  EXPECT_FALSE(RunMain([&] {
    never = NewPlainEvent();
    Spawn([&](mock_zend::Call&) {
      WaitFor(never);
      log.push_back("waiter: " + TakeExceptionText());
    });
    Spawn([&](mock_zend::Call&) {
      log.push_back("fatal");
      zend_error(E_ERROR, "Fatal in coroutine");
      log.push_back("not reached");
    });
    Spawn([&](mock_zend::Call&) { log.push_back("never started"); });
    log.push_back("main end");
  }));
  EXPECT_THAT(log, ElementsAre("main end", "fatal",
                               "waiter: Async\\AsyncCancellation: Graceful "
                               "shutdown"));
  EXPECT_THAT(ReportedErrors(), ElementsAre("E_ERROR: Fatal in coroutine"));
  ZEND_ASYNC_EVENT_RELEASE(never);
}

TEST_F(ShutdownTest, FatalErrorInACoroutineBailsOutTheWaitingMainFlow) {
  ExpectFatalErrors({"Fatal in coroutine"});
  std::vector<std::string> log;
  zend_async_event_t* never = nullptr;
  EXPECT_FALSE(RunMain([&] {
    never = NewPlainEvent();
    Spawn([&](mock_zend::Call&) {
      WaitFor(never);
      log.push_back("waiter: " + TakeExceptionText());
    });
    // Borrowed: the bailout abandons this frame, so it must own nothing.
    zend_coroutine_t* fatal = Spawn(
        [&](mock_zend::Call&) { zend_error(E_ERROR, "Fatal in coroutine"); });
    Await(fatal);
    log.push_back("main not reached");
  }));
  EXPECT_THAT(log, ElementsAre("waiter: Async\\AsyncCancellation: Graceful "
                               "shutdown"));
  EXPECT_THAT(ReportedErrors(), ElementsAre("E_ERROR: Fatal in coroutine"));
  ZEND_ASYNC_EVENT_RELEASE(never);
}

TEST_F(ShutdownTest, FatalErrorInMainCancelsCoroutines) {
  ExpectFatalErrors({"Fatal in main"});
  std::vector<std::string> log;
  zend_async_event_t* never = nullptr;
  EXPECT_FALSE(RunMain([&] {
    never = NewPlainEvent();
    Spawn([&](mock_zend::Call&) {
      WaitFor(never);
      log.push_back("waiter: " + TakeExceptionText());
    });
    Yield();
    zend_error(E_ERROR, "Fatal in main");
  }));
  EXPECT_THAT(log, ElementsAre("waiter: Async\\AsyncCancellation: Graceful "
                               "shutdown"));
  EXPECT_THAT(ReportedErrors(), ElementsAre("E_ERROR: Fatal in main"));
  ZEND_ASYNC_EVENT_RELEASE(never);
}

}  // namespace
}  // namespace zar::scheduler_testing
