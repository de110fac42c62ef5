// Tests of the mock engine's truthiness, identity and conversions.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

#include "zend_async_ref/testing/request_fixture.h"

namespace {

class MockZendOperatorsTest : public zar::testing::RequestFixture {
 protected:
  std::string StringOf(zval* value) {
    zend_string* s = zval_get_string(value);
    std::string result(ZSTR_VAL(s), ZSTR_LEN(s));
    zend_string_release(s);
    return result;
  }
  std::string StringOfDouble(double d) {
    zval z;
    ZVAL_DOUBLE(&z, d);
    return StringOf(&z);
  }
};

TEST_F(MockZendOperatorsTest, IsTrueFollowsPhpTruthiness) {
  zval z;
  ZVAL_NULL(&z);
  EXPECT_FALSE(zend_is_true(&z));
  ZVAL_FALSE(&z);
  EXPECT_FALSE(zend_is_true(&z));
  ZVAL_LONG(&z, 0);
  EXPECT_FALSE(zend_is_true(&z));
  ZVAL_LONG(&z, -1);
  EXPECT_TRUE(zend_is_true(&z));
  ZVAL_DOUBLE(&z, 0.0);
  EXPECT_FALSE(zend_is_true(&z));
  ZVAL_DOUBLE(&z, 0.5);
  EXPECT_TRUE(zend_is_true(&z));
  ZVAL_STR(&z, zend_empty_string);
  EXPECT_FALSE(zend_is_true(&z));
  ZVAL_STRING(&z, "0");
  EXPECT_FALSE(zend_is_true(&z));
  zval_ptr_dtor(&z);
  ZVAL_STRING(&z, "0.0");
  EXPECT_TRUE(zend_is_true(&z));
  zval_ptr_dtor(&z);
  array_init(&z);
  EXPECT_FALSE(zend_is_true(&z));
  add_next_index_null(&z);
  EXPECT_TRUE(zend_is_true(&z));
  zval_ptr_dtor(&z);
  object_init(&z);
  EXPECT_TRUE(zend_is_true(&z));
  zval_ptr_dtor(&z);
}

TEST_F(MockZendOperatorsTest, IsIdenticalComparesTypeAndValue) {
  zval a;
  zval b;
  ZVAL_LONG(&a, 1);
  ZVAL_DOUBLE(&b, 1.0);
  EXPECT_FALSE(zend_is_identical(&a, &b));
  ZVAL_LONG(&b, 1);
  EXPECT_TRUE(zend_is_identical(&a, &b));
  ZVAL_TRUE(&a);
  ZVAL_FALSE(&b);
  EXPECT_FALSE(zend_is_identical(&a, &b));
  ZVAL_STRING(&a, "same");
  ZVAL_STRING(&b, "same");
  EXPECT_TRUE(zend_is_identical(&a, &b));
  zval_ptr_dtor(&a);
  zval_ptr_dtor(&b);
  object_init(&a);
  object_init(&b);
  EXPECT_FALSE(zend_is_identical(&a, &b));
  EXPECT_TRUE(zend_is_identical(&a, &a));
  zval_ptr_dtor(&a);
  zval_ptr_dtor(&b);
}

TEST_F(MockZendOperatorsTest, ArraysAreIdenticalOnlyWithTheSameOrder) {
  zval a;
  zval b;
  array_init(&a);
  array_init(&b);
  add_assoc_long(&a, "x", 1);
  add_assoc_long(&a, "y", 2);
  add_assoc_long(&b, "y", 2);
  add_assoc_long(&b, "x", 1);
  EXPECT_FALSE(zend_is_identical(&a, &b));
  zend_hash_str_del(Z_ARRVAL(b), ZEND_STRL("y"));
  add_assoc_long(&b, "y", 2);  // now x, y after a hole
  EXPECT_TRUE(zend_is_identical(&a, &b));
  add_assoc_string(&b, "z", "extra");
  EXPECT_FALSE(zend_is_identical(&a, &b));
  zval_ptr_dtor(&a);
  zval_ptr_dtor(&b);
}

TEST_F(MockZendOperatorsTest, ZvalGetLongConvertsLikeAnIntCast) {
  zval z;
  ZVAL_DOUBLE(&z, -3.9);
  EXPECT_EQ(zval_get_long(&z), -3);
  ZVAL_DOUBLE(&z, NAN);
  EXPECT_EQ(zval_get_long(&z), 0);
  ZVAL_TRUE(&z);
  EXPECT_EQ(zval_get_long(&z), 1);
  ZVAL_NULL(&z);
  EXPECT_EQ(zval_get_long(&z), 0);
  ZVAL_STRING(&z, "12abc");
  EXPECT_EQ(zval_get_long(&z), 12);
  zval_ptr_dtor(&z);
  ZVAL_STRING(&z, "1e3");
  EXPECT_EQ(zval_get_long(&z), 1000);
  zval_ptr_dtor(&z);
  ZVAL_STRING(&z, "abc");
  EXPECT_EQ(zval_get_long(&z), 0);
  zval_ptr_dtor(&z);
}

TEST_F(MockZendOperatorsTest, ZvalGetStringConvertsLikeAStringCast) {
  zval z;
  ZVAL_LONG(&z, -42);
  EXPECT_EQ(StringOf(&z), "-42");
  ZVAL_TRUE(&z);
  EXPECT_EQ(StringOf(&z), "1");
  ZVAL_FALSE(&z);
  EXPECT_EQ(StringOf(&z), "");
  ZVAL_NULL(&z);
  EXPECT_EQ(StringOf(&z), "");
  EXPECT_EQ(StringOfDouble(1.5), "1.5");
  EXPECT_EQ(StringOfDouble(0.1), "0.1");
  EXPECT_EQ(StringOfDouble(2.0), "2");
  EXPECT_EQ(StringOfDouble(-0.25), "-0.25");
  EXPECT_EQ(StringOfDouble(1e25), "1.0E+25");
  EXPECT_EQ(StringOfDouble(1.5e-7), "1.5E-7");
  EXPECT_EQ(StringOfDouble(0.0001), "0.0001");
  EXPECT_EQ(StringOfDouble(INFINITY), "INF");
  EXPECT_EQ(StringOfDouble(-INFINITY), "-INF");
}

// (string)$int in PHP: the decimal digits, a '-' before a negative one,
// PHP_INT_MIN included; zend_long_to_str gives the same text.
TEST_F(MockZendOperatorsTest, IntsConvertToTheirDecimalText) {
  zval z;
  const std::pair<zend_long, const char*> cases[] = {
      {0, "0"},
      {7, "7"},
      {10, "10"},
      {-1, "-1"},
      {1234567890, "1234567890"},
      {ZEND_LONG_MAX, "9223372036854775807"},
      {ZEND_LONG_MIN, "-9223372036854775808"}};
  for (const auto& [value, text] : cases) {
    ZVAL_LONG(&z, value);
    EXPECT_EQ(StringOf(&z), text);
    zend_string* direct = zend_long_to_str(value);
    EXPECT_EQ(std::string(ZSTR_VAL(direct), ZSTR_LEN(direct)), text);
    zend_string_release(direct);
  }
}

TEST_F(MockZendOperatorsTest, ArrayToStringWarns) {
  zval z;
  array_init(&z);
  EXPECT_EQ(StringOf(&z), "Array");
  ASSERT_EQ(zend_mock_error_count(), 1u);
  EXPECT_STREQ(zend_mock_error_message(0), "Array to string conversion");
  zval_ptr_dtor(&z);
}

TEST_F(MockZendOperatorsTest, ObjectWithoutToStringCannotBeConverted) {
  zval z;
  object_init(&z);
  EXPECT_EQ(StringOf(&z), "");
  ASSERT_NE(EG(exception), nullptr);
  EXPECT_STREQ(zend_mock_exception_message(EG(exception)),
               "Object of class stdClass could not be converted to string");
  zend_clear_exception();
  zval_ptr_dtor(&z);
}

TEST_F(MockZendOperatorsTest, StrTolowerIsAsciiOnly) {
  char text[] = "MiXeD \xC3\x89T\xC3\x89";
  zend_str_tolower(text, sizeof(text) - 1);
  EXPECT_STREQ(text, "mixed \xC3\x89t\xC3\x89");
}

TEST_F(MockZendOperatorsTest, BinaryStrncasecmpComparesAtMostLengthBytes) {
  EXPECT_EQ(zend_binary_strncasecmp("SeT x", 5, "set", 3, 3), 0);
  EXPECT_EQ(zend_binary_strncasecmp("SETTINGS", 8, "set", 3, 3), 0);
  EXPECT_EQ(zend_binary_strncasecmp("SETTINGS", 8, "set", 3, 8), 1);
  EXPECT_EQ(zend_binary_strncasecmp("se", 2, "SET", 3, 3), -1);
  EXPECT_EQ(zend_binary_strncasecmp("b", 1, "A", 1, 1), 'b' - 'a');
  EXPECT_EQ(zend_binary_strncasecmp("A", 1, "c", 1, 1), 'a' - 'c');
  EXPECT_EQ(zend_binary_strncasecmp("abc", 3, "xyz", 3, 0), 0);
  // ASCII only: bytes above 0x7F are compared as they are.
  EXPECT_EQ(zend_binary_strncasecmp("\xC3\x89", 2, "\xC3\xA9", 2, 2),
            0x89 - 0xA9);
}

TEST_F(MockZendOperatorsTest, MemnistrFindsTheFirstCaseInsensitiveMatch) {
  const char text[] = "select get_lock('a'), GET_LOCK('b')";
  const char* end = text + sizeof(text) - 1;
  EXPECT_EQ(zend_memnistr(text, "GET_LOCK", 8, end), text + 7);
  EXPECT_EQ(zend_memnistr(text, "release_lock", 12, end), nullptr);
  EXPECT_EQ(zend_memnistr(text, "", 0, end), text);
  // The needle must end inside [haystack, end).
  EXPECT_EQ(zend_memnistr(text, "('B')", 5, end - 1), nullptr);
  EXPECT_EQ(zend_memnistr(text, "('B')", 5, end), end - 5);
  EXPECT_EQ(zend_memnistr(text, "select", 6, text + 3), nullptr);
}

TEST_F(MockZendOperatorsTest, TypeAndValueNames) {
  zval z;
  ZVAL_TRUE(&z);
  EXPECT_STREQ(zend_zval_type_name(&z), "bool");
  EXPECT_STREQ(zend_zval_value_name(&z), "true");
  ZVAL_DOUBLE(&z, 1);
  EXPECT_STREQ(zend_zval_value_name(&z), "float");
  ZVAL_NULL(&z);
  EXPECT_STREQ(zend_zval_value_name(&z), "null");
  object_init(&z);
  EXPECT_STREQ(zend_zval_type_name(&z), "object");
  EXPECT_STREQ(zend_zval_value_name(&z), "stdClass");
  zval_ptr_dtor(&z);
}

}  // namespace
