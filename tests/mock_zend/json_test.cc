// Tests of JSON encoding (ext/json/php_json.h).

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "ext/json/php_json.h"
#include "zend_smart_str.h"
}

namespace {

class MockZendJsonTest : public zar::testing::RequestFixture {};

// The encoding of `value`, or "<failure>".
std::string Encode(zval* value, int options = 0,
                   zend_long depth = PHP_JSON_PARSER_DEFAULT_DEPTH) {
  smart_str buf = {};
  const zend_result rc = php_json_encode_ex(&buf, value, options, depth);
  std::string out =
      buf.s == nullptr ? "" : std::string(ZSTR_VAL(buf.s), ZSTR_LEN(buf.s));
  smart_str_free(&buf);
  return rc == SUCCESS ? out : "<failure>";
}

std::string EncodeString(const std::string& s, int options = 0) {
  zval z;
  ZVAL_STRINGL(&z, s.data(), s.size());
  std::string out = Encode(&z, options);
  zval_ptr_dtor(&z);
  return out;
}

TEST_F(MockZendJsonTest, ScalarsEncodeAsJsonEncodeDoes) {
  zval z;
  ZVAL_NULL(&z);
  EXPECT_EQ(Encode(&z), "null");
  ZVAL_TRUE(&z);
  EXPECT_EQ(Encode(&z), "true");
  ZVAL_FALSE(&z);
  EXPECT_EQ(Encode(&z), "false");
  ZVAL_LONG(&z, -42);
  EXPECT_EQ(Encode(&z), "-42");
  ZVAL_DOUBLE(&z, 0.1);
  EXPECT_EQ(Encode(&z), "0.1");
  ZVAL_DOUBLE(&z, 1.5e300);
  EXPECT_EQ(Encode(&z), "1.5e+300");
  ZVAL_DOUBLE(&z, 10.0);
  EXPECT_EQ(Encode(&z), "10");
  EXPECT_EQ(Encode(&z, PHP_JSON_PRESERVE_ZERO_FRACTION), "10.0");
  EXPECT_EQ(php_json_last_error_code(), PHP_JSON_ERROR_NONE);
}

TEST_F(MockZendJsonTest, FloatsUseTheShortestFormInPhpsLayout) {
  const std::pair<double, const char*> cases[] = {
      {123.5, "123.5"},     {0.0001, "0.0001"},
      {1e-5, "1.0e-5"},     {1e25, "1.0e+25"},
      {-2.5e-7, "-2.5e-7"}, {1e16, "10000000000000000"},
      {1e17, "1.0e+17"},    {0.30000000000000004, "0.30000000000000004"},
      {-0.5, "-0.5"},
  };
  for (const auto& [value, expected] : cases) {
    zval z;
    ZVAL_DOUBLE(&z, value);
    EXPECT_EQ(Encode(&z), expected) << value;
  }
}

TEST_F(MockZendJsonTest, StringsAreEscaped) {
  EXPECT_EQ(EncodeString("a\"b\\c/d\n\t\x01"),
            "\"a\\\"b\\\\c\\/d\\n\\t\\u0001\"");
  EXPECT_EQ(EncodeString("a/b", PHP_JSON_UNESCAPED_SLASHES), "\"a/b\"");
  EXPECT_EQ(EncodeString("<&'\">", PHP_JSON_HEX_TAG | PHP_JSON_HEX_AMP |
                                       PHP_JSON_HEX_APOS | PHP_JSON_HEX_QUOT),
            "\"\\u003C\\u0026\\u0027\\u0022\\u003E\"");
}

TEST_F(MockZendJsonTest, UnicodeIsEscapedUnlessAskedNotTo) {
  EXPECT_EQ(EncodeString("\xc3\xa9"), "\"\\u00e9\"");
  EXPECT_EQ(EncodeString("\xf0\x9f\x98\x80"), "\"\\ud83d\\ude00\"");
  EXPECT_EQ(EncodeString("\xc3\xa9", PHP_JSON_UNESCAPED_UNICODE),
            "\"\xc3\xa9\"");
  EXPECT_EQ(EncodeString("\xe2\x80\xa8", PHP_JSON_UNESCAPED_UNICODE),
            "\"\\u2028\"");
  EXPECT_EQ(
      EncodeString("\xe2\x80\xa8", PHP_JSON_UNESCAPED_UNICODE |
                                       PHP_JSON_UNESCAPED_LINE_TERMINATORS),
      "\"\xe2\x80\xa8\"");
}

TEST_F(MockZendJsonTest, InvalidUtf8FailsUnlessIgnoredOrSubstituted) {
  EXPECT_EQ(EncodeString("a\xff"), "<failure>");
  EXPECT_EQ(php_json_last_error_code(), PHP_JSON_ERROR_UTF8);
  EXPECT_EQ(EncodeString("a\xff", PHP_JSON_INVALID_UTF8_IGNORE), "\"a\"");
  EXPECT_EQ(EncodeString("a\xff", PHP_JSON_INVALID_UTF8_SUBSTITUTE),
            "\"a\\ufffd\"");
  EXPECT_EQ(EncodeString("\xc0\xaf"), "<failure>");  // overlong
}

TEST_F(MockZendJsonTest, ListsAreArraysAndOtherArraysObjects) {
  zval list;
  array_init(&list);
  add_next_index_long(&list, 1);
  add_next_index_string(&list, "two");
  EXPECT_EQ(Encode(&list), "[1,\"two\"]");
  EXPECT_EQ(Encode(&list, PHP_JSON_FORCE_OBJECT), "{\"0\":1,\"1\":\"two\"}");
  zval map;
  array_init(&map);
  add_assoc_long(&map, "a", 1);
  add_assoc_zval(&map, "list", &list);
  EXPECT_EQ(Encode(&map), "{\"a\":1,\"list\":[1,\"two\"]}");
  EXPECT_EQ(Encode(&map, PHP_JSON_PRETTY_PRINT),
            "{\n    \"a\": 1,\n    \"list\": [\n        1,\n        \"two\"\n"
            "    ]\n}");
  zval empty;
  array_init(&empty);
  EXPECT_EQ(Encode(&empty), "[]");
  EXPECT_EQ(Encode(&empty, PHP_JSON_PRETTY_PRINT), "[]");
  zval_ptr_dtor(&empty);
  zval_ptr_dtor(&map);
}

TEST_F(MockZendJsonTest, DepthAndNonFiniteNumbersFail) {
  zval inner;
  array_init(&inner);
  add_next_index_long(&inner, 1);
  zval outer;
  array_init(&outer);
  add_next_index_zval(&outer, &inner);
  EXPECT_EQ(Encode(&outer, 0, 2), "[[1]]");
  EXPECT_EQ(Encode(&outer, 0, 1), "<failure>");
  EXPECT_EQ(php_json_last_error_code(), PHP_JSON_ERROR_DEPTH);
  zval_ptr_dtor(&outer);
  zval nan;
  ZVAL_DOUBLE(&nan, NAN);
  EXPECT_EQ(Encode(&nan), "<failure>");
  EXPECT_EQ(php_json_last_error_code(), PHP_JSON_ERROR_INF_OR_NAN);
}

TEST_F(MockZendJsonTest, ObjectsEncodeTheirProperties) {
  zval obj;
  ASSERT_EQ(object_init_ex(&obj, zend_ce_exception), SUCCESS);
  const std::string out = Encode(&obj);
  EXPECT_EQ(out.front(), '{');
  EXPECT_NE(out.find("\"message\":\"\""), std::string::npos) << out;
  zval_ptr_dtor(&obj);
}

TEST_F(MockZendJsonTest, DecodeFailsWithACoreErrorNamingIt) {
  // The only error, exactly (the fixture checks it):
  ExpectFatalErrors(
      {"php_json_decode_ex() is not supported by the mock engine: it has no "
       "JSON parser"});
  zval out;
  EXPECT_EQ(php_json_decode_ex(&out, "[]", 2, 0, 512), FAILURE);
  EXPECT_EQ(Z_TYPE(out), IS_NULL);
  ASSERT_EQ(zend_mock_error_count(), 1u);
  EXPECT_EQ(zend_mock_error_type(0), E_CORE_ERROR);
}

}  // namespace
