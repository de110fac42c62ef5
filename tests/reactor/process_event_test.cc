// Process events: a child's exit, observed through SIGCHLD, and the
// ways a wait for it ends (php-async tests/exec, the proc_close scenarios).
//
// The children are forked here and do only async-signal-safe things: wait
// for a byte on a pipe, or exit at once.

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"
#include "zend_async_ref/testing/coroutines.h"

namespace zar::reactor_testing {
namespace {

// A forked child that exits with `code` once released (or at once).
class Child {
 public:
  // immediate: the child exits at once; else it waits for Release().
  Child(int code, bool immediate) {
    if (pipe(gate_) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      close(gate_[1]);
      if (!immediate) {
        char byte;
        while (read(gate_[0], &byte, 1) < 0) {
        }
      }
      _exit(code);
    }
    close(gate_[0]);
    gate_[0] = -1;
  }
  ~Child() {
    Release();
    if (pid_ > 0 && !reaped_) {
      // Whatever the test left: the child ends and is reaped here.
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  pid_t pid() const { return pid_; }
  // A process event for this child (ZEND_ASYNC_NEW_PROCESS_EVENT).
  zend_async_process_event_t* NewEvent() const {
    return ZEND_ASYNC_NEW_PROCESS_EVENT(pid_);
  }
  // Lets a waiting child exit.
  void Release() {
    if (gate_[1] >= 0) {
      close(gate_[1]);
      gate_[1] = -1;
    }
  }
  // Blocks until the child has exited, leaving it unreaped (a zombie).
  void WaitUntilExited() {
    siginfo_t info;
    waitid(P_PID, pid_, &info, WEXITED | WNOWAIT);
  }
  // Reaps the child here, as another part of the program might.
  int ReapElsewhere() {
    int status = 0;
    waitpid(pid_, &status, 0);
    reaped_ = true;
    return status;
  }
  // The event reaped it.
  void MarkReaped() { reaped_ = true; }

 private:
  pid_t pid_ = -1;
  int gate_[2] = {-1, -1};
  bool reaped_ = false;
};

class ProcessEventTest : public ReactorTest {};

TEST_F(ProcessEventTest, AChildsExitNotifiesItsExitCodeWithoutAResult) {
  Child child(3, /*immediate=*/false);
  NotificationLog log;
  zend_async_process_event_t* process = child.NewEvent();
  ASSERT_NE(process, nullptr);
  EXPECT_EQ(process->process, child.pid());
  AddRecorder(&process->base, &log, "exit");
  ASSERT_TRUE(process->base.start(&process->base));
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);

  child.Release();
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));
  child.MarkReaped();

  ASSERT_EQ(log.size(), 1u);
  EXPECT_FALSE(log[0].has_result);
  EXPECT_EQ(log[0].exception, "");
  EXPECT_EQ(process->exit_code, 3);
  // Notified, still started: its consumer stops it.
  EXPECT_FALSE(log[0].closed);
  EXPECT_EQ(process->base.loop_ref_count, 1u);
  EXPECT_TRUE(process->base.stop(&process->base));
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_CLOSED(&process->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ZEND_ASYNC_EVENT_RELEASE(&process->base);
}

// php-async tests/exec 012-proc_close_child_killed_by_signal.
TEST_F(ProcessEventTest, AChildEndedBySignalReportsMinusTheSignal) {
  Child child(0, /*immediate=*/false);
  NotificationLog log;
  zend_async_process_event_t* process = child.NewEvent();
  AddRecorder(&process->base, &log, "exit");
  ASSERT_TRUE(process->base.start(&process->base));

  ASSERT_EQ(kill(child.pid(), SIGKILL), 0);
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));
  child.MarkReaped();

  EXPECT_EQ(process->exit_code, -SIGKILL);
  ZEND_ASYNC_EVENT_RELEASE(&process->base);
}

TEST_F(ProcessEventTest, AChildThatAlreadyExitedIsNotifiedFromStart) {
  Child child(5, /*immediate=*/true);
  child.WaitUntilExited();
  NotificationLog log;
  zend_async_process_event_t* process = child.NewEvent();
  AddRecorder(&process->base, &log, "exit");

  EXPECT_TRUE(process->base.start(&process->base));
  child.MarkReaped();

  ASSERT_EQ(log.size(), 1u);
  EXPECT_TRUE(log[0].closed);
  EXPECT_EQ(log[0].loop_ref_count, 0u);
  EXPECT_EQ(process->exit_code, 5);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ZEND_ASYNC_EVENT_RELEASE(&process->base);
}

// php-async tests/exec 013-proc_close_child_already_reaped: no exception,
// exit code -1.
TEST_F(ProcessEventTest, AChildReapedElsewhereCountsAsExitedWithMinusOne) {
  Child child(42, /*immediate=*/true);
  EXPECT_EQ(WEXITSTATUS(child.ReapElsewhere()), 42);
  NotificationLog log;
  zend_async_process_event_t* process = child.NewEvent();
  AddRecorder(&process->base, &log, "exit");

  EXPECT_TRUE(process->base.start(&process->base));

  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].exception, "");
  EXPECT_TRUE(log[0].closed);
  EXPECT_EQ(process->exit_code, -1);
  ZEND_ASYNC_EVENT_RELEASE(&process->base);
}

TEST_F(ProcessEventTest, TheSamePidGivesTheSameEventWithAnotherReference) {
  Child child(0, /*immediate=*/false);
  zend_async_process_event_t* first = child.NewEvent();
  zend_async_process_event_t* second = child.NewEvent();

  EXPECT_EQ(first, second);
  EXPECT_EQ(ZEND_ASYNC_EVENT_REFCOUNT(&first->base), 2u);
  ZEND_ASYNC_EVENT_RELEASE(&second->base);
  EXPECT_EQ(ZEND_ASYNC_EVENT_REFCOUNT(&first->base), 1u);
  ZEND_ASYNC_EVENT_RELEASE(&first->base);
}

TEST_F(ProcessEventTest, AStoppedEventIsClosedAndTheNextOneForThePidIsNew) {
  Child child(0, /*immediate=*/false);
  zend_async_process_event_t* first = child.NewEvent();
  ASSERT_TRUE(first->base.start(&first->base));
  EXPECT_TRUE(first->base.stop(&first->base));
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_CLOSED(&first->base));

  zend_async_process_event_t* second = child.NewEvent();
  EXPECT_NE(second, first);
  EXPECT_EQ(ZEND_ASYNC_EVENT_REFCOUNT(&second->base), 1u);
  ZEND_ASYNC_EVENT_RELEASE(&first->base);
  ZEND_ASYNC_EVENT_RELEASE(&second->base);
}

TEST_F(ProcessEventTest, EveryCallbackOfTheEventIsNotifiedOnce) {
  Child child(9, /*immediate=*/false);
  NotificationLog log;
  zend_async_process_event_t* process = child.NewEvent();
  AddRecorder(&process->base, &log, "first");
  AddRecorder(&process->base, &log, "second");
  ASSERT_TRUE(process->base.start(&process->base));

  child.Release();
  ASSERT_TRUE(RunUntil([&] { return log.size() == 2; }));
  child.MarkReaped();
  // Further SIGCHLDs (another child) notify nothing more.
  Child other(0, /*immediate=*/true);
  other.WaitUntilExited();
  for (int pass = 0; pass < 3; pass++) {
    ZEND_ASYNC_REACTOR_EXECUTE(/*no_wait=*/true);
  }

  EXPECT_EQ(Names(log), (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(process->exit_code, 9);
  ZEND_ASYNC_EVENT_RELEASE(&process->base);
}

TEST_F(ProcessEventTest, InfoNamesThePid) {
  Child child(0, /*immediate=*/false);
  zend_async_process_event_t* process = child.NewEvent();
  EXPECT_EQ(InfoOf(&process->base),
            "Process(pid=" + std::to_string(child.pid()) + ")");
  ZEND_ASYNC_EVENT_RELEASE(&process->base);
}

// A coroutine waits for the child as proc_close does: resume_when on the
// event, then stop (the waker's clean) once resumed.
TEST_F(ProcessEventTest, ACoroutineWaitsForTheChildThroughItsWaker) {
  Child child(4, /*immediate=*/false);
  zend_long exit_code = 0;
  EXPECT_TRUE(RunMain([&] {
    zend_async_process_event_t* process = child.NewEvent();
    zar::testing::Spawn([&child] { child.Release(); });
    EXPECT_TRUE(zar::testing::WaitFor(&process->base));
    exit_code = process->exit_code;
    EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_CLOSED(&process->base));
    ZEND_ASYNC_EVENT_RELEASE(&process->base);
  }));
  child.MarkReaped();
  EXPECT_EQ(exit_code, 4);
}

// php-async tests/exec 011-proc_open_handle_reuse_uaf: many children
// waited for at once, each by its own coroutine and event.
TEST_F(ProcessEventTest, ManyChildrenWaitedAtOnceEachGetTheirOwnExit) {
  constexpr int kChildren = 8;
  std::vector<std::unique_ptr<Child>> children;
  for (int i = 0; i < kChildren; i++) {
    children.push_back(std::make_unique<Child>(10 + i, /*immediate=*/false));
  }
  std::vector<zend_long> exit_codes(kChildren, 0);
  EXPECT_TRUE(RunMain([&] {
    std::vector<zar::testing::CoroutineRef> waiters;
    for (int i = 0; i < kChildren; i++) {
      waiters.emplace_back(zar::testing::Spawn([&, i] {
        zend_async_process_event_t* process =
            ZEND_ASYNC_NEW_PROCESS_EVENT(children[i]->pid());
        EXPECT_TRUE(zar::testing::WaitFor(&process->base));
        exit_codes[i] = process->exit_code;
        ZEND_ASYNC_EVENT_RELEASE(&process->base);
      }));
    }
    zar::testing::Yield();  // every waiter parks
    for (int i = kChildren - 1; i >= 0; i--) children[i]->Release();
    for (auto& waiter : waiters) {
      EXPECT_EQ(zar::testing::Await(waiter.get()).error, "");
    }
  }));
  for (int i = 0; i < kChildren; i++) {
    children[i]->MarkReaped();
    EXPECT_EQ(exit_codes[i], 10 + i);
  }
}

}  // namespace
}  // namespace zar::reactor_testing
