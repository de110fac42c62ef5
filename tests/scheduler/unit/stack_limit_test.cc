// The reference's coroutine stacks at the process's limit of memory
// mappings. With guard markers (Linux 6.13+) stacks take no mapping of
// their own and the limit does not bound them. With the mprotect fallback
// each stack is two mappings (the stack and its guard page), so under
// vm.max_map_count (65530 by default) a process holds about 32,700 of
// them; these tests choose that fallback (SetStackGuard) except where they
// say otherwise. The stack is reserved when the coroutine is spawned, so
// the spawner is the one that gets the failure, as an Exception naming the
// limit and how to raise it, and every coroutine spawned before goes on.
//
// To reach the limit in a fraction of a second the test first takes most
// of the mappings itself (one PROT_NONE region split into single pages,
// which costs no memory), leaving room for about a thousand stacks; the
// limit reached is still the kernel's (docs/scheduler.md, "Limits").

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "core/fiber/fiber_stack.h"
#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ::testing::MatchesRegex;
using zar::core::CountMappings;
using zar::core::CurrentStackGuard;
using zar::core::FiberStack;
using zar::core::MaxMapCount;
using zar::core::SetStackGuard;
using zar::core::StackGuard;
using zar::testing::YieldUntil;

// Takes `count` memory mappings: a PROT_NONE region of `count` pages whose
// every other page is made readable, so no two neighbours merge. Unmapped
// (in one call) when it goes.
class MappingFiller {
 public:
  explicit MappingFiller(size_t count)
      : page_(static_cast<size_t>(sysconf(_SC_PAGESIZE))),
        size_(count * page_) {
    region_ = mmap(nullptr, size_, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (region_ == MAP_FAILED) {
      region_ = nullptr;
      return;
    }
    for (size_t page = 1; page < count; page += 2) {
      if (mprotect(static_cast<char*>(region_) + page * page_, page_,
                   PROT_READ) != 0) {
        break;
      }
    }
  }
  ~MappingFiller() {
    if (region_ != nullptr) munmap(region_, size_);
  }
  MappingFiller(const MappingFiller&) = delete;
  MappingFiller& operator=(const MappingFiller&) = delete;
  bool ok() const { return region_ != nullptr; }

 private:
  size_t page_;
  size_t size_;
  void* region_ = nullptr;
};

// Stacks left room for: 2 mappings each.
constexpr size_t kRoomForStacks = 1000;

// Stacks are guarded with mprotect, two mappings each, unless a test
// chooses guard markers.
class StackLimitTest : public SchedulerTest {
 protected:
  void SetUp() override {
    SchedulerTest::SetUp();
    guard_ = CurrentStackGuard();
    SetStackGuard(StackGuard::kMprotect);
  }
  void TearDown() override {
    filler_.reset();
    SetStackGuard(guard_);
    SchedulerTest::TearDown();
  }

  // Takes all the process's memory mappings but room for kRoomForStacks
  // mprotect-guarded stacks, until the test ends. Skips the test when the
  // limit is too high to reach quickly.
  void LeaveRoomForStacks();
  // Gives the mappings LeaveRoomForStacks took back.
  void ReleaseMappings() { filler_.reset(); }

 private:
  StackGuard guard_ = StackGuard::kMarker;
  std::unique_ptr<MappingFiller> filler_;
};

void StackLimitTest::LeaveRoomForStacks() {
  const size_t limit = MaxMapCount();
  if (limit == 0 || limit > 1000000) {
    GTEST_SKIP() << "vm.max_map_count is " << limit
                 << ": too high to reach in a unit test";
  }
  const size_t in_use = CountMappings();
  ASSERT_LT(in_use + 2 * kRoomForStacks, limit);
  filler_ =
      std::make_unique<MappingFiller>(limit - in_use - 2 * kRoomForStacks);
  ASSERT_TRUE(filler_->ok());
}

// Whether this kernel has guard markers: one stack is mapped the way that
// needs them (a kernel before 6.13 turns the choice into mprotect).
bool KernelHasGuardMarkers() {
  SetStackGuard(StackGuard::kMarker);
  FiberStack probe;
  return probe.Allocate(0) && CurrentStackGuard() == StackGuard::kMarker;
}

TEST_F(StackLimitTest,
       TheSpawnerGetsTheMappingLimitAndEarlierCoroutinesFinish) {
  LeaveRoomForStacks();
  if (IsSkipped() || HasFatalFailure()) return;
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
      Yield();  // it starts and parks: the run queue stays short
    }
    error = TakeExceptionText();
    // The limit was reached. What follows needs mappings too (finished
    // coroutines' stacks stay in the stack cache; a sanitizer maps its
    // own), so the test's are given back.
    ReleaseMappings();
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
                   std::to_string(MaxMapCount()) +
                   " memory mappings, 2 per coroutine stack\\); raise it "
                   "with \"sysctl -w vm.max_map_count=[0-9]+\""));
  // Two mappings per stack: about kRoomForStacks stacks fitted (less what
  // the request itself mapped meanwhile).
  EXPECT_GT(spawned, kRoomForStacks / 2);
  EXPECT_LE(spawned, kRoomForStacks);
  EXPECT_EQ(finished, spawned);
  EXPECT_EQ(failed, 0u);
}

// With guard markers the same room holds three times as many parked
// coroutines as it holds mprotect-guarded stacks, and no spawn fails.
TEST_F(StackLimitTest, GuardMarkersLetParkedCoroutinesOutnumberTheMappings) {
  if (!KernelHasGuardMarkers()) {
    GTEST_SKIP() << "this kernel has no guard markers (MADV_GUARD_INSTALL)";
  }
  LeaveRoomForStacks();
  if (IsSkipped() || HasFatalFailure()) return;
  constexpr size_t kParked = 3 * kRoomForStacks;
  size_t spawned = 0;
  size_t finished = 0;
  std::string error;
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* release = NewPlainEvent();
    while (spawned < kParked) {
      zend_coroutine_t* coroutine = Spawn([&](mock_zend::Call&) {
        if (WaitFor(release)) finished++;
      });
      if (coroutine == nullptr) break;
      spawned++;
      Yield();  // it starts and parks
    }
    error = TakeExceptionText();
    FirePlainEvent(release);
    YieldUntil([&] { return finished == spawned; }, 100);
    ZEND_ASYNC_EVENT_RELEASE(release);
  }));
  EXPECT_EQ(error, "");
  EXPECT_EQ(spawned, kParked);
  EXPECT_EQ(finished, kParked);
}

// A burst of spawns beyond the reservation window reserves no stacks: the
// coroutines start on the fiber finished ones leave, so far more of them
// than the mappings left could hold run to completion.
TEST_F(StackLimitTest,
       ABurstOfCoroutinesThatDoNotSuspendIsNotBoundedByTheLimit) {
  LeaveRoomForStacks();
  if (IsSkipped() || HasFatalFailure()) return;
  constexpr size_t kBurst = 5 * kRoomForStacks;
  size_t spawned = 0;
  size_t finished = 0;
  EXPECT_TRUE(RunMain([&] {
    for (size_t i = 0; i < kBurst; i++) {
      if (Spawn([&](mock_zend::Call&) { finished++; }) == nullptr) break;
      spawned++;
    }
    EXPECT_EQ(TakeExceptionText(), "");
    YieldUntil([&] { return finished == spawned; }, 100);
  }));
  EXPECT_EQ(spawned, kBurst);
  EXPECT_EQ(finished, kBurst);
}

// A stack larger than the address space: ENOMEM with mappings to spare is
// memory, and the message names the stack size and the knobs.
TEST_F(StackLimitTest, TheSpawnerGetsAMemoryFailureNamingTheStackSize) {
  constexpr size_t kHuge = size_t{1} << 50;  // 1 PiB
  bool ran = false;
  std::string error;
  EXPECT_TRUE(RunMain([&] {
    zar::testing::Yield();  // launched: the scheduler's stack is mapped
    zar::core::SetDefaultStackSize(kHuge);
    zend_coroutine_t* coroutine = Spawn([&](mock_zend::Call&) { ran = true; });
    zar::core::SetDefaultStackSize(0);
    EXPECT_EQ(coroutine, nullptr);
    error = TakeExceptionText();
    EXPECT_NE(Spawn([&](mock_zend::Call&) { ran = true; }), nullptr);
  }));
  EXPECT_THAT(error,
              MatchesRegex("Exception: Fiber stack allocate failed: mmap "
                           "failed: Cannot allocate memory \\(12\\); no "
                           "memory for a coroutine stack of " +
                           std::to_string(kHuge) +
                           " bytes \\([0-9]+ memory mappings of "
                           "vm.max_map_count [0-9]+ in use\\); lower the "
                           "stack size \\(ZEND_ASYNC_REF_STACK_SIZE\\) or "
                           "raise the address-space limit \\(RLIMIT_AS, "
                           "\"ulimit -v\"\\)"));
  EXPECT_TRUE(ran);  // the next spawn, with the default size, ran
}

}  // namespace
}  // namespace zar::scheduler_testing
