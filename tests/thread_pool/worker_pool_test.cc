// Worker pools: C tasks (submit_internal) run by a fixed set of worker
// threads in submission order, each completing its future on the request's
// thread (php-async thread_pool.c; the ABI's new_thread_pool and the
// pool's submit_internal, close and dispose).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/thread_pool/support/latch.h"
#include "tests/thread_pool/support/thread_pool_test.h"
#include "zend_async_ref/testing/coroutines.h"

namespace zar::thread_pool_testing {
namespace {

// What the handlers of one test share.
struct Board {
  std::mutex mutex;
  std::vector<int> ran;  // task numbers, in the order they ran
  std::vector<std::thread::id> threads;
  Latch* gate = nullptr;  // the first task waits at it, when set
  Latch first_started;    // opened when the first task starts
  // Tasks 1..together wait until that many run at once (at most 10 s), so
  // that each of them holds a worker of its own.
  int together = 0;
  int arrived = 0;                    // guarded by mutex
  std::condition_variable all_there;  // with mutex
};

// A task's ctx: its number and the board.
struct Job {
  int number;
  Board* board;
};

void RunJob(zend_async_event_t* event, void* arg) {
  auto* job = static_cast<Job*>(arg);
  Board* board = job->board;
  EXPECT_EQ(event, nullptr);
  if (job->number == 0) {
    board->first_started.Open();
    if (board->gate != nullptr) board->gate->Wait();
  }
  std::unique_lock<std::mutex> lock(board->mutex);
  if (job->number >= 1 && job->number <= board->together) {
    board->arrived++;
    board->all_there.notify_all();
    board->all_there.wait_for(lock, std::chrono::seconds(10), [board] {
      return board->arrived == board->together;
    });
  }
  board->ran.push_back(job->number);
  board->threads.push_back(std::this_thread::get_id());
}

// Task 0 on a board of its own.
struct OneJob {
  Board board;
  Job job{0, &board};
};

// Tasks 0, 1 and 2 on one board; task 0 waits at `gate` once started.
struct GatedJobs {
  Board board;
  Latch gate;
  Job jobs[3] = {{0, &board}, {1, &board}, {2, &board}};
  GatedJobs() { board.gate = &gate; }
};

// Waits in the current coroutine until the task's future completed (at
// once when it already has); false if the wait failed.
bool AwaitTask(zend_async_event_t* done) {
  return ZEND_ASYNC_EVENT_IS_CLOSED(done) || zar::testing::WaitFor(done);
}

// Awaits each future in the current coroutine and lets go of it.
void AwaitAndRelease(const std::vector<zend_async_event_t*>& futures) {
  for (zend_async_event_t* done : futures) {
    EXPECT_TRUE(AwaitTask(done));
    ZEND_ASYNC_EVENT_RELEASE(done);
  }
}

zend_async_event_t* Submit(zend_async_thread_pool_t* pool, Job* job) {
  return pool->submit_internal(pool, RunJob, job);
}

// In a coroutine: submits task 0 of `tasks` and waits until a worker
// holds it (at the gate), then submits task 1; their futures. With one
// worker and a queue of one, the queue is then full.
std::pair<zend_async_event_t*, zend_async_event_t*> HoldTheWorkerAndQueueOne(
    zend_async_thread_pool_t* pool, GatedJobs* tasks) {
  zend_async_event_t* first = Submit(pool, &tasks->jobs[0]);
  tasks->board.first_started.Wait();
  return {first, Submit(pool, &tasks->jobs[1])};
}

// Drops the caller's reference and waits until the request's threads are
// done, so that the leak check sees nothing a worker still holds.
void ReleaseAndQuiesce(zend_async_thread_pool_t* pool) {
  ZEND_THREAD_POOL_DELREF(pool);
  ZEND_ASYNC_REACTOR_QUIESCE();
}

// Closes, then ReleaseAndQuiesce.
void CloseAndRelease(zend_async_thread_pool_t* pool) {
  pool->close(pool);
  ReleaseAndQuiesce(pool);
}

class WorkerPoolTest : public ReactorTest {};

TEST_F(WorkerPoolTest, ATaskRunsOnAWorkerAndItsFutureCompletesOnTheRequest) {
  OneJob task;
  zend_async_thread_pool_t* pool = ZEND_ASYNC_NEW_THREAD_POOL(2, 0);
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->worker_count, 2);
  EXPECT_NE(pool->workers[0], 0u);
  EXPECT_NE(pool->workers[1], 0u);
  EXPECT_EQ(zend_atomic_int_load(&pool->closed), 0);
  EXPECT_NE(pool->submit_internal, nullptr);

  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* done = Submit(pool, &task.job);
    ASSERT_NE(done, nullptr);
    EXPECT_TRUE(AwaitTask(done));
    EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_CLOSED(done));
    ZEND_ASYNC_EVENT_RELEASE(done);
  }));

  ASSERT_EQ(task.board.ran, std::vector<int>{0});
  EXPECT_NE(task.board.threads[0], std::this_thread::get_id());
  EXPECT_EQ(zend_atomic_int_load(&pool->pending_count), 0);
  EXPECT_EQ(zend_atomic_int_load(&pool->running_count), 0);
  EXPECT_EQ(zend_atomic_int_load(&pool->completed_count), 1);
  CloseAndRelease(pool);
}

TEST_F(WorkerPoolTest, OneWorkerRunsTheTasksInSubmissionOrder) {
  constexpr int kTasks = 6;
  Board board;
  std::vector<Job> jobs;
  for (int i = 0; i < kTasks; i++) jobs.push_back(Job{i, &board});
  zend_async_thread_pool_t* pool = ZEND_ASYNC_NEW_THREAD_POOL(1, kTasks);

  EXPECT_TRUE(RunMain([&] {
    std::vector<zend_async_event_t*> futures;
    for (Job& job : jobs) futures.push_back(Submit(pool, &job));
    for (zend_async_event_t* done : futures) {
      ASSERT_NE(done, nullptr);
      EXPECT_TRUE(AwaitTask(done));
      ZEND_ASYNC_EVENT_RELEASE(done);
    }
  }));

  EXPECT_EQ(board.ran, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(zend_atomic_int_load(&pool->completed_count), kTasks);
  CloseAndRelease(pool);
}

TEST_F(WorkerPoolTest, AClosedPoolRefusesTasks) {
  OneJob task;
  zend_async_thread_pool_t* pool = ZEND_ASYNC_NEW_THREAD_POOL(1, 0);
  pool->close(pool);
  EXPECT_EQ(zend_atomic_int_load(&pool->closed), 1);

  EXPECT_EQ(Submit(pool, &task.job), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\ThreadPoolException: ThreadPool is closed");
  pool->close(pool);  // again: nothing more happens
  ReleaseAndQuiesce(pool);
  EXPECT_TRUE(task.board.ran.empty());
}

TEST_F(WorkerPoolTest, APoolWithoutWorkersRefusesTasks) {
  OneJob task;
  zend_async_thread_pool_t* pool = ZEND_ASYNC_NEW_THREAD_POOL(0, 0);
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->worker_count, 0);

  EXPECT_EQ(Submit(pool, &task.job), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\ThreadPoolException: ThreadPool has no live worker "
            "threads");
  CloseAndRelease(pool);
}

TEST_F(WorkerPoolTest, CloseLetsTheQueuedTasksRunToTheEnd) {
  GatedJobs tasks;
  zend_async_thread_pool_t* pool = ZEND_ASYNC_NEW_THREAD_POOL(1, 4);

  EXPECT_TRUE(RunMain([&] {
    std::vector<zend_async_event_t*> futures;
    for (Job& job : tasks.jobs) futures.push_back(Submit(pool, &job));
    tasks.board.first_started.Wait();
    pool->close(pool);
    tasks.gate.Open();
    AwaitAndRelease(futures);
  }));

  EXPECT_EQ(tasks.board.ran, (std::vector<int>{0, 1, 2}));
  ReleaseAndQuiesce(pool);
}

TEST_F(WorkerPoolTest, AFullQueueSuspendsTheSubmitterUntilAWorkerTakesATask) {
  GatedJobs tasks;
  zend_async_thread_pool_t* pool = ZEND_ASYNC_NEW_THREAD_POOL(1, 1);
  std::vector<std::string> log;

  EXPECT_TRUE(RunMain([&] {
    auto [first, second] = HoldTheWorkerAndQueueOne(pool, &tasks);
    zend_async_event_t* third = nullptr;
    zar::testing::Spawn([&] {
      log.push_back("submitting 2");
      third = Submit(pool, &tasks.jobs[2]);
      log.push_back("queued 2");
    });
    zar::testing::Yield();  // the submitter parks: the queue is full
    EXPECT_EQ(log, std::vector<std::string>{"submitting 2"});
    EXPECT_EQ(zend_atomic_int_load(&pool->pending_count), 1);

    tasks.gate.Open();
    AwaitAndRelease({first, second});
    EXPECT_TRUE(zar::testing::YieldUntil([&] { return third != nullptr; }));
    EXPECT_TRUE(AwaitTask(third));
    ZEND_ASYNC_EVENT_RELEASE(third);
  }));

  EXPECT_EQ(log, (std::vector<std::string>{"submitting 2", "queued 2"}));
  EXPECT_EQ(tasks.board.ran, (std::vector<int>{0, 1, 2}));
  CloseAndRelease(pool);
}

TEST_F(WorkerPoolTest, ClosingWakesASubmitterParkedOnAFullQueue) {
  GatedJobs tasks;
  zend_async_thread_pool_t* pool = ZEND_ASYNC_NEW_THREAD_POOL(1, 1);
  std::string outcome;

  EXPECT_TRUE(RunMain([&] {
    auto [first, second] = HoldTheWorkerAndQueueOne(pool, &tasks);
    zar::testing::Spawn([&] {
      zend_async_event_t* third = Submit(pool, &tasks.jobs[2]);
      outcome = third == nullptr ? TakeExceptionText() : "queued";
    });
    zar::testing::Yield();  // parked
    pool->close(pool);
    EXPECT_TRUE(zar::testing::YieldUntil([&] { return !outcome.empty(); }));
    tasks.gate.Open();
    AwaitAndRelease({first, second});
  }));

  // php-async thread_pool.c: the submitter waits in its task channel's
  // send, which finds the channel closed and throws; the pool's own
  // "ThreadPool channel is closed" is only for a send that failed without
  // an exception.
  EXPECT_EQ(outcome, "Async\\ThreadChannelException: ThreadChannel is closed");
  EXPECT_EQ(tasks.board.ran, (std::vector<int>{0, 1}));
  ReleaseAndQuiesce(pool);
}

// The first four tasks run at once, one on each worker; every task runs
// exactly once, each on one of the four workers.
TEST_F(WorkerPoolTest, ManyWorkersRunEveryTaskOnce) {
  constexpr int kTasks = 64;
  constexpr int kWorkers = 4;
  Board board;
  board.together = kWorkers;
  std::vector<Job> jobs;
  for (int i = 0; i < kTasks; i++) jobs.push_back(Job{i + 1, &board});
  zend_async_thread_pool_t* pool = ZEND_ASYNC_NEW_THREAD_POOL(kWorkers, 8);

  EXPECT_TRUE(RunMain([&] {
    std::vector<zend_async_event_t*> futures;
    for (Job& job : jobs) futures.push_back(Submit(pool, &job));
    for (zend_async_event_t* done : futures) {
      ASSERT_NE(done, nullptr) << TakeExceptionText();
      EXPECT_TRUE(AwaitTask(done)) << TakeExceptionText();
      ZEND_ASYNC_EVENT_RELEASE(done);
    }
  }));

  std::vector<int> ran = board.ran;
  std::sort(ran.begin(), ran.end());
  std::vector<int> expected;
  for (int i = 1; i <= kTasks; i++) expected.push_back(i);
  EXPECT_EQ(ran, expected);
  EXPECT_EQ(board.arrived, kWorkers);
  const std::set<std::thread::id> workers(board.threads.begin(),
                                          board.threads.end());
  EXPECT_EQ(workers.size(), static_cast<size_t>(kWorkers));
  EXPECT_EQ(workers.count(std::this_thread::get_id()), 0u);
  EXPECT_EQ(zend_atomic_int_load(&pool->completed_count), kTasks);
  CloseAndRelease(pool);
}

TEST_F(WorkerPoolTest, FuturesNobodyAwaitsAreReleasedAtRequestEnd) {
  // Static: a task may still run after the test's body returned.
  static Board board;
  static Job jobs[] = {{1, &board}, {2, &board}, {3, &board}};
  zend_async_thread_pool_t* pool = ZEND_ASYNC_NEW_THREAD_POOL(1, 0);
  for (Job& job : jobs) {
    zend_async_event_t* done = Submit(pool, &job);
    ASSERT_NE(done, nullptr);
    ZEND_ASYNC_EVENT_RELEASE(done);
  }
  // Neither closed nor awaited: the request's end closes the pool and
  // lets go of the futures (the fixture checks that nothing leaked).
  ZEND_THREAD_POOL_DELREF(pool);
}

}  // namespace
}  // namespace zar::thread_pool_testing
