// Tests of the mock engine's request allocator: accounting, leak reports,
// overflow checks.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

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

}  // namespace
