// Thread pool tasks: a C function run on one of libuv's workers, completed
// as an event on the request's thread (php-async libuv_reactor.c "Thread
// Pool API"; the ABI's new_task and queue_task).

#include <atomic>
#include <chrono>
#include <thread>

#include "gtest/gtest.h"
#include "tests/thread_pool/support/thread_pool_test.h"
#include "zend_async_ref/testing/coroutines.h"

namespace zar::thread_pool_testing {
namespace {

// What a task's run function saw, on its worker.
struct Ran {
  std::atomic<int> times{0};
  std::thread::id thread;
};

void Record(zend_async_task_t* task) {
  auto* ran = static_cast<Ran*>(task->data);
  ran->thread = std::this_thread::get_id();
  ran->times.fetch_add(1);
}

class TaskTest : public ReactorTest {};

TEST_F(TaskTest, ATaskRunsOnAWorkerAndCompletesOnTheRequestsThread) {
  Ran ran;
  NotificationLog log;
  std::thread::id notified_on;
  zend_async_task_t* task = ZEND_ASYNC_NEW_TASK(Record, &ran);
  ASSERT_NE(task, nullptr);
  EXPECT_EQ(task->run, Record);
  EXPECT_EQ(task->data, &ran);
  AddRecorder(
      &task->base, &log, "done", reactor_testing::ResultKind::kNone,
      [](zend_async_event_t*, void* arg) {
        *static_cast<std::thread::id*>(arg) = std::this_thread::get_id();
      },
      &notified_on);

  ASSERT_TRUE(ZEND_ASYNC_QUEUE_TASK(task));
  ASSERT_TRUE(task->base.start(&task->base));
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  EXPECT_EQ(ran.times.load(), 1);
  EXPECT_NE(ran.thread, std::this_thread::get_id());
  EXPECT_EQ(notified_on, std::this_thread::get_id());
  ASSERT_EQ(log.size(), 1u);
  EXPECT_FALSE(log[0].has_result);
  EXPECT_EQ(log[0].exception, "");
  EXPECT_TRUE(log[0].closed);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ZEND_ASYNC_EVENT_RELEASE(&task->base);
}

TEST_F(TaskTest, StartOnlyCountsTheTaskAsAnActiveEvent) {
  Ran ran;
  zend_async_task_t* task = ZEND_ASYNC_NEW_TASK(Record, &ran);
  ASSERT_TRUE(task->base.start(&task->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);
  EXPECT_TRUE(task->base.stop(&task->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_EQ(ran.times.load(), 0);  // never queued: never ran
  ZEND_ASYNC_EVENT_RELEASE(&task->base);
}

TEST_F(TaskTest, TheCallerMayReleaseTheTaskWhileItIsInFlight) {
  Ran ran;
  NotificationLog log;
  zend_async_task_t* task = ZEND_ASYNC_NEW_TASK(Record, &ran);
  AddRecorder(&task->base, &log, "done");
  ASSERT_TRUE(ZEND_ASYNC_QUEUE_TASK(task));
  ASSERT_TRUE(task->base.start(&task->base));
  EXPECT_EQ(ZEND_ASYNC_EVENT_REFCOUNT(&task->base), 2u);

  ZEND_ASYNC_EVENT_RELEASE(&task->base);  // the in-flight reference stays

  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));
  EXPECT_EQ(ran.times.load(), 1);
}

TEST_F(TaskTest, ACoroutineWaitsForItsTaskThroughItsWaker) {
  Ran ran;
  EXPECT_TRUE(RunMain([&] {
    zend_async_task_t* task = ZEND_ASYNC_NEW_TASK(Record, &ran);
    ASSERT_TRUE(ZEND_ASYNC_QUEUE_TASK(task));
    EXPECT_TRUE(zar::testing::WaitFor(&task->base));
    EXPECT_EQ(ran.times.load(), 1);
    EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_CLOSED(&task->base));
    ZEND_ASYNC_EVENT_RELEASE(&task->base);
  }));
}

TEST_F(TaskTest, ManyTasksEachRunOnceAndCompleteOnce) {
  constexpr int kTasks = 32;
  Ran ran;
  NotificationLog log;
  for (int i = 0; i < kTasks; i++) {
    zend_async_task_t* task = ZEND_ASYNC_NEW_TASK(Record, &ran);
    AddRecorder(&task->base, &log, "done");
    ASSERT_TRUE(ZEND_ASYNC_QUEUE_TASK(task));
    ASSERT_TRUE(task->base.start(&task->base));
    ZEND_ASYNC_EVENT_RELEASE(&task->base);
  }
  ASSERT_TRUE(RunUntil([&] { return log.size() == kTasks; }));
  EXPECT_EQ(ran.times.load(), kTasks);
}

TEST_F(TaskTest, ATaskWithoutARunFunctionIsRefused) {
  EXPECT_EQ(ZEND_ASYNC_NEW_TASK(nullptr, nullptr), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Cannot create a task without a run "
            "function");
}

TEST_F(TaskTest, QueueingNothingOrATaskWithoutARunFunctionIsRefused) {
  EXPECT_FALSE(ZEND_ASYNC_QUEUE_TASK(nullptr));
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Cannot queue a NULL task");

  Ran ran;
  zend_async_task_t* task = ZEND_ASYNC_NEW_TASK(Record, &ran);
  task->run = nullptr;
  EXPECT_FALSE(ZEND_ASYNC_QUEUE_TASK(task));
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Cannot queue a task without a run "
            "function");
  ZEND_ASYNC_EVENT_RELEASE(&task->base);
}

TEST_F(TaskTest, InfoIsThreadPoolTask) {
  Ran ran;
  zend_async_task_t* task = ZEND_ASYNC_NEW_TASK(Record, &ran);
  EXPECT_EQ(reactor_testing::InfoOf(&task->base), "ThreadPoolTask");
  ZEND_ASYNC_EVENT_RELEASE(&task->base);
}

// A worker still running when the request ends: the request's end waits
// for it (the task has finished when php_request_shutdown() returns);
// nothing leaks (the fixture's check). Whether the task's callbacks are
// notified then the ABI leaves open: the reference notifies nobody,
// php-async's reactor shutdown runs the loop until the completion, which
// notifies them. The task is held
// until the request's end has begun and then some more, so an end that did
// not wait would return first.
std::atomic<bool> started{false};
std::atomic<bool> ending{false};
std::atomic<bool> go{false};
std::atomic<bool> finished{false};
void WaitForGo(zend_async_task_t*) {
  started = true;
  while (!go) std::this_thread::yield();
  finished = true;
}
void MarkEnding(void*) { ending = true; }

TEST_F(TaskTest, ATaskInFlightAtRequestEndIsWaitedFor) {
  started = ending = go = finished = false;
  NotificationLog log;
  std::thread releaser([] {
    // Bounded, so that an implementation that never ends the request
    // fails instead of hanging.
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while ((!started || !ending) &&
           std::chrono::steady_clock::now() < give_up) {
      std::this_thread::yield();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    go = true;
  });
  EXPECT_TRUE(RunMain([&] {
    zend_async_task_t* task = ZEND_ASYNC_NEW_TASK(WaitForGo, nullptr);
    AddRecorder(&task->base, &log, "done");
    ASSERT_TRUE(ZEND_ASYNC_QUEUE_TASK(task));
    ZEND_ASYNC_EVENT_RELEASE(&task->base);
  }));
  EXPECT_FALSE(finished) << "the script waited for the task";
  php_mock_register_shutdown_callback(MarkEnding, nullptr);
  ShutdownRequest();
  EXPECT_TRUE(finished) << "the request ended before its task";
  releaser.join();
}

}  // namespace
}  // namespace zar::thread_pool_testing
