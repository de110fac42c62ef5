// The stack cache (core/fiber/stack_cache.h): released stacks are handed
// out again most recent first; up to kWarmStacks keep their memory; beyond
// that their memory goes back in batches and their address ranges are kept
// up to kColdStacks; the guard page survives all of it.

#include "core/fiber/stack_cache.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <vector>

#include "core/fiber/fiber_stack.h"

namespace zar::core {
namespace {

const size_t kPage = static_cast<size_t>(sysconf(_SC_PAGESIZE));
// Small stand-ins for stacks: two pages each, the first byte of the second
// written so that it holds memory.
const size_t kMappingSize = 2 * kPage;

char* MapTouched() {
  void* mapping = mmap(nullptr, kMappingSize, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) return nullptr;
  char* bytes = static_cast<char*>(mapping);
  bytes[kPage] = 1;
  return bytes;
}

// Whether [mapping, mapping + kMappingSize) is still mapped.
bool IsMapped(const char* mapping) {
  return msync(const_cast<char*>(mapping), kMappingSize, MS_ASYNC) == 0 ||
         errno != ENOMEM;
}

// Gives `count` fresh mappings to `cache`; returns them in order given.
std::vector<char*> GiveFresh(StackCache& cache, size_t count) {
  std::vector<char*> given;
  for (size_t i = 0; i < count; i++) {
    char* mapping = MapTouched();
    if (mapping == nullptr) break;
    cache.Give(mapping, kMappingSize);
    given.push_back(mapping);
  }
  return given;
}

TEST(StackCacheTest, HandsOutTheMostRecentlyReleasedStackFirst) {
  StackCache cache;
  const std::vector<char*> given = GiveFresh(cache, 3);
  ASSERT_EQ(given.size(), 3u);
  EXPECT_EQ(cache.Take(kMappingSize), given[2]);
  EXPECT_EQ(cache.Take(kMappingSize), given[1]);
  EXPECT_EQ(cache.Take(kMappingSize), given[0]);
  // (Taken: the test unmaps them.)
  EXPECT_EQ(cache.Take(kMappingSize), nullptr);
  for (char* mapping : given) munmap(mapping, kMappingSize);
}

TEST(StackCacheTest, HandsOutNothingOfAnotherSize) {
  StackCache cache;
  GiveFresh(cache, 1);
  EXPECT_EQ(cache.Take(kMappingSize + kPage), nullptr);
  EXPECT_EQ(cache.warm(), 1u);
}

TEST(StackCacheTest, AStackOfAnotherSizeUnmapsTheCachedOnes) {
  StackCache cache;
  const std::vector<char*> given = GiveFresh(cache, 2);
  void* other = mmap(nullptr, kMappingSize + kPage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(other, MAP_FAILED);
  cache.Give(other, kMappingSize + kPage);
  EXPECT_FALSE(IsMapped(given[0]));
  EXPECT_FALSE(IsMapped(given[1]));
  EXPECT_EQ(cache.warm(), 1u);
  EXPECT_EQ(cache.Take(kMappingSize + kPage), other);
  munmap(other, kMappingSize + kPage);
}

TEST(StackCacheTest, BeyondTheBoundMemoryGoesBackInBatches) {
  StackCache cache;
  const std::vector<char*> given =
      GiveFresh(cache, StackCache::kWarmStacks + StackCache::kTrimBatch - 1);
  ASSERT_EQ(given.size(), StackCache::kWarmStacks + StackCache::kTrimBatch - 1);
  EXPECT_EQ(cache.warm(), StackCache::kWarmStacks);
  EXPECT_EQ(cache.pending(), StackCache::kTrimBatch - 1);
  EXPECT_EQ(cache.cold(), 0u);
  // Not returned yet: the batch is one short.
  EXPECT_EQ(given.back()[kPage], 1);

  GiveFresh(cache, 1);  // completes the batch
  EXPECT_EQ(cache.warm(), StackCache::kWarmStacks);
  EXPECT_EQ(cache.pending(), 0u);
  EXPECT_EQ(cache.cold(), StackCache::kTrimBatch);
  // The batch's memory was returned (it reads as zero again); the warm
  // stacks kept theirs; every range is still mapped.
  EXPECT_EQ(given.back()[kPage], 0);
  EXPECT_TRUE(IsMapped(given.back()));
  EXPECT_EQ(given.front()[kPage], 1);
}

TEST(StackCacheTest, TrimReturnsThePendingMemoryAtOnce) {
  StackCache cache;
  const std::vector<char*> given =
      GiveFresh(cache, StackCache::kWarmStacks + 3);
  EXPECT_EQ(cache.pending(), 3u);
  cache.Trim();
  EXPECT_EQ(cache.pending(), 0u);
  EXPECT_EQ(cache.cold(), 3u);
  EXPECT_EQ(given.back()[kPage], 0);
  // Warm stacks are taken first, then cold ones.
  std::vector<char*> taken;
  for (size_t i = 0; i <= StackCache::kWarmStacks; i++) {
    taken.push_back(static_cast<char*>(cache.Take(kMappingSize)));
  }
  EXPECT_EQ(taken[StackCache::kWarmStacks - 1][kPage], 1);
  EXPECT_EQ(taken[StackCache::kWarmStacks][kPage], 0);
  for (char* mapping : taken) munmap(mapping, kMappingSize);
}

TEST(StackCacheTest, AddressRangesBeyondTheColdBoundAreUnmapped) {
  StackCache cache;
  const size_t count = StackCache::kWarmStacks + StackCache::kColdStacks +
                       StackCache::kTrimBatch;
  const std::vector<char*> given = GiveFresh(cache, count);
  ASSERT_EQ(given.size(), count);
  EXPECT_EQ(cache.warm(), StackCache::kWarmStacks);
  EXPECT_EQ(cache.cold(), StackCache::kColdStacks);
  size_t mapped = 0;
  for (char* mapping : given) mapped += IsMapped(mapping);
  EXPECT_EQ(mapped, StackCache::kWarmStacks + StackCache::kColdStacks);
}

// Stacks whose guard is a mapping of its own: beyond the bound they are
// unmapped when given, and no address range is kept.
TEST(StackCacheTest, WithoutKeepingRangesStacksBeyondTheBoundAreUnmapped) {
  StackCache cache;
  std::vector<char*> given;
  for (size_t i = 0; i < StackCache::kWarmStacks + 2; i++) {
    char* mapping = MapTouched();
    ASSERT_NE(mapping, nullptr);
    cache.Give(mapping, kMappingSize, /*keep_range=*/false);
    given.push_back(mapping);
  }
  EXPECT_EQ(cache.warm(), StackCache::kWarmStacks);
  EXPECT_EQ(cache.pending(), 0u);
  EXPECT_EQ(cache.cold(), 0u);
  EXPECT_TRUE(IsMapped(given[StackCache::kWarmStacks - 1]));
  EXPECT_FALSE(IsMapped(given[StackCache::kWarmStacks]));
  EXPECT_FALSE(IsMapped(given[StackCache::kWarmStacks + 1]));
}

TEST(StackCacheTest, FiberStacksComeBackFromTheThreadsCache) {
  void* first_top = nullptr;
  {
    FiberStack stack;
    ASSERT_TRUE(stack.Allocate(kMinStackSize));
    first_top = stack.top();
    const size_t in_use = FiberStack::InUse();
    stack.Release();
    EXPECT_EQ(FiberStack::InUse(), in_use - 1);
  }
  FiberStack again;
  ASSERT_TRUE(again.Allocate(kMinStackSize));
  EXPECT_EQ(again.top(), first_top);
}

// A stack whose memory went back (cold) still has its guard page. Cold
// stacks exist with guard markers only.
TEST(StackCacheDeathTest, AReusedColdStackStillFaultsOnItsGuardPage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  SetStackGuard(StackGuard::kMarker);
  {
    FiberStack probe;  // a kernel without markers turns the choice back
    ASSERT_TRUE(probe.Allocate(kMinStackSize));
  }
  if (CurrentStackGuard() != StackGuard::kMarker) {
    GTEST_SKIP() << "this kernel has no guard markers (MADV_GUARD_INSTALL)";
  }
  EXPECT_DEATH(
      {
        std::vector<FiberStack> stacks(StackCache::kWarmStacks + 1);
        for (FiberStack& stack : stacks) stack.Allocate(kMinStackSize);
        stacks.clear();  // kWarmStacks warm, one pending
        StackCache::ForThread()->Trim();
        std::vector<FiberStack> warm(StackCache::kWarmStacks);
        for (FiberStack& stack : warm) stack.Allocate(kMinStackSize);
        const bool next_is_cold = StackCache::ForThread()->warm() == 0 &&
                                  StackCache::ForThread()->cold() == 1;
        FiberStack cold;
        cold.Allocate(kMinStackSize);
        if (next_is_cold) std::fputs("touching a cold stack's guard\n", stderr);
        static_cast<volatile char*>(cold.guard())[cold.guard_size() - 1] = 1;
      },
      "touching a cold stack's guard");
}

}  // namespace
}  // namespace zar::core
