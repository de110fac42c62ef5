// The reference's report of a coroutine that overflows its stack: before
// the SIGSEGV of the guard page ends the process, stderr names the
// coroutine, where it was spawned and its stack size
// (core/scheduler/stack_overflow.h).

#include <gtest/gtest.h>
#include <signal.h>

#include <climits>

#include "core/fiber/fiber_stack.h"
#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

class StackOverflowDeathTest : public SchedulerTest {};

volatile int depth_limit = INT_MAX;

// Recurses with 1 KiB frames until the stack runs out (the volatile limit
// and frame keep the compiler from turning it into a loop).
[[gnu::noinline]] int Recurse(int depth) {
  volatile char frame[1024];
  frame[0] = static_cast<char>(depth);
  if (depth >= depth_limit) return frame[0];
  return Recurse(depth + 1) + frame[0];
}

TEST_F(StackOverflowDeathTest, OverflowNamesTheCoroutineAndItsStackSize) {
  const std::string expected =
      "Fatal error: Coroutine #[0-9]+ \\(spawned at /app/deep\\.php:7\\) "
      "overflowed its stack of " +
      std::to_string(zar::core::DefaultStackSize()) + " bytes";
  EXPECT_EXIT(RunMain([] {
                zend_mock_set_location("/app/deep.php", 7);
                Spawn([](mock_zend::Call&) { Recurse(0); });
                Yield();
              }),
              ::testing::KilledBySignal(SIGSEGV), expected);
}

TEST_F(StackOverflowDeathTest, OtherFaultsKeepTheirDefaultAction) {
#if defined(ZAR_SANITIZE)
  // The sanitizers' own handlers come first: UBSan reports the null store
  // and AddressSanitizer's SEGV handler (the one ours chains to) reports
  // the fault and exits, so there is no default action to observe.
  GTEST_SKIP() << "the sanitizers handle this fault themselves";
#endif
  EXPECT_EXIT(RunMain([] {
                Spawn([](mock_zend::Call&) {
                  volatile int* nowhere = nullptr;
                  *nowhere = 1;
                });
                Yield();
              }),
              ::testing::KilledBySignal(SIGSEGV), "^$");
}

}  // namespace
}  // namespace zar::scheduler_testing
