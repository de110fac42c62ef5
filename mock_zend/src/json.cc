// zend-async-ref: mock PHP. JSON encoding (ext/json/php_json.h).
//
// The encoder walks the value recursively, writing straight into the
// caller's smart_str; the first error stops the walk (the output written so
// far stays in the buffer, as in PHP).

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine_internal.h"

extern "C" {
#include "ext/json/php_json.h"
#include "zend_property_hooks.h"
#include "zend_smart_str.h"
}

namespace {

thread_local php_json_error_code last_error = PHP_JSON_ERROR_NONE;

class Encoder {
 public:
  Encoder(smart_str* buf, int options, zend_long max_depth)
      : buf_(buf), options_(options), max_depth_(max_depth) {}

  php_json_error_code error() const { return error_; }

  bool Value(zval* val) {
    ZVAL_DEREF(val);
    switch (Z_TYPE_P(val)) {
      case IS_NULL:
        smart_str_appendl(buf_, "null", 4);
        return true;
      case IS_TRUE:
        smart_str_appendl(buf_, "true", 4);
        return true;
      case IS_FALSE:
        smart_str_appendl(buf_, "false", 5);
        return true;
      case IS_LONG:
        smart_str_append_long(buf_, Z_LVAL_P(val));
        return true;
      case IS_DOUBLE:
        return Double(Z_DVAL_P(val));
      case IS_STRING:
        return String(Z_STRVAL_P(val), Z_STRLEN_P(val));
      case IS_ARRAY:
        return Table(Z_ARRVAL_P(val), !IsList(Z_ARRVAL_P(val)));
      case IS_OBJECT: {
        zend_array* properties =
            zend_hooked_object_build_properties(Z_OBJ_P(val));
        const bool ok = Table(properties, true);
        zend_array_release(properties);
        return ok;
      }
      default:
        return Fail(PHP_JSON_ERROR_UNSUPPORTED_TYPE);
    }
  }

  bool String(const char* s, size_t len) {
    smart_str_appendc(buf_, '"');
    size_t i = 0;
    while (i < len) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c >= 0x80) {
        const size_t n = Utf8Length(s + i, len - i);
        if (n == 0) {
          if (options_ & PHP_JSON_INVALID_UTF8_SUBSTITUTE) {
            Codepoint(0xfffd, "\xef\xbf\xbd", 3);
          } else if (!(options_ & PHP_JSON_INVALID_UTF8_IGNORE)) {
            return Fail(PHP_JSON_ERROR_UTF8);
          }
          i++;
          continue;
        }
        Codepoint(DecodeUtf8(s + i, n), s + i, n);
        i += n;
        continue;
      }
      Ascii(c);
      i++;
    }
    smart_str_appendc(buf_, '"');
    return true;
  }

 private:
  bool Fail(php_json_error_code code) {
    if (error_ == PHP_JSON_ERROR_NONE) error_ = code;
    return false;
  }

  static bool IsList(const HashTable* ht) {
    zend_ulong expected = 0;
    zend_string* key;
    zend_ulong index;
    ZEND_HASH_FOREACH_KEY(const_cast<HashTable*>(ht), index, key) {
      if (key != nullptr || index != expected) return false;
      expected++;
    }
    ZEND_HASH_FOREACH_END();
    return true;
  }

  // As PHP with serialize_precision = -1: the shortest digits that read
  // back as the same double, positional for decimal exponents -4..16
  // ("0.0001", "10", "123.5"), otherwise "d.ddde+X" (at least "d.0e+X").
  bool Double(double d) {
    if (!std::isfinite(d)) return Fail(PHP_JSON_ERROR_INF_OR_NAN);
    char sci[40];
    for (int digits = 1; digits <= 17; digits++) {
      snprintf(sci, sizeof(sci), "%.*e", digits - 1, d);
      if (strtod(sci, nullptr) == d) break;
    }
    // sci is "[-]d[.ddd]e<sign><exp>"; split it into sign, digits, exponent.
    const char* p = sci;
    std::string out;
    if (*p == '-') {
      out += '-';
      p++;
    }
    std::string mantissa;
    for (; *p != 'e'; p++) {
      if (*p != '.') mantissa += *p;
    }
    const int exponent = atoi(p + 1);
    if (exponent < -4 || exponent >= 17) {
      out += mantissa[0];
      out += '.';
      out += mantissa.size() > 1 ? mantissa.substr(1) : "0";
      out += exponent < 0 ? "e-" : "e+";
      out += std::to_string(exponent < 0 ? -exponent : exponent);
    } else if (exponent < 0) {
      out += "0.";
      out.append(static_cast<size_t>(-exponent - 1), '0');
      out += mantissa;
    } else {
      const size_t int_digits = static_cast<size_t>(exponent) + 1;
      if (mantissa.size() <= int_digits) {
        out += mantissa;
        out.append(int_digits - mantissa.size(), '0');
        if (options_ & PHP_JSON_PRESERVE_ZERO_FRACTION) out += ".0";
      } else {
        out += mantissa.substr(0, int_digits);
        out += '.';
        out += mantissa.substr(int_digits);
      }
    }
    smart_str_appendl(buf_, out.data(), out.size());
    return true;
  }

  void Newline() {
    if (!(options_ & PHP_JSON_PRETTY_PRINT)) return;
    smart_str_appendc(buf_, '\n');
    for (zend_long i = 0; i < depth_; i++) smart_str_appendl(buf_, "    ", 4);
  }

  bool Table(HashTable* ht, bool as_object) {
    as_object = as_object || (options_ & PHP_JSON_FORCE_OBJECT);
    if (++depth_ > max_depth_) return Fail(PHP_JSON_ERROR_DEPTH);
    smart_str_appendc(buf_, as_object ? '{' : '[');
    bool first = true;
    zend_string* key;
    zend_ulong index;
    zval* item;
    ZEND_HASH_FOREACH_KEY_VAL(ht, index, key, item) {
      if (Z_TYPE_P(item) == IS_UNDEF) continue;
      if (!first) smart_str_appendc(buf_, ',');
      first = false;
      Newline();
      if (as_object) {
        if (key != nullptr) {
          if (!String(ZSTR_VAL(key), ZSTR_LEN(key))) return false;
        } else {
          smart_str_appendc(buf_, '"');
          smart_str_append_long(buf_, static_cast<zend_long>(index));
          smart_str_appendc(buf_, '"');
        }
        smart_str_appendc(buf_, ':');
        if (options_ & PHP_JSON_PRETTY_PRINT) smart_str_appendc(buf_, ' ');
      }
      if (!Value(item)) return false;
    }
    ZEND_HASH_FOREACH_END();
    depth_--;
    if (!first) Newline();
    smart_str_appendc(buf_, as_object ? '}' : ']');
    return true;
  }

  void Hex4(unsigned code) {
    static const char kHex[] = "0123456789abcdef";
    char out[6] = {'\\',
                   'u',
                   kHex[(code >> 12) & 15],
                   kHex[(code >> 8) & 15],
                   kHex[(code >> 4) & 15],
                   kHex[code & 15]};
    smart_str_appendl(buf_, out, 6);
  }

  void Literal(const char* text) { smart_str_appends(buf_, text); }

  // An ASCII character: the escape an option asks for (PHP writes these
  // with uppercase hex digits), else JSON's own escape ('/' kept with
  // PHP_JSON_UNESCAPED_SLASHES), else \u00XX for another control
  // character, else the character.
  void Ascii(unsigned char c) {
    struct Escape {
      unsigned char c;
      int option;  // 0: JSON's own escape
      const char* text;
    };
    static constexpr Escape kEscapes[] = {
        {'"', PHP_JSON_HEX_QUOT, "\\u0022"},
        {'<', PHP_JSON_HEX_TAG, "\\u003C"},
        {'>', PHP_JSON_HEX_TAG, "\\u003E"},
        {'&', PHP_JSON_HEX_AMP, "\\u0026"},
        {'\'', PHP_JSON_HEX_APOS, "\\u0027"},
        {'"', 0, "\\\""},
        {'\\', 0, "\\\\"},
        {'/', 0, "\\/"},
        {'\b', 0, "\\b"},
        {'\f', 0, "\\f"},
        {'\n', 0, "\\n"},
        {'\r', 0, "\\r"},
        {'\t', 0, "\\t"},
    };
    const bool keep_slash = (options_ & PHP_JSON_UNESCAPED_SLASHES) != 0;
    for (const Escape& escape : kEscapes) {
      if (escape.c != c ||
          (escape.option != 0 && !(options_ & escape.option))) {
        continue;
      }
      if (c == '/' && keep_slash) break;
      return Literal(escape.text);
    }
    if (c < 0x20) return Hex4(c);
    smart_str_appendc(buf_, static_cast<char>(c));
  }

  // A non-ASCII code point: raw with PHP_JSON_UNESCAPED_UNICODE (except
  // U+2028/U+2029 unless PHP_JSON_UNESCAPED_LINE_TERMINATORS), else \uXXXX
  // (a surrogate pair above U+FFFF).
  void Codepoint(unsigned code, const char* raw, size_t n) {
    if ((options_ & PHP_JSON_UNESCAPED_UNICODE) &&
        ((code != 0x2028 && code != 0x2029) ||
         (options_ & PHP_JSON_UNESCAPED_LINE_TERMINATORS))) {
      smart_str_appendl(buf_, raw, n);
      return;
    }
    if (code >= 0x10000) {
      code -= 0x10000;
      Hex4(0xd800 | (code >> 10));
      Hex4(0xdc00 | (code & 0x3ff));
    } else {
      Hex4(code);
    }
  }

  // Length of the well-formed UTF-8 sequence at s, or 0.
  static size_t Utf8Length(const char* s, size_t avail) {
    const auto* u = reinterpret_cast<const unsigned char*>(s);
    size_t n;
    unsigned min;
    if (u[0] >= 0xc2 && u[0] <= 0xdf) {
      n = 2;
      min = 0x80;
    } else if (u[0] >= 0xe0 && u[0] <= 0xef) {
      n = 3;
      min = 0x800;
    } else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
      n = 4;
      min = 0x10000;
    } else {
      return 0;
    }
    if (avail < n) return 0;
    for (size_t i = 1; i < n; i++) {
      if ((u[i] & 0xc0) != 0x80) return 0;
    }
    const unsigned code = DecodeUtf8(s, n);
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      return 0;
    }
    return n;
  }

  static unsigned DecodeUtf8(const char* s, size_t n) {
    const auto* u = reinterpret_cast<const unsigned char*>(s);
    unsigned code = u[0] & (0xff >> (n + 1));
    for (size_t i = 1; i < n; i++) code = (code << 6) | (u[i] & 0x3f);
    return code;
  }

  smart_str* buf_;
  int options_;
  zend_long max_depth_;
  zend_long depth_ = 0;
  php_json_error_code error_ = PHP_JSON_ERROR_NONE;
};

}  // namespace

extern "C" {

zend_result php_json_encode_string(smart_str* buf, const char* s, size_t len,
                                   int options) {
  Encoder encoder(buf, options, PHP_JSON_PARSER_DEFAULT_DEPTH);
  const bool ok = encoder.String(s, len);
  last_error = encoder.error();
  return ok ? SUCCESS : FAILURE;
}

zend_result php_json_encode_ex(smart_str* buf, zval* val, int options,
                               zend_long depth) {
  Encoder encoder(buf, options, depth);
  const bool ok = encoder.Value(val);
  last_error = encoder.error();
  return ok ? SUCCESS : FAILURE;
}

zend_result php_json_encode(smart_str* buf, zval* val, int options) {
  return php_json_encode_ex(buf, val, options, PHP_JSON_PARSER_DEFAULT_DEPTH);
}

zend_result php_json_decode_ex(zval* return_value, const char* str,
                               size_t str_len, zend_long options,
                               zend_long depth) {
  (void)str;
  (void)str_len;
  (void)options;
  (void)depth;
  ZVAL_NULL(return_value);
  mock_zend::internal::Unsupported("php_json_decode_ex",
                                   "it has no JSON parser");
  return FAILURE;
}

php_json_error_code php_json_last_error_code(void) { return last_error; }

}  // extern "C"
