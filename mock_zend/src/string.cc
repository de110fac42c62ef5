// zend-async-ref: mock Zend engine. String hashing, formatting and case
// conversion (zend_string.h), and the formatting helpers the engine uses.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_format.h"
#include "engine_internal.h"

extern "C" {

// DJBX33A, PHP's string hash; the top bit is forced on so that a computed
// hash is never 0 (0 means "not computed yet").
zend_ulong zend_hash_func(const char* str, size_t len) {
  zend_ulong hash = 5381;
  for (size_t i = 0; i < len; i++) {
    hash = hash * 33 + static_cast<unsigned char>(str[i]);
  }
  return hash | (UINT64_C(1) << 63);
}

zend_ulong zend_string_hash_func(zend_string* str) {
  return ZSTR_H(str) = zend_hash_func(ZSTR_VAL(str), ZSTR_LEN(str));
}

zend_string* zend_vstrpprintf(size_t max_len, const char* format, va_list ap) {
  std::string text = mock_zend::internal::VFormat(format, ap);
  if (max_len != 0 && text.size() > max_len) text.resize(max_len);
  return zend_string_init(text.data(), text.size(), false);
}

zend_string* zend_strpprintf(size_t max_len, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  zend_string* result = zend_vstrpprintf(max_len, format, ap);
  va_end(ap);
  return result;
}

size_t zend_spprintf(char** pbuf, size_t max_len, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  std::string text = mock_zend::internal::VFormat(format, ap);
  va_end(ap);
  if (max_len != 0 && text.size() > max_len) text.resize(max_len);
  *pbuf = estrndup(text.data(), text.size());
  return text.size();
}

zend_string* zend_string_tolower_ex(zend_string* str, bool persistent) {
  const char* val = ZSTR_VAL(str);
  const size_t len = ZSTR_LEN(str);
  for (size_t i = 0; i < len; i++) {
    if (val[i] >= 'A' && val[i] <= 'Z') {
      zend_string* lower = zend_string_init(val, len, persistent);
      zend_str_tolower(ZSTR_VAL(lower) + i, len - i);
      return lower;
    }
  }
  return zend_string_copy(str);
}

zend_string* zend_string_concat2(const char* str1, size_t str1_len,
                                 const char* str2, size_t str2_len) {
  zend_string* result = zend_string_alloc(str1_len + str2_len, false);
  memcpy(ZSTR_VAL(result), str1, str1_len);
  memcpy(ZSTR_VAL(result) + str1_len, str2, str2_len);
  ZSTR_VAL(result)[str1_len + str2_len] = '\0';
  return result;
}

void zend_str_tolower(char* str, size_t length) {
  for (size_t i = 0; i < length; i++) {
    if (str[i] >= 'A' && str[i] <= 'Z') str[i] = static_cast<char>(str[i] + 32);
  }
}

int zend_binary_strncasecmp(const char* s1, size_t len1, const char* s2,
                            size_t len2, size_t length) {
  if (s1 == s2) return 0;  // as PHP: the same pointer is equal, whatever len
  const size_t limit1 = std::min(length, len1);
  const size_t limit2 = std::min(length, len2);
  const size_t common = std::min(limit1, limit2);
  const auto lower = [](char c) {
    const int u = static_cast<unsigned char>(c);
    return u >= 'A' && u <= 'Z' ? u + 32 : u;
  };
  for (size_t i = 0; i < common; i++) {
    const int c1 = lower(s1[i]);
    const int c2 = lower(s2[i]);
    if (c1 != c2) return c1 - c2;
  }
  return limit1 < limit2 ? -1 : (limit1 > limit2 ? 1 : 0);
}

const char* zend_memnistr(const char* haystack, const char* needle,
                          size_t needle_len, const char* end) {
  if (needle_len == 0) return haystack;
  if (end < haystack || needle_len > static_cast<size_t>(end - haystack)) {
    return nullptr;
  }
  const char* last = end - needle_len;
  for (const char* p = haystack; p <= last; p++) {
    if (zend_binary_strncasecmp(p, needle_len, needle, needle_len,
                                needle_len) == 0) {
      return p;
    }
  }
  return nullptr;
}

int zend_binary_strcasecmp(const char* s1, size_t len1, const char* s2,
                           size_t len2) {
  // The length-limited comparison with no limit.
  return zend_binary_strncasecmp(s1, len1, s2, len2, std::max(len1, len2));
}

}  // extern "C"

namespace mock_zend::internal {

std::string VFormat(const char* format, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  const int needed = vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (needed <= 0) return std::string();
  std::string text(static_cast<size_t>(needed), '\0');
  vsnprintf(text.data(), text.size() + 1, format, ap);
  return text;
}

// The shortest representation that reads back as the same double
// (serialize_precision = -1), laid out as PHP does: plain digits when the
// decimal exponent is in [-4, 17], otherwise "1.0E+25" / "1.5E-7"; and
// "INF", "-INF", "NAN".
std::string DoubleToString(double value) {
  if (std::isnan(value)) return "NAN";
  if (std::isinf(value)) return value > 0 ? "INF" : "-INF";
  if (value == 0) return std::signbit(value) ? "-0" : "0";
  char buffer[64];
  for (int precision = 0; precision < 17; precision++) {
    snprintf(buffer, sizeof(buffer), "%.*e", precision, value);
    if (strtod(buffer, nullptr) == value) break;
  }
  // buffer is "[-]d.ddde[+-]x": split into sign, digits and exponent.
  std::string text(buffer);
  const bool negative = text[0] == '-';
  if (negative) text.erase(0, 1);
  const size_t e = text.find('e');
  const int exponent = atoi(text.c_str() + e + 1);
  std::string digits = text.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int decpt = exponent + 1;  // value = 0.digits * 10^decpt
  std::string out = negative ? "-" : "";
  if (decpt < -3 || decpt > 17) {
    out += digits[0];
    out += '.';
    out += digits.size() > 1 ? digits.substr(1) : "0";
    absl::StrAppendFormat(&out, "E%c%d", exponent < 0 ? '-' : '+',
                          std::abs(exponent));
  } else if (decpt <= 0) {
    out += "0." + std::string(static_cast<size_t>(-decpt), '0') + digits;
  } else if (static_cast<size_t>(decpt) >= digits.size()) {
    out += digits + std::string(decpt - digits.size(), '0');
  } else {
    out += digits.substr(0, decpt) + "." + digits.substr(decpt);
  }
  return out;
}

}  // namespace mock_zend::internal
