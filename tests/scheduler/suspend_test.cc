// Suspending and yielding (behaviours S: tests/suspend/001-003,
// tests/sleep/003).

#include <string>
#include <vector>

#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ::testing::ElementsAre;

using SuspendTest = SchedulerTest;

TEST_F(SuspendTest, SuspendedCoroutineResumesAfterTheOthersRan) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    log.push_back("Before spawn");
    Spawn([&](mock_zend::Call&) {
      log.push_back("C1 start");
      Yield();
      log.push_back("C1 after suspend");
    });
    Spawn([&](mock_zend::Call&) {
      log.push_back("C2 start");
      log.push_back("C2 end");
    });
    log.push_back("After spawn");
  }));
  EXPECT_THAT(log, ElementsAre("Before spawn", "After spawn", "C1 start",
                               "C2 start", "C2 end", "C1 after suspend"));
}

TEST_F(SuspendTest, YieldingCoroutinesRunRoundRobin) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      log.push_back("A1");
      Yield();
      log.push_back("A2");
      Yield();
      log.push_back("A3");
    });
    Spawn([&](mock_zend::Call&) {
      log.push_back("B1");
      Yield();
      log.push_back("B2");
    });
    Spawn([&](mock_zend::Call&) { log.push_back("C"); });
  }));
  EXPECT_THAT(log, ElementsAre("A1", "B1", "C", "A2", "B2", "A3"));
}

TEST_F(SuspendTest, YieldWithNothingElseToRunReturnsImmediately) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    log.push_back("before");
    EXPECT_TRUE(Yield());
    log.push_back("after");
    Spawn([&](mock_zend::Call&) {
      log.push_back("alone before");
      EXPECT_TRUE(Yield());
      log.push_back("alone after");
    });
  }));
  EXPECT_THAT(log,
              ElementsAre("before", "after", "alone before", "alone after"));
}

TEST_F(SuspendTest, MainYieldLetsSpawnedCoroutinesRun) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) { log.push_back("coroutine"); });
    log.push_back("main before yield");
    Yield();
    log.push_back("main after yield");
  }));
  EXPECT_THAT(
      log, ElementsAre("main before yield", "coroutine", "main after yield"));
}

TEST_F(SuspendTest, ZeroDelayKeepsTheOrderOfStatements) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      log.push_back("before");
      EXPECT_TRUE(Delay(0));
      log.push_back("after");
    });
  }));
  EXPECT_THAT(log, ElementsAre("before", "after"));
}

TEST_F(SuspendTest, ExceptionInFlightSurvivesASuspension) {
  std::string after;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      zend_throw_exception(zend_ce_exception, "in flight", 0);
      Yield();
      after = TakeExceptionText();
    });
    Spawn([](mock_zend::Call&) {});
  }));
  EXPECT_EQ(after, "Exception: in flight");
}

TEST_F(SuspendTest, CoroutineWaitingOnAnEventRunsWhenItFires) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* event = NewPlainEvent();
    Spawn([&](mock_zend::Call&) {
      log.push_back("waiting");
      WaitFor(event);
      log.push_back("woken");
    });
    Spawn([&](mock_zend::Call&) {
      log.push_back("firing");
      FirePlainEvent(event);
      log.push_back("fired");
    });
    Yield();
    Yield();
    ZEND_ASYNC_EVENT_RELEASE(event);
  }));
  EXPECT_THAT(log, ElementsAre("waiting", "firing", "fired", "woken"));
}

// php-async scheduler.c, async_scheduler_coroutine_suspend(): a waker with
// no events that is not queued ends the suspension at once (since
// 31490c0, "Allow ZEND_ASYNC_SUSPEND to accept empty event arrays without
// error"): true, no exception, nothing else runs in between.
TEST_F(SuspendTest, SuspendWithNothingToWaitForReturnsAtOnce) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      log.push_back("A before");
      ASSERT_NE(ZEND_ASYNC_WAKER_NEW(ZEND_ASYNC_CURRENT_COROUTINE), nullptr);
      const bool suspended = ZEND_ASYNC_SUSPEND();
      log.push_back(std::string("A after: ") + (suspended ? "true" : "false") +
                    " [" + TakeExceptionText() + "]");
      Yield();  // a later suspension works as usual
      log.push_back("A end");
    });
    Spawn([&](mock_zend::Call&) { log.push_back("B"); });
  }));
  EXPECT_THAT(log, ElementsAre("A before", "A after: true []", "B", "A end"));
}

// The same return restores the exception the caller had in flight (and
// still answers true, as upstream's early return does).
TEST_F(SuspendTest, SuspendWithNothingToWaitForKeepsTheExceptionInFlight) {
  bool suspended = false;
  std::string after;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      ZEND_ASYNC_WAKER_NEW(ZEND_ASYNC_CURRENT_COROUTINE);
      zend_throw_exception(zend_ce_exception, "in flight", 0);
      suspended = ZEND_ASYNC_SUSPEND();
      after = TakeExceptionText();
    });
  }));
  EXPECT_TRUE(suspended);
  EXPECT_EQ(after, "Exception: in flight");
}

std::string scheduler_context_outcome;

void SuspendingMicrotask(zend_async_microtask_t* /*microtask*/) {
  const bool suspended = ZEND_ASYNC_SUSPEND();
  scheduler_context_outcome =
      std::string(suspended ? "true" : "false") + " " + TakeExceptionText();
}

void KeepMicrotask(zend_async_microtask_t* /*microtask*/) {}

// Microtasks run in the scheduler context, where nothing may suspend
// (php-async scheduler.c, async_scheduler_coroutine_suspend()).
TEST_F(SuspendTest, SuspendInTheSchedulerContextIsRefused) {
  scheduler_context_outcome.clear();
  EXPECT_TRUE(RunMain([&] {
    CoroutineRef worker(Spawn([&](mock_zend::Call&) {
      auto* microtask = static_cast<zend_async_microtask_t*>(
          ecalloc(1, sizeof(zend_async_microtask_t)));
      microtask->handler = SuspendingMicrotask;
      microtask->dtor = KeepMicrotask;
      ZEND_ASYNC_ADD_MICROTASK(microtask);
      Yield();  // the microtask runs on this switch
    }));
    Await(worker.get());
  }));
  EXPECT_EQ(scheduler_context_outcome,
            "false Async\\AsyncException: A coroutine cannot be stopped from "
            "the Scheduler context");
}

}  // namespace
}  // namespace zar::scheduler_testing
