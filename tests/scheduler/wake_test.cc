// Enqueue and resume.

#include <string>
#include <vector>

#include "mock_zend/inspect.h"
#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ::testing::ElementsAre;

using WakeTest = SchedulerTest;

TEST_F(WakeTest, ResumingARunningCoroutineThrows) {
  bool resumed = true;
  std::string error;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      resumed = ZEND_ASYNC_RESUME(ZEND_ASYNC_CURRENT_COROUTINE);
      error = TakeExceptionText();
    });
  }));
  EXPECT_FALSE(resumed);
  EXPECT_EQ(error,
            "Async\\AsyncException: Cannot resume a coroutine that has not "
            "been suspended");
}

TEST_F(WakeTest, ResumingACoroutineWithoutAWakerThrows) {
  bool resumed = true;
  std::string error;
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    zend_coroutine_t* coroutine =
        ZEND_ASYNC_NEW_COROUTINE(ZEND_ASYNC_MAIN_SCOPE);
    resumed = ZEND_ASYNC_RESUME(coroutine);
    error = TakeExceptionText();
    ZEND_ASYNC_EVENT_RELEASE(&coroutine->event);
  }));
  EXPECT_FALSE(resumed);
  EXPECT_EQ(error,
            "Async\\AsyncException: Cannot resume a coroutine that has not "
            "been suspended");
}

TEST_F(WakeTest, ResumingAQueuedCoroutineQueuesItOnce) {
  int runs = 0;
  EXPECT_TRUE(RunMain([&] {
    zend_coroutine_t* coroutine = Spawn([&](mock_zend::Call&) { runs++; });
    EXPECT_TRUE(ZEND_ASYNC_RESUME(coroutine));
    EXPECT_TRUE(ZEND_ASYNC_RESUME(coroutine));
    EXPECT_EQ(coroutine->waker->status, ZEND_ASYNC_WAKER_QUEUED);
  }));
  EXPECT_EQ(runs, 1);
}

TEST_F(WakeTest, EnqueueIsIdempotent) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      log.push_back("A1");
      zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
      EXPECT_TRUE(ZEND_ASYNC_ENQUEUE_COROUTINE(self));
      EXPECT_TRUE(ZEND_ASYNC_ENQUEUE_COROUTINE(self));
      ZEND_ASYNC_SUSPEND();
      log.push_back("A2");
    });
    Spawn([&](mock_zend::Call&) {
      log.push_back("B1");
      Yield();
      log.push_back("B2");
      Yield();
      log.push_back("B3");
    });
  }));
  // A is queued once: it runs again once, then B finishes alone.
  EXPECT_THAT(log, ElementsAre("A1", "B1", "A2", "B2", "B3"));
}

TEST_F(WakeTest, ResumeWithAnErrorThrowsItInTheCoroutine) {
  std::string error;
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* event = NewPlainEvent();
    CoroutineRef coroutine(Spawn([&](mock_zend::Call&) {
      EXPECT_FALSE(WaitFor(event));
      error = TakeExceptionText();
    }));
    Yield();
    zend_object* failure = zend_async_new_exception(
        ZEND_ASYNC_EXCEPTION_DEFAULT, "resumed with an error");
    EXPECT_TRUE(ZEND_ASYNC_RESUME_WITH_ERROR(coroutine.get(), failure, true));
    Await(coroutine.get());
    ZEND_ASYNC_EVENT_RELEASE(event);
  }));
  EXPECT_EQ(error, "Async\\AsyncException: resumed with an error");
}

TEST_F(WakeTest, ACancellationDoesNotReplaceAPendingError) {
  std::string error;
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* event = NewPlainEvent();
    CoroutineRef coroutine(Spawn([&](mock_zend::Call&) {
      WaitFor(event);
      error = TakeExceptionText();
    }));
    Yield();
    ZEND_ASYNC_RESUME_WITH_ERROR(
        coroutine.get(),
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DEFAULT, "first"), true);
    ZEND_ASYNC_RESUME_WITH_ERROR(
        coroutine.get(),
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION, "late"),
        true);
    Await(coroutine.get());
    ZEND_ASYNC_EVENT_RELEASE(event);
  }));
  EXPECT_EQ(error, "Async\\AsyncException: first");
}

TEST_F(WakeTest, ANewErrorBecomesCurrentWithTheOldAsPrevious) {
  std::vector<std::string> chain;
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* event = NewPlainEvent();
    CoroutineRef coroutine(Spawn([&](mock_zend::Call&) {
      WaitFor(event);
      zend_object* exception = mock_zend::TakeException();
      chain = mock_zend::ExceptionChain(exception);
      OBJ_RELEASE(exception);
    }));
    Yield();
    ZEND_ASYNC_RESUME_WITH_ERROR(
        coroutine.get(),
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DEFAULT, "old"), true);
    ZEND_ASYNC_RESUME_WITH_ERROR(
        coroutine.get(),
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DEFAULT, "new"), true);
    Await(coroutine.get());
    ZEND_ASYNC_EVENT_RELEASE(event);
  }));
  EXPECT_THAT(chain, ElementsAre("Async\\AsyncException: new",
                                 "Async\\AsyncException: old"));
}

TEST_F(WakeTest, EnqueueNullLaunchesAndQueuesTheMainFlow) {
  bool enqueued = false;
  EXPECT_TRUE(RunMain([&] {
    enqueued = ZEND_ASYNC_ENQUEUE_COROUTINE(nullptr);
    EXPECT_TRUE(ZEND_ASYNC_IS_ACTIVE);
    ASSERT_NE(ZEND_ASYNC_CURRENT_COROUTINE, nullptr);
    EXPECT_TRUE(ZEND_COROUTINE_IS_MAIN(ZEND_ASYNC_CURRENT_COROUTINE));
    EXPECT_TRUE(ZEND_ASYNC_SUSPEND());
  }));
  EXPECT_TRUE(enqueued);
}

}  // namespace
}  // namespace zar::scheduler_testing
