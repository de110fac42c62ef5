// Graceful shutdown: explicit, after an uncaught error, after a bailout.

#include <string>
#include <vector>

#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsSubsetOf;
using ::testing::IsSupersetOf;

// What the waiter logs when the graceful shutdown cancels its wait.
constexpr const char* kShutDown =
    "waiter: Async\\AsyncCancellation: Graceful shutdown";

class ShutdownTest : public SchedulerTest {
 protected:
  // Spawns a coroutine that waits on `never_`, a new event nothing fires
  // (the test releases it), and logs "waiter: " and the exception that
  // ended its wait.
  void SpawnWaiter() {
    never_ = NewPlainEvent();
    Spawn([this](mock_zend::Call&) {
      WaitFor(never_);
      log_.push_back("waiter: " + TakeExceptionText());
    });
  }

  std::vector<std::string> log_;
  zend_async_event_t* never_ = nullptr;
};

TEST_F(ShutdownTest, ShutdownCancelsEveryCoroutine) {
  EXPECT_TRUE(RunMain([&] {
    SpawnWaiter();
    Yield();  // the waiter starts and suspends
    Spawn([&](mock_zend::Call&) { log_.push_back("never started"); });
    EXPECT_TRUE(ZEND_ASYNC_SHUTDOWN());
    EXPECT_TRUE(ZEND_ASYNC_GRACEFUL_SHUTDOWN);
    ZEND_ASYNC_EVENT_RELEASE(never_);
  }));
  EXPECT_THAT(log_, ElementsAre(kShutDown));
  EXPECT_THAT(ReportedErrors(), ElementsAre());
}

// The failing coroutine's scope (the main scope) catches its error first.
// The main scope is disposed safely (php-async scope.c async_new_scope), so
// scope_catch_or_cancel leaves the other members running as zombies rather
// than cancelling them, and the graceful shutdown that follows, nobody
// handling the error, cancels them.
TEST_F(ShutdownTest, UncaughtExceptionShutsTheOtherCoroutinesDown) {
  ExpectUncaught("Exception: failure");
  EXPECT_FALSE(RunMain([&] {
    SpawnWaiter();
    Spawn([&](mock_zend::Call&) {
      zend_throw_exception(zend_ce_exception, "failure", 0);
    });
  }));
  EXPECT_THAT(log_, ElementsAre(kShutDown));
  EXPECT_THAT(ReportedErrors(),
              ElementsAre("E_ERROR: Uncaught Exception: failure"));
  ZEND_ASYNC_EVENT_RELEASE(never_);
}

// After a fatal error no coroutine goes on as if nothing happened: the
// reference cancels the others with "Graceful shutdown" and lets them run
// to their end (its unit tests), upstream unwinds each one's stack with a
// bailout, so none of their code after the suspension runs (php-async
// scheduler.c bailout_all_coroutines). Either way the waiter is never
// resumed normally, and no code after the fatal error runs.
TEST_F(ShutdownTest, FatalErrorInACoroutineEndsEveryCoroutine) {
  ExpectFatalErrors({"Fatal in coroutine"});
  // Whether the main flow, which had ended, bails out again is the
  // implementation's: upstream's main flow returns normally.
  RunMain([&] {
    SpawnWaiter();
    Spawn([&](mock_zend::Call&) {
      log_.push_back("fatal");
      zend_error(E_ERROR, "Fatal in coroutine");
      log_.push_back("not reached");
    });
    Spawn([&](mock_zend::Call&) { log_.push_back("never started"); });
    log_.push_back("main end");
  });
  EXPECT_THAT(log_, IsSubsetOf({"main end", "fatal", kShutDown}));
  EXPECT_THAT(log_, IsSupersetOf({"main end", "fatal"}));
  EXPECT_THAT(ReportedErrors(), ElementsAre("E_ERROR: Fatal in coroutine"));
  ZEND_ASYNC_EVENT_RELEASE(never_);
}

TEST_F(ShutdownTest, FatalErrorInACoroutineBailsOutTheWaitingMainFlow) {
  ExpectFatalErrors({"Fatal in coroutine"});
  EXPECT_FALSE(RunMain([&] {
    SpawnWaiter();
    // Borrowed: the bailout abandons this frame, so it must own nothing.
    zend_coroutine_t* fatal = Spawn(
        [&](mock_zend::Call&) { zend_error(E_ERROR, "Fatal in coroutine"); });
    Await(fatal);
    log_.push_back("main not reached");
  }));
  EXPECT_THAT(log_, IsSubsetOf({kShutDown}));
  EXPECT_THAT(ReportedErrors(), ElementsAre("E_ERROR: Fatal in coroutine"));
  ZEND_ASYNC_EVENT_RELEASE(never_);
}

TEST_F(ShutdownTest, FatalErrorInMainEndsTheCoroutines) {
  ExpectFatalErrors({"Fatal in main"});
  EXPECT_FALSE(RunMain([&] {
    SpawnWaiter();
    Yield();
    zend_error(E_ERROR, "Fatal in main");
    log_.push_back("main not reached");
  }));
  EXPECT_THAT(log_, IsSubsetOf({kShutDown}));
  EXPECT_THAT(ReportedErrors(), ElementsAre("E_ERROR: Fatal in main"));
  ZEND_ASYNC_EVENT_RELEASE(never_);
}

}  // namespace
}  // namespace zar::scheduler_testing
