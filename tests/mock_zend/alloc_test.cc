// Tests of the mock engine's request allocator: accounting, leak reports,
// overflow checks; the heap's size classes, reuse and alignment, and the
// choice between the heap and the system allocator (USE_ZEND_ALLOC).

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "zend_async_ref/testing/request_fixture.h"

namespace {

class MockZendAllocTest : public zar::testing::RequestFixture {};

// The request allocator's live blocks and bytes when made; ExpectMore
// checks how many more there are now.
struct LiveCounts {
  const size_t blocks = zend_mm_live_blocks();
  const size_t bytes = zend_mm_live_bytes();

  void ExpectMore(size_t more_blocks, size_t more_bytes) const {
    EXPECT_EQ(zend_mm_live_blocks(), blocks + more_blocks);
    EXPECT_EQ(zend_mm_live_bytes(), bytes + more_bytes);
  }
};

TEST_F(MockZendAllocTest, EmallocBlocksAreCountedUntilFreed) {
  const LiveCounts before;
  void* a = emalloc(10);
  void* b = emalloc(30);
  before.ExpectMore(2, 40);
  efree(a);
  before.ExpectMore(1, 30);
  efree(b);
  before.ExpectMore(0, 0);
}

TEST_F(MockZendAllocTest, EfreeOfNullIsANoOp) {
  const size_t blocks = zend_mm_live_blocks();
  efree(nullptr);
  EXPECT_EQ(zend_mm_live_blocks(), blocks);
}

TEST_F(MockZendAllocTest, EreallocKeepsTheContentAndTheAccounting) {
  const size_t bytes = zend_mm_live_bytes();
  char* p = static_cast<char*>(emalloc(4));
  memcpy(p, "abc", 4);
  p = static_cast<char*>(erealloc(p, 4096));
  EXPECT_STREQ(p, "abc");
  EXPECT_EQ(zend_mm_live_bytes(), bytes + 4096);
  efree(p);
  EXPECT_EQ(zend_mm_live_bytes(), bytes);
}

TEST_F(MockZendAllocTest, Erealloc2KeepsTheCopiedPrefixAndTheAccounting) {
  const LiveCounts before;
  char* p = static_cast<char*>(emalloc(8));
  memcpy(p, "abcdefg", 8);
  p = static_cast<char*>(erealloc2(p, 4096, 8));
  EXPECT_STREQ(p, "abcdefg");
  before.ExpectMore(1, 4096);
  p = static_cast<char*>(erealloc2(p, 3, 3));
  EXPECT_EQ(std::string(p, 3), "abc");
  before.ExpectMore(1, 3);
  efree(p);
  before.ExpectMore(0, 0);
}

TEST_F(MockZendAllocTest, Erealloc2OfNullAllocates) {
  const size_t blocks = zend_mm_live_blocks();
  void* p = erealloc2(nullptr, 16, 0);
  EXPECT_EQ(zend_mm_live_blocks(), blocks + 1);
  efree(p);
}

TEST_F(MockZendAllocTest, Erealloc2BlockIsReportedAtItsNewSite) {
  testing::internal::CaptureStderr();
  void* p = emalloc(4);
  p = erealloc2(p, 40, 4);
  const int line = __LINE__ - 1;
  const zend_mm_leak_info leaks = zend_mm_check_leaks();
  const std::string report = testing::internal::GetCapturedStderr();
  EXPECT_EQ(leaks.leaked_blocks, 1u);
  EXPECT_EQ(leaks.leaked_bytes, 40u);
  EXPECT_NE(report.find("alloc_test.cc(" + std::to_string(line) + ")"),
            std::string::npos)
      << report;
}

// "xyz" in a block of 4 grown with perealloc2 to `size` (the copied
// prefix: the 4 bytes); the content must have come along.
char* GrownXyz(size_t size, bool persistent) {
  char* p = static_cast<char*>(pemalloc(4, persistent));
  memcpy(p, "xyz", 4);
  p = static_cast<char*>(perealloc2(p, size, 4, persistent));
  EXPECT_STREQ(p, "xyz");
  return p;
}

TEST_F(MockZendAllocTest, Perealloc2PersistentIsUntrackedAndKeepsContent) {
  const size_t blocks = zend_mm_live_blocks();
  char* p = GrownXyz(1024, true);
  EXPECT_EQ(zend_mm_live_blocks(), blocks);
  pefree(p, 1);
}

TEST_F(MockZendAllocTest, Perealloc2NonPersistentIsTheRequestAllocator) {
  const size_t bytes = zend_mm_live_bytes();
  char* p = GrownXyz(64, false);
  EXPECT_EQ(zend_mm_live_bytes(), bytes + 64);
  pefree(p, 0);
  EXPECT_EQ(zend_mm_live_bytes(), bytes);
}

TEST_F(MockZendAllocTest, EcallocZeroesAndEstrndupTerminates) {
  auto* zeroes = static_cast<unsigned char*>(ecalloc(4, 8));
  for (int i = 0; i < 32; i++) EXPECT_EQ(zeroes[i], 0) << i;
  char* copy = estrndup("abcdef", 3);
  EXPECT_STREQ(copy, "abc");
  efree(copy);
  efree(zeroes);
}

TEST_F(MockZendAllocTest, PersistentAllocationsAreNotTracked) {
  const size_t blocks = zend_mm_live_blocks();
  void* p = pemalloc(64, 1);
  EXPECT_EQ(zend_mm_live_blocks(), blocks);
  pefree(p, 1);
}

TEST_F(MockZendAllocTest, PersistentBlocksAreCountedUntilPefreeGivesThemBack) {
  const size_t before = zend_mock_persistent_blocks();
  void* made = pemalloc(8, 1);
  void* zeroed = pecalloc(2, 8, 1);
  void* grown = perealloc(nullptr, 8, 1);
  grown = perealloc(grown, 64, 1);  // the same block, moved
  char* copy = pestrdup("abc", 1);
  zend_string* text = zend_string_init("persistent", 10, 1);
  EXPECT_EQ(zend_mock_persistent_blocks(), before + 5);
  pefree(made, 1);
  pefree(zeroed, 1);
  pefree(grown, 1);
  pefree(copy, 1);
  pefree(nullptr, 1);  // nothing given back
  zend_string_release(text);
  EXPECT_EQ(zend_mock_persistent_blocks(), before);
}

TEST_F(MockZendAllocTest, LeakReportNamesTheAllocationSiteAndFreesTheBlock) {
  ASSERT_EQ(zend_mm_live_blocks(), 0u);
  testing::internal::CaptureStderr();
  void* leaked = emalloc(24);
  const int line = __LINE__ - 1;
  (void)leaked;
  const zend_mm_leak_info leaks = zend_mm_check_leaks();
  const std::string report = testing::internal::GetCapturedStderr();

  EXPECT_EQ(leaks.leaked_blocks, 1u);
  EXPECT_EQ(leaks.leaked_bytes, 24u);
  EXPECT_EQ(zend_mm_last_leaks().leaked_blocks, 1u);
  EXPECT_EQ(zend_mm_live_blocks(), 0u);
  EXPECT_NE(
      report.find("alloc_test.cc(" + std::to_string(line) + ") :  Freeing 0x"),
      std::string::npos)
      << report;
  EXPECT_NE(report.find("(24 bytes), script=-"), std::string::npos) << report;
  EXPECT_NE(report.find("=== Total 1 memory leaks detected ==="),
            std::string::npos)
      << report;
}

TEST_F(MockZendAllocTest, LeakReportNamesTheScriptWhenALocationIsSet) {
  ASSERT_EQ(zend_mm_live_blocks(), 0u);
  zend_mock_set_location("/srv/app.php", 7);
  testing::internal::CaptureStderr();
  (void)emalloc(8);
  zend_mm_check_leaks();
  const std::string report = testing::internal::GetCapturedStderr();
  zend_mock_set_location(nullptr, 0);
  EXPECT_NE(report.find("(8 bytes), script=/srv/app.php"), std::string::npos)
      << report;
}

TEST_F(MockZendAllocTest, RequestShutdownReportsAndFreesLeakedBlocks) {
  (void)emalloc(100);
  testing::internal::CaptureStderr();
  const php_mock_request_report report = ShutdownRequest();
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(report.leaked_blocks, 1u);
  EXPECT_EQ(report.leaked_bytes, 100u);
  EXPECT_EQ(zend_mm_live_blocks(), 0u);

  // A clean request afterwards, so that the fixture's check sees no leak.
  ASSERT_EQ(php_request_startup(), SUCCESS);
  php_request_shutdown(nullptr);
  EXPECT_EQ(php_mock_last_request_report().leaked_blocks, 0u);
}

TEST_F(MockZendAllocTest, SafeEmallocAbortsOnOverflow) {
  EXPECT_DEATH((void)safe_emalloc(SIZE_MAX / 2, 4, 0),
               "Possible integer overflow in memory allocation \\([0-9]+ \\* 4 "
               "\\+ 0\\)");
}

TEST_F(MockZendAllocTest, SafeEmallocAllocatesTheExactSize) {
  const size_t bytes = zend_mm_live_bytes();
  void* p = safe_emalloc(3, 8, 5);
  EXPECT_EQ(zend_mm_live_bytes(), bytes + 29);
  efree(p);
}

// ---- The heap (is_zend_mm()) and the system allocator ----

// The sanitizer builds always use the system allocator, so that
// AddressSanitizer sees every block.
#if defined(ZAR_SANITIZE) || defined(ZAR_TSAN)
constexpr bool kHeapByDefault = false;
#else
constexpr bool kHeapByDefault = true;
#endif

// Tests of what only the heap does skip under the system allocator.
#define SKIP_UNLESS_HEAP() \
  if (!is_zend_mm()) GTEST_SKIP() << "emalloc is the system allocator"

// PHP's size classes (Zend/zend_alloc_sizes.h, ZEND_MM_BINS_INFO). A heap
// element keeps a 16-byte header of the block's site and size, so a class of
// n bytes holds a block of n - 16: the classes of 8 and 16 bytes hold none.
constexpr size_t kPhpBins[] = {8,    16,   24,   32,   40,   48,  56,  64,
                               80,   96,   112,  128,  160,  192, 224, 256,
                               320,  384,  448,  512,  640,  768, 896, 1024,
                               1280, 1536, 1792, 2048, 2560, 3072};
constexpr size_t kElementHeader = 16;
constexpr size_t kLargestSmallBlock = 3072 - kElementHeader;

// The room of each size class that holds blocks, smallest first.
std::vector<size_t> ClassRooms() {
  std::vector<size_t> rooms;
  for (size_t bin : kPhpBins) {
    if (bin > kElementHeader) rooms.push_back(bin - kElementHeader);
  }
  return rooms;
}

TEST_F(MockZendAllocTest, TheHeapIsTheDefaultOutsideTheSanitizerBuilds) {
  if (getenv("USE_ZEND_ALLOC") != nullptr) GTEST_SKIP() << "USE_ZEND_ALLOC set";
  EXPECT_EQ(is_zend_mm(), kHeapByDefault);
}

TEST_F(MockZendAllocTest, EachBlockGetsTheSmallestSizeClassThatHoldsIt) {
  SKIP_UNLESS_HEAP();
  const LiveCounts before;
  EXPECT_EQ(ClassRooms().front(), 8u);
  EXPECT_EQ(ClassRooms().size(), 28u);
  // Every class at its smallest and largest block; 0 and 1 in the first.
  struct Case {
    size_t size;
    size_t room;
  };
  std::vector<Case> cases = {{0, 8}, {1, 8}};
  size_t previous = 0;
  for (size_t room : ClassRooms()) {
    cases.push_back({previous + 1, room});
    cases.push_back({room, room});
    previous = room;
  }
  std::vector<unsigned char*> blocks;
  size_t bytes = 0;
  for (size_t i = 0; i < cases.size(); i++) {
    auto* p = static_cast<unsigned char*>(emalloc(cases[i].size));
    EXPECT_EQ(zend_mem_block_size(p), cases[i].room) << cases[i].size;
    memset(p, static_cast<int>(i), cases[i].room);  // all of its room
    blocks.push_back(p);
    bytes += cases[i].size;
  }
  before.ExpectMore(cases.size(), bytes);
  for (size_t i = 0; i < cases.size(); i++) {
    for (size_t j = 0; j < cases[i].room; j++) {
      ASSERT_EQ(blocks[i][j], static_cast<unsigned char>(i))
          << "block of " << cases[i].size << " at " << j;
    }
    efree(blocks[i]);
  }
  before.ExpectMore(0, 0);
}

TEST_F(MockZendAllocTest, ABlockAboveTheLargestSizeClassIsMallocedOnItsOwn) {
  const LiveCounts before;
  // One more than the largest small block, a large one, a huge one (more
  // than a chunk).
  for (size_t size : {kLargestSmallBlock + 1, size_t{64 * 1024},
                      size_t{ZEND_MM_CHUNK_SIZE + 1}}) {
    auto* p = static_cast<char*>(emalloc(size));
    EXPECT_EQ(zend_mem_block_size(p), size);
    before.ExpectMore(1, size);
    memset(p, 'x', size);
    EXPECT_EQ(p[size - 1], 'x');
    efree(p);
    before.ExpectMore(0, 0);
  }
}

TEST_F(MockZendAllocTest, EveryBlockIsAlignedAsPhpAligns) {
  std::vector<void*> blocks;
  for (size_t size = 0; size <= 4200; size += 7) {
    blocks.push_back(emalloc(size));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(blocks.back()) % ZEND_MM_ALIGNMENT,
              0u)
        << size;
  }
  for (void* p : blocks) efree(p);
}

TEST_F(MockZendAllocTest, AFreedBlockIsHandedOutAgain) {
  SKIP_UNLESS_HEAP();
  void* first = emalloc(40);
  void* second = emalloc(40);
  efree(first);
  void* again = emalloc(33);  // the same size class
  EXPECT_EQ(again, first);
  efree(second);
  efree(again);
}

TEST_F(MockZendAllocTest, EreallocWithinItsSizeClassKeepsTheBlockInPlace) {
  SKIP_UNLESS_HEAP();
  const LiveCounts before;
  char* p = static_cast<char*>(emalloc(20));
  memcpy(p, "0123456789", 11);
  EXPECT_EQ(erealloc(p, 24), p);
  before.ExpectMore(1, 24);
  EXPECT_EQ(erealloc(p, 17), p);
  before.ExpectMore(1, 17);
  EXPECT_STREQ(p, "0123456789");
  efree(p);
  before.ExpectMore(0, 0);
}

TEST_F(MockZendAllocTest, EreallocAcrossSizeClassesKeepsTheContent) {
  const LiveCounts before;
  // Grown through every class, then a large and a huge block; shrunk back.
  std::vector<size_t> sizes = ClassRooms();
  sizes.push_back(kLargestSmallBlock + 1);
  sizes.push_back(ZEND_MM_CHUNK_SIZE + 1);
  auto* p = static_cast<unsigned char*>(emalloc(1));
  p[0] = 0;
  size_t filled = 1;
  for (size_t size : sizes) {
    p = static_cast<unsigned char*>(erealloc(p, size));
    before.ExpectMore(1, size);
    for (size_t i = 0; i < filled; i++) {
      ASSERT_EQ(p[i], static_cast<unsigned char>(i)) << size << " at " << i;
    }
    for (size_t i = filled; i < size; i++) p[i] = static_cast<unsigned char>(i);
    filled = size;
  }
  for (auto size = sizes.rbegin(); size != sizes.rend(); ++size) {
    p = static_cast<unsigned char*>(erealloc(p, *size / 2 + 1));
    before.ExpectMore(1, *size / 2 + 1);
    for (size_t i = 0; i <= *size / 2; i++) {
      ASSERT_EQ(p[i], static_cast<unsigned char>(i)) << *size << " at " << i;
    }
  }
  efree(p);
  before.ExpectMore(0, 0);
}

TEST_F(MockZendAllocTest, EcallocZeroesAReusedBlock) {
  auto* dirty = static_cast<unsigned char*>(emalloc(64));
  memset(dirty, 0xab, 64);
  efree(dirty);
  auto* zeroes = static_cast<unsigned char*>(ecalloc(8, 8));
  if (is_zend_mm()) {
    EXPECT_EQ(static_cast<void*>(zeroes), static_cast<void*>(dirty));
  }
  for (int i = 0; i < 64; i++) EXPECT_EQ(zeroes[i], 0) << i;
  efree(zeroes);
}

// The line of each "Freeing" entry of a leak report, in its order, and the
// size it names.
struct ReportedLeak {
  int line;
  size_t size;
  bool operator==(const ReportedLeak&) const = default;
};

void PrintTo(const ReportedLeak& leak, std::ostream* out) {
  *out << "line " << leak.line << ", " << leak.size << " bytes";
}

std::vector<ReportedLeak> ReportedLeaks(const std::string& report) {
  std::vector<ReportedLeak> leaks;
  const std::string site = "alloc_test.cc(";
  for (size_t at = report.find(site); at != std::string::npos;
       at = report.find(site, at + 1)) {
    const size_t freeing = report.find(") :  Freeing 0x", at);
    const size_t bytes = report.find(" (", freeing + 1);
    if (freeing == std::string::npos || bytes == std::string::npos) break;
    leaks.push_back({std::atoi(report.c_str() + at + site.size()),
                     std::strtoul(report.c_str() + bytes + 2, nullptr, 10)});
  }
  return leaks;
}

TEST_F(MockZendAllocTest, LeakReportNamesEachLeakedBlockOfEveryKind) {
  // No block alive: the check empties the heap, so the runs below are
  // carved in the order of this test's allocations.
  ASSERT_EQ(zend_mm_check_leaks().leaked_blocks, 0u);
  testing::internal::CaptureStderr();
  (void)emalloc(ZEND_MM_CHUNK_SIZE + 5);  // huge
  const int huge_line = __LINE__ - 1;
  (void)emalloc(5000);  // large
  const int large_line = __LINE__ - 1;
  std::vector<void*> freed;
  for (int i = 0; i < 300; i++) freed.push_back(emalloc(100));
  (void)emalloc(3);
  const int small_line = __LINE__ - 1;
  (void)emalloc(100);  // a class whose other blocks are freed
  const int medium_line = __LINE__ - 1;
  (void)emalloc(kLargestSmallBlock);
  const int largest_line = __LINE__ - 1;
  for (void* p : freed) efree(p);
  const zend_mm_leak_info leaks = zend_mm_check_leaks();
  const std::string report = testing::internal::GetCapturedStderr();

  EXPECT_EQ(leaks.leaked_blocks, 5u);
  EXPECT_EQ(leaks.leaked_bytes,
            ZEND_MM_CHUNK_SIZE + 5 + 5000 + 3 + 100 + kLargestSmallBlock);
  EXPECT_EQ(zend_mm_last_leaks().leaked_blocks, 5u);
  EXPECT_EQ(zend_mm_live_blocks(), 0u);
  EXPECT_EQ(zend_mm_live_bytes(), 0u);
  EXPECT_NE(report.find("=== Total 5 memory leaks detected ==="),
            std::string::npos)
      << report;
  const std::vector<ReportedLeak> heap_order = {
      {medium_line, 100},
      {small_line, 3},
      {largest_line, kLargestSmallBlock},
      {huge_line, ZEND_MM_CHUNK_SIZE + 5},
      {large_line, 5000}};
  const std::vector<ReportedLeak> oldest_first = {
      {huge_line, ZEND_MM_CHUNK_SIZE + 5},
      {large_line, 5000},
      {small_line, 3},
      {medium_line, 100},
      {largest_line, kLargestSmallBlock}};
  // The heap's blocks in address order (the 100-byte class's runs were
  // carved first; the leaked one is in the last), then the malloc'd ones
  // oldest first; the system allocator's, oldest first.
  EXPECT_EQ(ReportedLeaks(report), is_zend_mm() ? heap_order : oldest_first)
      << report;
}

TEST_F(MockZendAllocTest, ARequestThatFreesEverythingReportsNothing) {
  ASSERT_EQ(zend_mm_live_blocks(), 0u);
  std::vector<void*> blocks;
  // More than a chunk of every size class, and some large blocks.
  for (size_t room : ClassRooms()) {
    for (size_t bytes = 0; bytes < ZEND_MM_CHUNK_SIZE / 8; bytes += room) {
      blocks.push_back(emalloc(room));
    }
  }
  for (int i = 0; i < 10; i++) blocks.push_back(emalloc(10000));
  for (void* p : blocks) efree(p);
  testing::internal::CaptureStderr();
  const zend_mm_leak_info leaks = zend_mm_check_leaks();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(leaks.leaked_blocks, 0u);
  EXPECT_EQ(leaks.leaked_bytes, 0u);
  // The next blocks come from the emptied heap.
  void* p = emalloc(100);
  EXPECT_EQ(zend_mm_live_blocks(), 1u);
  efree(p);
}

TEST_F(MockZendAllocTest, EfreeOfAFreedBlockReportsAHeapCorruption) {
  SKIP_UNLESS_HEAP();
  EXPECT_DEATH(
      {
        void* p = emalloc(16);
        efree(p);
        efree(p);
      },
      "zend_mm_heap corrupted");
}

// Sets USE_ZEND_ALLOC for its lifetime, then restores it.
class ScopedUseZendAlloc {
 public:
  explicit ScopedUseZendAlloc(const char* value) {
    if (const char* old = getenv("USE_ZEND_ALLOC")) saved_ = old;
    setenv("USE_ZEND_ALLOC", value, 1);
  }
  ~ScopedUseZendAlloc() {
    if (saved_) {
      setenv("USE_ZEND_ALLOC", saved_->c_str(), 1);
    } else {
      unsetenv("USE_ZEND_ALLOC");
    }
  }

 private:
  std::optional<std::string> saved_;
};

// Stops this test's engine (its request ended) and starts one with
// USE_ZEND_ALLOC=`value` and a request; `check` runs in that request, which
// must end without a leak. Then an engine as the fixture's (no request),
// with the environment as it was.
void InEngineWithUseZendAlloc(const char* value,
                              const std::function<void()>& check) {
  zar::testing::StopEngine();
  {
    ScopedUseZendAlloc env(value);
    ASSERT_EQ(zar::testing::StartEngine({}), SUCCESS);
    ASSERT_EQ(zar::testing::StartRequest(), SUCCESS);
    check();
    EXPECT_EQ(zar::testing::EndRequest().leaked_blocks, 0u);
    zar::testing::StopEngine();
  }
  ASSERT_EQ(zar::testing::StartEngine({}), SUCCESS);
}

TEST_F(MockZendAllocTest, UseZendAllocZeroSelectsTheSystemAllocator) {
  ShutdownRequest();
  InEngineWithUseZendAlloc("0", [] {
    EXPECT_FALSE(is_zend_mm());
    // A block malloc'd on its own holds what was asked.
    const LiveCounts before;
    void* p = emalloc(10);
    EXPECT_EQ(zend_mem_block_size(p), 10u);
    before.ExpectMore(1, 10);
    efree(p);
  });
  InEngineWithUseZendAlloc("1",
                           [] { EXPECT_EQ(is_zend_mm(), kHeapByDefault); });
}

TEST_F(MockZendAllocTest, TheSystemAllocatorReportsLeaksOldestFirst) {
  ShutdownRequest();
  InEngineWithUseZendAlloc("0", [] {
    testing::internal::CaptureStderr();
    (void)emalloc(30);
    const int first_line = __LINE__ - 1;
    (void)emalloc(7);
    const int second_line = __LINE__ - 1;
    const zend_mm_leak_info leaks = zend_mm_check_leaks();
    const std::string report = testing::internal::GetCapturedStderr();
    EXPECT_EQ(leaks.leaked_blocks, 2u);
    EXPECT_EQ(leaks.leaked_bytes, 37u);
    const std::vector<ReportedLeak> expected = {{first_line, 30},
                                                {second_line, 7}};
    EXPECT_EQ(ReportedLeaks(report), expected) << report;
  });
}

}  // namespace
