// Tests of the mock engine's strings: interning, known strings, hashing,
// formatting and case conversion.

#include <gtest/gtest.h>

#include <string>

#include "zend_async_ref/testing/request_fixture.h"

namespace {

class MockZendStringTest : public zar::testing::RequestFixture {};

std::string Str(const zend_string* s) {
  return std::string(ZSTR_VAL(s), ZSTR_LEN(s));
}

TEST_F(MockZendStringTest, InterningTheSameBytesReturnsTheSamePointer) {
  char buffer[] = "Async\\Pool";
  zend_string* a = zend_string_init_interned(buffer, 10, true);
  buffer[0] = 'X';  // the interned copy does not alias the input
  zend_string* b = zend_string_init_interned("Async\\Pool", 10, false);
  EXPECT_EQ(a, b);
  EXPECT_EQ(Str(a), "Async\\Pool");
  EXPECT_NE(zend_string_init_interned("Async\\Poo", 9, true), a);
}

TEST_F(MockZendStringTest, InternedStringsAreImmutableAndNeverRefcounted) {
  zend_string* s = zend_string_init_interned(ZEND_STRL("immutable"), true);
  EXPECT_TRUE(ZSTR_IS_INTERNED(s));
  EXPECT_TRUE(GC_FLAGS(s) & GC_IMMUTABLE);
  EXPECT_TRUE(GC_FLAGS(s) & IS_STR_PERSISTENT);
  EXPECT_EQ(GC_REFCOUNT(s), 1u);
  EXPECT_NE(ZSTR_H(s), 0u);
  zend_string* copy = zend_string_copy(s);
  zend_string_release(copy);
  zend_string_release(s);
  // Released twice, still alive and unchanged: the table hands out the same
  // string. (Read through the table's pointer: GCC cannot tell that the
  // releases above never free, and warns about a use of `s` after free.)
  zend_string* again = zend_string_init_interned(ZEND_STRL("immutable"), true);
  EXPECT_EQ(again, s);
  EXPECT_EQ(GC_REFCOUNT(again), 1u);
  zval z;
  ZVAL_STR(&z, again);
  EXPECT_FALSE(Z_REFCOUNTED(z));
}

TEST_F(MockZendStringTest, KnownStringsHaveTheirPhpText) {
  EXPECT_EQ(Str(ZSTR_KNOWN(ZEND_STR_MESSAGE)), "message");
  EXPECT_EQ(Str(ZSTR_KNOWN(ZEND_STR_PREVIOUS)), "previous");
  EXPECT_EQ(Str(ZSTR_KNOWN(ZEND_STR_CLOSURE)), "{closure}");
  EXPECT_EQ(Str(ZSTR_KNOWN(ZEND_STR_MAIN)), "main");
  EXPECT_EQ(ZSTR_KNOWN(ZEND_STR_EMPTY), zend_empty_string);
  EXPECT_EQ(ZSTR_LEN(zend_empty_string), 0u);
  EXPECT_EQ(zend_string_init_interned(ZEND_STRL("trace"), true),
            ZSTR_KNOWN(ZEND_STR_TRACE));
}

TEST_F(MockZendStringTest, HashFuncIsDjbx33aWithTheTopBitSet) {
  const zend_ulong top = UINT64_C(1) << 63;
  EXPECT_EQ(zend_hash_func("", 0), UINT64_C(5381) | top);
  EXPECT_EQ(zend_hash_func("a", 1), (UINT64_C(5381) * 33 + 'a') | top);
  EXPECT_EQ(zend_hash_func("ab", 2),
            ((UINT64_C(5381) * 33 + 'a') * 33 + 'b') | top);
}

TEST_F(MockZendStringTest, HashValIsComputedOnceAndCached) {
  zend_string* s = zend_string_init(ZEND_STRL("key"), false);
  EXPECT_EQ(ZSTR_H(s), 0u);
  const zend_ulong h = zend_string_hash_val(s);
  EXPECT_EQ(h, zend_hash_func("key", 3));
  EXPECT_EQ(ZSTR_H(s), h);
  zend_string_release(s);
}

TEST_F(MockZendStringTest, StrpprintfFormatsIntoARequestString) {
  const size_t blocks = zend_mm_live_blocks();
  zend_string* s = zend_strpprintf(0, "%s #%d", "worker", 42);
  EXPECT_EQ(Str(s), "worker #42");
  EXPECT_FALSE(ZSTR_IS_INTERNED(s));
  EXPECT_EQ(zend_mm_live_blocks(), blocks + 1);
  zend_string_release(s);
  EXPECT_EQ(zend_mm_live_blocks(), blocks);
}

TEST_F(MockZendStringTest, StrpprintfTruncatesToMaxLen) {
  zend_string* s = zend_strpprintf(4, "%s", "truncated");
  EXPECT_EQ(Str(s), "trun");
  zend_string_release(s);
}

TEST_F(MockZendStringTest, SpprintfReturnsAnEmallocBufferAndItsLength) {
  char* buffer = nullptr;
  const size_t len = zend_spprintf(&buffer, 0, "%d-%d", 1, 22);
  EXPECT_EQ(len, 4u);
  EXPECT_STREQ(buffer, "1-22");
  efree(buffer);
}

TEST_F(MockZendStringTest, TolowerReturnsTheSameStringWhenAlreadyLowercase) {
  zend_string* lower = zend_string_init(ZEND_STRL("already"), false);
  zend_string* result = zend_string_tolower(lower);
  EXPECT_EQ(result, lower);
  EXPECT_EQ(GC_REFCOUNT(lower), 2u);
  zend_string_release(result);
  zend_string_release(lower);
}

TEST_F(MockZendStringTest, TolowerMakesANewStringWhenItMustChange) {
  zend_string* mixed = zend_string_init(ZEND_STRL("Async\\Pool"), false);
  zend_string* result = zend_string_tolower(mixed);
  EXPECT_NE(result, mixed);
  EXPECT_EQ(Str(result), "async\\pool");
  EXPECT_EQ(Str(mixed), "Async\\Pool");
  zend_string_release(result);
  zend_string_release(mixed);
}

TEST_F(MockZendStringTest, Concat2JoinsBothParts) {
  zend_string* s = zend_string_concat2(ZEND_STRL("foo"), ZEND_STRL("bar"));
  EXPECT_EQ(Str(s), "foobar");
  zend_string_release(s);
}

TEST_F(MockZendStringTest, AddrefAndDelrefCountButSkipInterned) {
  zend_string* s = zend_string_init(ZEND_STRL("counted"), false);
  EXPECT_EQ(zend_string_addref(s), 2u);
  EXPECT_EQ(zend_string_delref(s), 1u);
  zend_string_release(s);
  zend_string* interned = zend_string_init_interned(ZEND_STRL("shared"), true);
  EXPECT_EQ(zend_string_addref(interned), 1u);
}

TEST_F(MockZendStringTest, ReallocKeepsThePrefixAndDetachesShared) {
  zend_string* s = zend_string_init(ZEND_STRL("abcdef"), false);
  s = zend_string_extend(s, 10, false);
  EXPECT_EQ(ZSTR_LEN(s), 10u);
  EXPECT_EQ(std::string(ZSTR_VAL(s), 6), "abcdef");
  s = zend_string_truncate(s, 3, false);
  ZSTR_VAL(s)[3] = '\0';
  EXPECT_STREQ(ZSTR_VAL(s), "abc");
  zend_string* shared = zend_string_copy(s);  // refcount 2
  zend_string* grown = zend_string_realloc(s, 5, false);
  EXPECT_NE(grown, shared);
  EXPECT_EQ(GC_REFCOUNT(shared), 1u);
  EXPECT_EQ(std::string(ZSTR_VAL(grown), 3), "abc");
  zend_string_release(shared);
  zend_string_release(grown);
}

TEST_F(MockZendStringTest, SafeAllocSizesNTimesMPlusL) {
  zend_string* s = zend_string_safe_alloc(3, 4, 2, false);
  EXPECT_EQ(ZSTR_LEN(s), 14u);
  EXPECT_EQ(GC_REFCOUNT(s), 1u);
  zend_string_efree(s);
}

TEST_F(MockZendStringTest, BinaryStrcasecmpOrdersIgnoringAsciiCase) {
  EXPECT_EQ(zend_binary_strcasecmp("Content-Type", 12, "content-type", 12), 0);
  EXPECT_LT(zend_binary_strcasecmp("abc", 3, "ABD", 3), 0);
  EXPECT_GT(zend_binary_strcasecmp("b", 1, "A", 1), 0);
  EXPECT_LT(zend_binary_strcasecmp("ab", 2, "ABC", 3), 0);
  EXPECT_GT(zend_binary_strcasecmp("abc", 3, "AB", 2), 0);
}

TEST_F(MockZendStringTest, PrintLongToBufWritesBackwards) {
  char buf[32];
  char* end = buf + sizeof(buf) - 1;
  EXPECT_STREQ(zend_print_long_to_buf(end, -1234), "-1234");
  EXPECT_STREQ(zend_print_ulong_to_buf(end, 0), "0");
  EXPECT_STREQ(zend_print_long_to_buf(end, ZEND_LONG_MIN),
               "-9223372036854775808");
}

}  // namespace
