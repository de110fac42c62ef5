// The reference's own choice for process events (upstream passes any pid to
// waitpid): a pid below 1 would make waitpid reap some other child, so
// start() reports it as a monitoring failure instead.

#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

class ProcessEventReferenceTest : public ReactorTest {};

TEST_F(ProcessEventReferenceTest, APidBelowOneIsAMonitoringFailureAtStart) {
  for (const zend_process_t pid : {0, -1}) {
    NotificationLog log;
    zend_async_process_event_t* process = ZEND_ASYNC_NEW_PROCESS_EVENT(pid);
    AddRecorder(&process->base, &log, "exit");

    EXPECT_TRUE(process->base.start(&process->base));

    ASSERT_EQ(log.size(), 1u);
    EXPECT_EQ(log[0].exception,
              "Async\\AsyncException: Failed to monitor process " +
                  std::to_string(pid) + ": Invalid argument");
    EXPECT_TRUE(log[0].closed);
    EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
    ZEND_ASYNC_EVENT_RELEASE(&process->base);
  }
}

}  // namespace
}  // namespace zar::reactor_testing
