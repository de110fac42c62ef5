// Tests of base64 (ext/standard/base64.h).

#include <gtest/gtest.h>

#include <string>

#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "ext/standard/base64.h"
}

namespace {

class MockZendBase64Test : public zar::testing::RequestFixture {};

std::string Encode(const std::string& in) {
  zend_string* out = php_base64_encode(
      reinterpret_cast<const unsigned char*>(in.data()), in.size());
  std::string result(ZSTR_VAL(out), ZSTR_LEN(out));
  EXPECT_EQ(ZSTR_VAL(out)[ZSTR_LEN(out)], '\0');
  zend_string_release(out);
  return result;
}

// "<null>" when decoding fails.
std::string Decode(const std::string& in, bool strict) {
  zend_string* out = php_base64_decode_ex(
      reinterpret_cast<const unsigned char*>(in.data()), in.size(), strict);
  if (out == nullptr) return "<null>";
  std::string result(ZSTR_VAL(out), ZSTR_LEN(out));
  zend_string_release(out);
  return result;
}

TEST_F(MockZendBase64Test, EncodesTheRfc4648Vectors) {
  EXPECT_EQ(Encode(""), "");
  EXPECT_EQ(Encode("f"), "Zg==");
  EXPECT_EQ(Encode("fo"), "Zm8=");
  EXPECT_EQ(Encode("foo"), "Zm9v");
  EXPECT_EQ(Encode("foob"), "Zm9vYg==");
  EXPECT_EQ(Encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Encode(std::string("\xff\xfe\x00", 3)), "//4A");
}

TEST_F(MockZendBase64Test, DecodesWithAndWithoutPadding) {
  EXPECT_EQ(Decode("Zm9vYmFy", false), "foobar");
  EXPECT_EQ(Decode("Zm9vYg==", false), "foob");
  EXPECT_EQ(Decode("Zm9vYg", false), "foob");
  EXPECT_EQ(Decode("Zm9vYg==", true), "foob");
  EXPECT_EQ(Decode("//4A", true), std::string("\xff\xfe\x00", 3));
}

TEST_F(MockZendBase64Test, NonStrictSkipsWhatStrictRejects) {
  EXPECT_EQ(Decode("Zm9v!YmFy", false), "foobar");
  EXPECT_EQ(Decode("Zm9v!YmFy", true), "<null>");
  EXPECT_EQ(Decode("Zm9v\nYmFy", true), "foobar");
  EXPECT_EQ(Decode("Zm9vY", true), "<null>");     // 5 symbols: not base64
  EXPECT_EQ(Decode("Zg==Zg==", true), "<null>");  // data after padding
  EXPECT_EQ(Decode("Zm9vYg=", true), "<null>");   // padding to no boundary
}

TEST_F(MockZendBase64Test, HelpersTakeZendStrings) {
  zend_string* in = zend_string_init(ZEND_STRL("hello"), false);
  zend_string* encoded = php_base64_encode_str(in);
  EXPECT_STREQ(ZSTR_VAL(encoded), "aGVsbG8=");
  zend_string* decoded = php_base64_decode_str(encoded);
  EXPECT_TRUE(zend_string_equals(decoded, in));
  zend_string_release(in);
  zend_string_release(encoded);
  zend_string_release(decoded);
}

}  // namespace
