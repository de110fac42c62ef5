// Awaiting and cancelling coroutines (behaviours S: tests/coroutine/006,
// tests/await/002, 066, 068).

#include <string>
#include <vector>

#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ::testing::ElementsAre;

using AwaitTest = SchedulerTest;

zend_object* NewCancellation(const char* message) {
  return zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION, "%s",
                                  message);
}

TEST_F(AwaitTest, CancelBeforeStartRequestsCancellationAndBodyNeverRuns) {
  bool body_ran = false;
  bool cancellation_requested = false;
  bool finished_after_cancel = true;
  AwaitOutcome outcome;
  EXPECT_TRUE(RunMain([&] {
    CoroutineRef coroutine(Spawn([&](mock_zend::Call&) { body_ran = true; }));
    ZEND_ASYNC_CANCEL(coroutine.get(), NewCancellation("test cancellation"),
                      true);
    cancellation_requested = ZEND_COROUTINE_IS_CANCELLED(coroutine.get());
    finished_after_cancel = ZEND_COROUTINE_IS_FINISHED(coroutine.get());
    outcome = Await(coroutine.get());
  }));
  EXPECT_TRUE(cancellation_requested);
  EXPECT_FALSE(finished_after_cancel);
  EXPECT_FALSE(body_ran);
  EXPECT_EQ(outcome.error, "Async\\AsyncCancellation: test cancellation");
}

TEST_F(AwaitTest, AwaitWithATimeoutThrowsOperationCanceled) {
  AwaitOutcome outcome;
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    CoroutineRef coroutine(Spawn([&](mock_zend::Call&) {
      Delay(50);
      log.push_back("long coroutine done");
    }));
    outcome = Await(coroutine.get(), /*timeout_ms=*/1);
    log.push_back("await returned");
  }));
  EXPECT_EQ(outcome.error,
            "Async\\OperationCanceledException: Operation has been cancelled");
  EXPECT_THAT(log, ElementsAre("await returned", "long coroutine done"));
}

TEST_F(AwaitTest, AwaitCoroutineCancelledBeforeStart) {
  AwaitOutcome outcome;
  bool body_ran = false;
  EXPECT_TRUE(RunMain([&] {
    CoroutineRef coroutine(Spawn([&](mock_zend::Call&) { body_ran = true; }));
    ZEND_ASYNC_CANCEL(coroutine.get(), NewCancellation("cancelled early"),
                      true);
    outcome = Await(coroutine.get());
  }));
  EXPECT_FALSE(body_ran);
  EXPECT_EQ(outcome.error, "Async\\AsyncCancellation: cancelled early");
}

TEST_F(AwaitTest, AwaitCoroutineCancelledWhileSuspended) {
  AwaitOutcome outcome;
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* never = NewPlainEvent();
    CoroutineRef coroutine(Spawn([&](mock_zend::Call&) {
      log.push_back("started");
      if (WaitFor(never)) log.push_back("not reached");
    }));
    Yield();  // let it start and suspend
    ZEND_ASYNC_CANCEL(coroutine.get(), NewCancellation("cancelled late"), true);
    outcome = Await(coroutine.get());
    ZEND_ASYNC_EVENT_RELEASE(never);
  }));
  EXPECT_THAT(log, ElementsAre("started"));
  EXPECT_EQ(outcome.error, "Async\\AsyncCancellation: cancelled late");
}

TEST_F(AwaitTest, AwaitingThreeTimesGivesTheSameResult) {
  std::vector<std::string> results;
  EXPECT_TRUE(RunMain([&] {
    CoroutineRef coroutine(Spawn([](mock_zend::Call& call) {
      Yield();
      ZVAL_LONG(call.result(), 7);
    }));
    for (int i = 0; i < 3; i++)
      results.push_back(Await(coroutine.get()).result);
  }));
  EXPECT_THAT(results, ElementsAre("int(7)", "int(7)", "int(7)"));
}

TEST_F(AwaitTest, AwaitingThreeTimesGivesTheSameException) {
  std::vector<AwaitOutcome> outcomes;
  EXPECT_TRUE(RunMain([&] {
    CoroutineRef coroutine(Spawn([](mock_zend::Call&) {
      Yield();
      zend_throw_exception(zend_ce_exception, "boom", 0);
    }));
    for (int i = 0; i < 3; i++) outcomes.push_back(Await(coroutine.get()));
  }));
  ASSERT_EQ(outcomes.size(), 3u);
  for (const AwaitOutcome& outcome : outcomes) {
    EXPECT_EQ(outcome.error, "Exception: boom");
    EXPECT_EQ(outcome.error_object, outcomes[0].error_object);
  }
}

TEST_F(AwaitTest, AwaitingThreeTimesGivesTheSameCancellation) {
  std::vector<std::string> errors;
  EXPECT_TRUE(RunMain([&] {
    CoroutineRef coroutine(Spawn([](mock_zend::Call&) {}));
    ZEND_ASYNC_CANCEL(coroutine.get(), NewCancellation("stop"), true);
    for (int i = 0; i < 3; i++) errors.push_back(Await(coroutine.get()).error);
  }));
  EXPECT_THAT(errors, ElementsAre("Async\\AsyncCancellation: stop",
                                  "Async\\AsyncCancellation: stop",
                                  "Async\\AsyncCancellation: stop"));
}

TEST_F(AwaitTest, CancellingAFinishedCoroutineIsANoOp) {
  bool cancelled = false;
  std::string result;
  EXPECT_TRUE(RunMain([&] {
    CoroutineRef coroutine(
        Spawn([](mock_zend::Call& call) { ZVAL_LONG(call.result(), 1); }));
    result = Await(coroutine.get()).result;
    cancelled = ZEND_ASYNC_CANCEL(coroutine.get(), nullptr, false);
    EXPECT_EQ(Await(coroutine.get()).result, "int(1)");
  }));
  EXPECT_TRUE(cancelled);
  EXPECT_EQ(result, "int(1)");
}

// What the ABI leaves to the implementation, the unit tests of each one
// check: when a cancellation of the running coroutine reaches it (the
// reference throws it at its next suspension, upstream only records it,
// php-async coroutine.c async_coroutine_cancel), and how a cancellation
// deferred by ZEND_COROUTINE_SET_PROTECTED is delivered once the flag is
// cleared (upstream: only by Async\protect(), php-async async.c).
TEST_F(AwaitTest, CancellingTheRunningCoroutineMarksItAndLetsItRun) {
  bool cancelled = false;
  bool marked = false;
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    CoroutineRef coroutine(Spawn([&](mock_zend::Call&) {
      cancelled =
          ZEND_ASYNC_CANCEL(ZEND_ASYNC_CURRENT_COROUTINE, nullptr, false);
      marked = ZEND_COROUTINE_IS_CANCELLED(ZEND_ASYNC_CURRENT_COROUTINE);
      log.push_back("still running");
    }));
    Await(coroutine.get());
    log.push_back(ZEND_COROUTINE_IS_FINISHED(coroutine.get()) ? "finished"
                                                              : "unfinished");
  }));
  EXPECT_TRUE(cancelled);
  EXPECT_TRUE(marked);
  EXPECT_THAT(log, ElementsAre("still running", "finished"));
}

TEST_F(AwaitTest, ProtectedCoroutineIsNotInterruptedByACancellation) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* event = NewPlainEvent();
    CoroutineRef coroutine(Spawn([&](mock_zend::Call&) {
      ZEND_COROUTINE_SET_PROTECTED(ZEND_ASYNC_CURRENT_COROUTINE);
      log.push_back(WaitFor(event) ? "waited" : "interrupted");
      ZEND_COROUTINE_CLR_PROTECTED(ZEND_ASYNC_CURRENT_COROUTINE);
      log.push_back("protected part done");
    }));
    Yield();
    EXPECT_TRUE(
        ZEND_ASYNC_CANCEL(coroutine.get(), NewCancellation("first"), true));
    EXPECT_TRUE(
        ZEND_ASYNC_CANCEL(coroutine.get(), NewCancellation("second"), true));
    log.push_back("cancelled");
    FirePlainEvent(event);
    Await(coroutine.get());
    ZEND_ASYNC_EVENT_RELEASE(event);
  }));
  EXPECT_THAT(log, ElementsAre("cancelled", "waited", "protected part done"));
}

}  // namespace
}  // namespace zar::scheduler_testing
