// zend-async-ref: mock Zend engine. smart_str growth and the out-of-line
// appends (zend_smart_str.h).
//
// Growth follows PHP: the first buffer holds a 256-byte allocation minus
// the string header, later ones are whole 4 KiB pages minus the header, so
// appending n bytes one at a time reallocates O(n / 4096) times. Request
// builders grow with erealloc2 (only the used bytes are copied); persistent
// ones with the persistent allocator.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine_internal.h"

extern "C" {
#include "zend_smart_str.h"
}

namespace {

// Bytes of an allocation that are not string content: the zend_string
// header and the terminating NUL.
constexpr size_t kOverhead = _ZSTR_HEADER_SIZE + 1;
constexpr size_t kStartSize = 256;
constexpr size_t kStartLen = kStartSize - kOverhead;
constexpr size_t kPage = 4096;

// The capacity for at least `len` bytes: the allocation rounded up to
// whole pages.
size_t NewLen(size_t len) {
  if (len > SIZE_MAX - kOverhead - kPage) {
    fprintf(stderr,
            "Possible integer overflow in memory allocation (%zu + %zu)\n", len,
            kOverhead);
    abort();
  }
  return ((len + kOverhead + kPage - 1) & ~(kPage - 1)) - kOverhead;
}

// Room for at least `len` bytes in `str`: its first buffer, or the buffer
// grown (a request one copies only the used bytes).
void Grow(smart_str* str, size_t len, bool persistent) {
  if (str->s == nullptr) {
    str->a = len <= kStartLen ? kStartLen : NewLen(len);
    str->s = zend_string_alloc(str->a, persistent);
    ZSTR_LEN(str->s) = 0;
    return;
  }
  str->a = NewLen(len);
  const size_t size = _ZSTR_HEADER_SIZE + str->a + 1;
  str->s = static_cast<zend_string*>(
      persistent
          ? perealloc(str->s, size, true)
          : erealloc2(str->s, size, _ZSTR_HEADER_SIZE + ZSTR_LEN(str->s)));
}

}  // namespace

extern "C" {

void smart_str_erealloc(smart_str* str, size_t len) { Grow(str, len, false); }

void smart_str_realloc(smart_str* str, size_t len) { Grow(str, len, true); }

void smart_str_append_escaped(smart_str* str, const char* s, size_t l) {
  static const char kHex[] = "0123456789abcdef";
  // First the escaped length, then one extension and the bytes.
  size_t escaped_len = 0;
  for (size_t i = 0; i < l; i++) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 32 || c == '\\' || c > 126) {
      escaped_len += (c == '\\' || c == '\n' || c == '\r' || c == '\t' ||
                      c == '\f' || c == '\v' || c == 27)
                         ? 2
                         : 4;
    } else {
      escaped_len += 1;
    }
  }
  char* out = smart_str_extend(str, escaped_len);
  for (size_t i = 0; i < l; i++) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 32 && c != '\\' && c <= 126) {
      *out++ = static_cast<char>(c);
      continue;
    }
    *out++ = '\\';
    switch (c) {
      case '\n':
        *out++ = 'n';
        break;
      case '\r':
        *out++ = 'r';
        break;
      case '\t':
        *out++ = 't';
        break;
      case '\f':
        *out++ = 'f';
        break;
      case '\v':
        *out++ = 'v';
        break;
      case '\\':
        *out++ = '\\';
        break;
      case 27:
        *out++ = 'e';
        break;
      default:
        *out++ = 'x';
        *out++ = kHex[c >> 4];
        *out++ = kHex[c & 0xf];
        break;
    }
  }
}

void smart_str_append_printf(smart_str* dest, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const std::string text = mock_zend::internal::VFormat(format, ap);
  va_end(ap);
  smart_str_appendl(dest, text.data(), text.size());
}

}  // extern "C"
