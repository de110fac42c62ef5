// The reference's coroutine stacks at the process's limit of memory
// mappings: each stack is two mappings (the stack and its guard page), so
// under vm.max_map_count (65530 by default) a process holds about 32,700
// of them. The stack is reserved when the coroutine is spawned, so the
// spawner is the one that gets the failure, as an Exception naming the
// limit and how to raise it, and every coroutine spawned before goes on.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ::testing::MatchesRegex;
using zar::testing::YieldUntil;

class StackLimitTest : public SchedulerTest {};

size_t MaxMapCount() {
  FILE* file = std::fopen("/proc/sys/vm/max_map_count", "r");
  if (file == nullptr) return 0;
  unsigned long long value = 0;
  if (std::fscanf(file, "%llu", &value) != 1) value = 0;
  std::fclose(file);
  return static_cast<size_t>(value);
}

TEST_F(StackLimitTest,
       TheSpawnerGetsTheMappingLimitAndEarlierCoroutinesFinish) {
#if defined(ZAR_SANITIZE)
  // AddressSanitizer maps its own shadow and allocator regions on demand:
  // at the mapping limit its own next mmap fails and it aborts the process
  // before our exception can be observed.
  GTEST_SKIP() << "AddressSanitizer needs memory mappings of its own at "
                  "vm.max_map_count";
#endif
  const size_t limit = MaxMapCount();
  if (limit == 0 || limit > 200000) {
    GTEST_SKIP() << "vm.max_map_count is " << limit
                 << ": too high to reach in a unit test";
  }
  size_t spawned = 0;
  size_t finished = 0;
  size_t failed = 0;
  std::string error;
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* release = NewPlainEvent();
    for (;;) {
      zend_coroutine_t* coroutine = Spawn([&](mock_zend::Call&) {
        if (WaitFor(release)) {
          finished++;
        } else {
          failed++;
        }
      });
      if (coroutine == nullptr) break;
      spawned++;
      if (spawned % 1024 == 0) Yield();  // they start and park
    }
    error = TakeExceptionText();
    Yield();
    FirePlainEvent(release);
    YieldUntil([&] { return finished + failed == spawned; }, 100);
    ZEND_ASYNC_EVENT_RELEASE(release);
  }));
  EXPECT_THAT(
      error,
      MatchesRegex("Exception: Fiber stack (allocate|protect) failed: "
                   "(mmap|mprotect) failed: Cannot allocate memory \\(12\\); "
                   "the process has reached vm.max_map_count \\(" +
                   std::to_string(limit) +
                   " memory mappings, 2 per coroutine stack\\); raise it "
                   "with \"sysctl -w vm.max_map_count=[0-9]+\""));
  // Two mappings per stack: the spawner got about limit / 2 of them.
  EXPECT_GT(spawned, limit / 2 - 2000);
  EXPECT_LT(spawned, limit / 2);
  EXPECT_EQ(finished, spawned);
  EXPECT_EQ(failed, 0u);
}

}  // namespace
}  // namespace zar::scheduler_testing
