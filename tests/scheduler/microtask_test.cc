// Microtasks: FIFO, before the next coroutine, cancelled ones skipped.

#include <string>
#include <vector>

#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ::testing::ElementsAre;

using MicrotaskTest = SchedulerTest;

// A microtask that appends its name to a log; counts its dtor.
struct LoggingMicrotask {
  zend_async_microtask_t microtask;  // ABI structure (must be first)
  std::vector<std::string>* log;
  const char* name;
  int* dtors;
};

void LogHandler(zend_async_microtask_t* microtask) {
  auto* self = reinterpret_cast<LoggingMicrotask*>(microtask);
  self->log->push_back(self->name);
}

void CountDtor(zend_async_microtask_t* microtask) {
  (*reinterpret_cast<LoggingMicrotask*>(microtask)->dtors)++;
}

zend_async_microtask_t* NewMicrotask(std::vector<std::string>* log,
                                     const char* name, int* dtors) {
  auto* self =
      static_cast<LoggingMicrotask*>(ecalloc(1, sizeof(LoggingMicrotask)));
  self->microtask.handler = LogHandler;
  self->microtask.dtor = CountDtor;
  self->log = log;
  self->name = name;
  self->dtors = dtors;
  return &self->microtask;
}

TEST_F(MicrotaskTest, MicrotasksRunInOrderBeforeTheNextCoroutine) {
  std::vector<std::string> log;
  int dtors = 0;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      log.push_back("A1");
      ZEND_ASYNC_ADD_MICROTASK(NewMicrotask(&log, "task 1", &dtors));
      ZEND_ASYNC_ADD_MICROTASK(NewMicrotask(&log, "task 2", &dtors));
      Yield();
      log.push_back("A2");
    });
    Spawn([&](mock_zend::Call&) { log.push_back("B"); });
  }));
  EXPECT_THAT(log, ElementsAre("A1", "task 1", "task 2", "B", "A2"));
  EXPECT_EQ(dtors, 2);
}

TEST_F(MicrotaskTest, CancelledMicrotaskIsSkippedAndReleased) {
  std::vector<std::string> log;
  int dtors = 0;
  EXPECT_TRUE(RunMain([&] {
    zend_async_microtask_t* kept = NewMicrotask(&log, "kept", &dtors);
    zend_async_microtask_t* cancelled = NewMicrotask(&log, "cancelled", &dtors);
    ZEND_ASYNC_ADD_MICROTASK(kept);
    ZEND_ASYNC_ADD_MICROTASK(cancelled);
    cancelled->is_cancelled = true;
    Spawn([&](mock_zend::Call&) { log.push_back("coroutine"); });
  }));
  EXPECT_THAT(log, ElementsAre("kept", "coroutine"));
  EXPECT_EQ(dtors, 2);
}

TEST_F(MicrotaskTest, AHolderKeepsAMicrotaskAliveAfterItRan) {
  std::vector<std::string> log;
  int dtors = 0;
  zend_async_microtask_t* held = nullptr;
  EXPECT_TRUE(RunMain([&] {
    held = NewMicrotask(&log, "held", &dtors);
    ZEND_ASYNC_MICROTASK_ADD_REF(held);  // ours
    ZEND_ASYNC_ADD_MICROTASK(held);      // the queue's
  }));
  EXPECT_THAT(log, ElementsAre("held"));
  EXPECT_EQ(dtors, 0);
  zend_async_microtask_t* microtask = held;
  ZEND_ASYNC_MICROTASK_RELEASE(microtask);
  EXPECT_EQ(dtors, 1);
}

TEST_F(MicrotaskTest, MicrotaskAddedBeforeAnyCoroutineRunsAfterMain) {
  std::vector<std::string> log;
  int dtors = 0;
  EXPECT_TRUE(RunMain([&] {
    ZEND_ASYNC_ADD_MICROTASK(NewMicrotask(&log, "task", &dtors));
    log.push_back("main end");
  }));
  EXPECT_THAT(log, ElementsAre("main end", "task"));
  EXPECT_EQ(dtors, 1);
}

}  // namespace
}  // namespace zar::scheduler_testing
