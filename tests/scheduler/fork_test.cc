// The fork hooks (ABI v0.24) as php-src's pcntl_fork() meets them
// (php-async tests/fork 001-003): the async extension refuses a fork while
// a coroutine other than main is alive, and the child of an allowed fork has
// a working reactor of its own. The forks are real: pcntl_fork() is called
// as PHP code calls it, the child does its async work and reports through
// its exit status, and the parent waits for it.

#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

#include "tests/scheduler/support/scheduler_test.h"
#include "tests/support/implementation.h"

extern "C" {
#include "ext/pcntl/php_pcntl.h"
}

namespace zar::scheduler_testing {
namespace {

// upstream php-async async.c, async_before_fork.
constexpr char kForkRefused[] =
    "Error: Cannot fork() while coroutines other than the main one are "
    "running. fork() is only allowed when just the main coroutine is active.";

class ForkTest : public SchedulerTest {
 protected:
  std::vector<zend_module_entry*> Modules() override {
    return {zar::testing::AsyncModule(), &pcntl_module_entry};
  }
};

// pcntl_fork() as PHP code calls it: the pid, 0 in the child, or -2 when
// the call threw (nothing returned).
zend_long PcntlFork() {
  zval name;
  zval result;
  ZVAL_STRING(&name, "pcntl_fork");
  ZVAL_UNDEF(&result);
  call_user_function(nullptr, nullptr, &name, &result, 0, nullptr);
  zval_ptr_dtor(&name);
  const zend_long pid = Z_TYPE(result) == IS_LONG ? Z_LVAL(result) : -2;
  zval_ptr_dtor(&result);
  return pid;
}

// The child's exit status, waiting without blocking the parent's reactor:
// the parent's loop keeps running (a 1 ms delay between checks) while the
// child works, as a server's would. -1 when the child did not exit within
// `max_checks` checks (it is killed) or was killed by a signal.
int ExitStatusOf(pid_t child, int max_checks = 10000) {
  for (int i = 0; i < max_checks; i++) {
    int status = 0;
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    if (done == -1 && errno != EINTR) return -1;
    Delay(1);
  }
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  return -1;
}

// No child process exists (a refused fork made none).
bool NoChildExists() {
  return waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD;
}

// In the child only: the async work of php-async's fork test 002, a
// coroutine that delays and returns a value on the child's reactor. Never
// returns: _exit(0) when it worked, 1 otherwise.
[[noreturn]] void ChildWork() {
  int value = 0;
  CoroutineRef coroutine(Spawn([&] {
    if (Delay(1)) value = 42;
  }));
  Await(coroutine.get());
  _exit(value == 42 ? 0 : 1);
}

// Counts its event's notifications.
struct CountingCallback {
  zend_async_event_callback_t base;
  int* count;
};

void Count(zend_async_event_t*, zend_async_event_callback_t* callback, void*,
           zend_object*) {
  ++*reinterpret_cast<CountingCallback*>(callback)->count;
}

TEST_F(ForkTest, TheChildOfAForkWithOnlyMainAliveHasAWorkingReactorOfItsOwn) {
  RunMain([&] {
    // The reactor has run; then only main is left.
    CoroutineRef warm_up(Spawn([] { Delay(1); }));
    Await(warm_up.get());

    const zend_long pid = PcntlFork();
    if (pid == 0) ChildWork();
    ASSERT_GT(pid, 0);
    EXPECT_EQ(ExitStatusOf(static_cast<pid_t>(pid)), 0);
  });
}

// What the child does with the reactor it inherited stays in the child:
// here it closes a poll event the parent still uses (as a worker closes the
// listeners it inherited). Sharing the parent's epoll instance, the close
// would unregister the parent's descriptor, and the parent would never hear
// from it again.
TEST_F(ForkTest, AChildClosingAnInheritedEventLeavesTheParentsEventWorking) {
  RunMain([&] {
    int fds[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    zend_async_poll_event_t* poll =
        ZEND_ASYNC_NEW_SOCKET_EVENT(fds[0], ASYNC_READABLE);
    ASSERT_NE(poll, nullptr);
    int notifications = 0;
    auto* callback = reinterpret_cast<CountingCallback*>(
        ZEND_ASYNC_EVENT_CALLBACK_EX(Count, sizeof(CountingCallback)));
    callback->count = &notifications;
    poll->base.add_callback(&poll->base, &callback->base);
    ASSERT_TRUE(poll->base.start(&poll->base));

    const zend_long pid = PcntlFork();
    if (pid == 0) {
      poll->base.dispose(&poll->base);
      _exit(0);
    }
    ASSERT_GT(pid, 0);
    ASSERT_EQ(ExitStatusOf(static_cast<pid_t>(pid)), 0);

    ASSERT_EQ(write(fds[1], "x", 1), 1);
    for (int i = 0; i < 3000 && notifications == 0; i++) Delay(1);
    EXPECT_GE(notifications, 1);

    poll->base.stop(&poll->base);
    poll->base.dispose(&poll->base);
    close(fds[0]);
    close(fds[1]);
  });
}

TEST_F(ForkTest, AForkWhileACoroutineOtherThanMainIsAliveIsRefused) {
  RunMain([&] {
    CoroutineRef sleeper(Spawn([] { Delay(10000); }));
    Yield();  // it started and parks in its delay

    const zend_long pid = PcntlFork();
    if (pid == 0) _exit(0);  // a fork that should not have happened
    EXPECT_EQ(pid, -2);
    EXPECT_EQ(TakeExceptionText(), kForkRefused);
    EXPECT_TRUE(NoChildExists());

    zar::testing::Cancel(sleeper.get());
    Await(sleeper.get());
  });
}

TEST_F(ForkTest, AForkFromInsideACoroutineIsRefused) {
  RunMain([&] {
    zend_long pid = 0;
    std::string error;
    CoroutineRef forker(Spawn([&] {
      pid = PcntlFork();
      if (pid == 0) _exit(0);  // a fork that should not have happened
      error = TakeExceptionText();
    }));
    Await(forker.get());
    EXPECT_EQ(pid, -2);
    EXPECT_EQ(error, kForkRefused);
    EXPECT_TRUE(NoChildExists());
  });
}

TEST_F(ForkTest, AForkBeforeAsyncWasUsedIsUnrestricted) {
  // No coroutine, no event: a plain fork, as without the extension.
  const zend_long pid = PcntlFork();
  if (pid == 0) _exit(7);
  ASSERT_GT(pid, 0);
  int status = 0;
  ASSERT_EQ(waitpid(static_cast<pid_t>(pid), &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7);
}

TEST_F(ForkTest, ACoroutineThatFinishedDoesNotHoldBackAFork) {
  RunMain([&] {
    CoroutineRef done(Spawn([] {}));
    Await(done.get());
    ASSERT_TRUE(done.finished());

    const zend_long pid = PcntlFork();
    if (pid == 0) _exit(0);
    ASSERT_GT(pid, 0);
    EXPECT_EQ(ExitStatusOf(static_cast<pid_t>(pid)), 0);
  });
}

}  // namespace
}  // namespace zar::scheduler_testing
