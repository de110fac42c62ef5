// Tests of smart_str (zend_smart_str.h): appending, growth, extraction and
// which allocator the string lives on.

#include <gtest/gtest.h>

#include <string>

#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "zend_smart_str.h"
}

namespace {

class MockZendSmartStrTest : public zar::testing::RequestFixture {};

std::string Content(const smart_str& str) {
  return str.s == nullptr ? std::string()
                          : std::string(ZSTR_VAL(str.s), ZSTR_LEN(str.s));
}

TEST_F(MockZendSmartStrTest, AppendsBuildTheStringInOrder) {
  smart_str str = {};
  smart_str_appends(&str, "GET ");
  smart_str_appendl(&str, "/index.html?x", 11);
  smart_str_appendc(&str, ' ');
  zend_string* proto = zend_string_init(ZEND_STRL("HTTP/1.1"), false);
  smart_str_append(&str, proto);
  zend_string_release(proto);
  smart_str_appendc(&str, ' ');
  smart_str_append_long(&str, -42);
  smart_str_appendc(&str, ' ');
  smart_str_append_unsigned(&str, 18446744073709551615ULL);
  EXPECT_EQ(Content(str), "GET /index.html HTTP/1.1 -42 18446744073709551615");
  EXPECT_EQ(smart_str_get_len(&str), 49u);
  smart_str_free(&str);
  EXPECT_EQ(str.s, nullptr);
  EXPECT_EQ(str.a, 0u);
}

TEST_F(MockZendSmartStrTest, AppendLongPrintsTheExtremes) {
  smart_str str = {};
  smart_str_append_long(&str, ZEND_LONG_MIN);
  smart_str_appendc(&str, '|');
  smart_str_append_long(&str, 0);
  smart_str_appendc(&str, '|');
  smart_str_append_long(&str, ZEND_LONG_MAX);
  EXPECT_EQ(Content(str), "-9223372036854775808|0|9223372036854775807");
  smart_str_free(&str);
}

TEST_F(MockZendSmartStrTest, ZeroTerminatesWithoutChangingTheLength) {
  smart_str str = {};
  smart_str_0(&str);  // empty: nothing to terminate
  EXPECT_EQ(str.s, nullptr);
  smart_str_appends(&str, "abc");
  smart_str_0(&str);
  EXPECT_STREQ(ZSTR_VAL(str.s), "abc");
  EXPECT_EQ(ZSTR_LEN(str.s), 3u);
  smart_str_free(&str);
}

TEST_F(MockZendSmartStrTest, GrowsByPagesAndKeepsTheContent) {
  smart_str str = {};
  smart_str_appendc(&str, 'x');
  const size_t first_capacity = str.a;
  EXPECT_EQ(first_capacity, 256 - _ZSTR_HEADER_SIZE - 1);
  std::string expected = "x";
  for (int i = 0; i < 10000; i++) {
    const char c = static_cast<char>('a' + i % 26);
    smart_str_appendc(&str, c);
    expected += c;
  }
  EXPECT_EQ(Content(str), expected);
  EXPECT_GE(str.a, expected.size());
  EXPECT_EQ((str.a + _ZSTR_HEADER_SIZE + 1) % 4096, 0u);
  smart_str_free(&str);
}

TEST_F(MockZendSmartStrTest, RequestBuilderIsLeakTrackedUntilFreed) {
  const size_t blocks = zend_mm_live_blocks();
  smart_str str = {};
  smart_str_appends(&str, "tracked");
  EXPECT_EQ(zend_mm_live_blocks(), blocks + 1);
  smart_str_free(&str);
  EXPECT_EQ(zend_mm_live_blocks(), blocks);
}

TEST_F(MockZendSmartStrTest, PersistentBuilderIsNotOnTheRequestAllocator) {
  const size_t blocks = zend_mm_live_blocks();
  smart_str str = {};
  smart_str_appendl_ex(&str, ZEND_STRL("persistent"), true);
  smart_str_appendc_ex(&str, '!', true);
  EXPECT_EQ(zend_mm_live_blocks(), blocks);
  EXPECT_TRUE(GC_FLAGS(str.s) & IS_STR_PERSISTENT);
  EXPECT_EQ(Content(str), "persistent!");
  smart_str_free_ex(&str, true);
  EXPECT_EQ(str.s, nullptr);
}

TEST_F(MockZendSmartStrTest, ExtractHandsOverATerminatedStringOfExactSize) {
  smart_str str = {};
  smart_str_appends(&str, "body");
  zend_string* out = smart_str_extract(&str);
  EXPECT_EQ(str.s, nullptr);
  EXPECT_EQ(str.a, 0u);
  EXPECT_STREQ(ZSTR_VAL(out), "body");
  EXPECT_EQ(ZSTR_LEN(out), 4u);
  EXPECT_EQ(GC_REFCOUNT(out), 1u);
  zend_string_release(out);
}

TEST_F(MockZendSmartStrTest, ExtractOfAnEmptyBuilderIsTheEmptyString) {
  smart_str str = {};
  zend_string* out = smart_str_extract(&str);
  EXPECT_EQ(out, ZSTR_EMPTY_ALLOC());
  EXPECT_EQ(ZSTR_LEN(out), 0u);
  zend_string_release(out);  // interned: a no-op
}

TEST_F(MockZendSmartStrTest, ExtendReturnsRoomForTheCallerToFill) {
  smart_str str = {};
  smart_str_appends(&str, "ab");
  char* room = smart_str_extend(&str, 3);
  memcpy(room, "cde", 3);
  EXPECT_EQ(Content(str), "abcde");
  smart_str_free(&str);
}

TEST_F(MockZendSmartStrTest, AllocReservesWithoutChangingTheLength) {
  smart_str str = {};
  smart_str_appends(&str, "ab");
  const size_t new_len = smart_str_alloc(&str, 5000, false);
  EXPECT_EQ(new_len, 5002u);
  EXPECT_GE(str.a, 5002u);
  EXPECT_EQ(Content(str), "ab");
  smart_str_free(&str);
}

TEST_F(MockZendSmartStrTest, AppendSmartStrAndSetlReplace) {
  smart_str a = {};
  smart_str b = {};
  smart_str_appends(&a, "left-");
  smart_str_appends(&b, "right");
  smart_str_append_smart_str(&a, &b);
  EXPECT_EQ(Content(a), "left-right");
  smart_str_setl(&b, "new", 3);
  EXPECT_EQ(Content(b), "new");
  smart_str_sets(&b, "newer");
  EXPECT_EQ(Content(b), "newer");
  smart_str empty = {};
  smart_str_append_smart_str(&a, &empty);
  EXPECT_EQ(Content(a), "left-right");
  smart_str_free(&a);
  smart_str_free(&b);
}

TEST_F(MockZendSmartStrTest, AppendEscapedEscapesAsPhpDoes) {
  smart_str str = {};
  const char raw[] = "a\\b\n\r\t\f\v\x1b\x01\x7f\xff z";
  smart_str_append_escaped(&str, raw, sizeof(raw) - 1);
  EXPECT_EQ(Content(str), "a\\\\b\\n\\r\\t\\f\\v\\e\\x01\\x7f\\xff z");
  smart_str_free(&str);
}

TEST_F(MockZendSmartStrTest, AppendPrintfFormats) {
  smart_str str = {};
  smart_str_appends(&str, "n=");
  smart_str_append_printf(&str, "%d/%s/%.2f", 7, "x", 1.5);
  EXPECT_EQ(Content(str), "n=7/x/1.50");
  smart_str_free(&str);
}

}  // namespace
