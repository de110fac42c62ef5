// zend-async-ref: mock PHP. Base64 (ext/standard/base64.h).

#include "engine_internal.h"

extern "C" {
#include "ext/standard/base64.h"
}

namespace {

constexpr char kAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The 6-bit value of `c`, or -1 outside the alphabet.
int Value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

extern "C" {

zend_string* php_base64_encode(const unsigned char* str, size_t length) {
  zend_string* out = zend_string_safe_alloc(((length + 2) / 3), 4, 0, false);
  char* p = ZSTR_VAL(out);
  size_t i = 0;
  for (; i + 2 < length; i += 3) {
    const uint32_t n = (str[i] << 16) | (str[i + 1] << 8) | str[i + 2];
    *p++ = kAlphabet[(n >> 18) & 63];
    *p++ = kAlphabet[(n >> 12) & 63];
    *p++ = kAlphabet[(n >> 6) & 63];
    *p++ = kAlphabet[n & 63];
  }
  if (i < length) {
    const uint32_t n = (str[i] << 16) | (i + 1 < length ? str[i + 1] << 8 : 0);
    *p++ = kAlphabet[(n >> 18) & 63];
    *p++ = kAlphabet[(n >> 12) & 63];
    *p++ = i + 1 < length ? kAlphabet[(n >> 6) & 63] : '=';
    *p++ = '=';
  }
  *p = '\0';
  ZSTR_LEN(out) = static_cast<size_t>(p - ZSTR_VAL(out));
  return out;
}

zend_string* php_base64_decode_ex(const unsigned char* str, size_t length,
                                  bool strict) {
  zend_string* out = zend_string_alloc(length, false);
  unsigned char* p = reinterpret_cast<unsigned char*>(ZSTR_VAL(out));
  uint32_t bits = 0;
  int nbits = 0;
  size_t symbols = 0;  // alphabet characters seen
  size_t padding = 0;
  for (size_t i = 0; i < length; i++) {
    const unsigned char c = str[i];
    if (c == '=') {
      padding++;
      continue;
    }
    const int v = Value(c);
    if (v < 0 || padding > 0) {
      // Outside the alphabet, or data after padding.
      if (strict &&
          (v >= 0 || !(c == ' ' || c == '\t' || c == '\r' || c == '\n'))) {
        zend_string_efree(out);
        return nullptr;
      }
      continue;
    }
    bits = (bits << 6) | static_cast<uint32_t>(v);
    nbits += 6;
    symbols++;
    if (nbits >= 8) {
      nbits -= 8;
      *p++ = static_cast<unsigned char>((bits >> nbits) & 0xff);
    }
  }
  if (strict &&
      ((symbols % 4) == 1 || (padding > 0 && (symbols + padding) % 4 != 0) ||
       padding > 2)) {
    zend_string_efree(out);
    return nullptr;
  }
  *p = '\0';
  ZSTR_LEN(out) =
      static_cast<size_t>(p - reinterpret_cast<unsigned char*>(ZSTR_VAL(out)));
  return out;
}

}  // extern "C"
