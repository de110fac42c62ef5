/*
 * zend-async-ref: mock Zend engine.
 *
 * smart_str: a growable string builder producing a zend_string, with PHP's
 * names, signatures and growth policy (a first block of 256 bytes, then
 * whole 4 KiB pages). A zeroed smart_str is empty. The `_ex` forms take
 * `persistent`: false builds on the request allocator (emalloc, leak
 * tracked), true on the persistent one; every call on one smart_str must
 * pass the same value.
 *
 * The string is not NUL-terminated while it is built: smart_str_0() writes
 * the terminator, smart_str_extract() terminates it, shrinks it to size and
 * hands it over (the caller owns the returned string; an empty builder
 * yields the interned empty string).
 *
 * Failure: growth beyond the address space aborts ("Possible integer
 * overflow in memory allocation"), as PHP does.
 */
#ifndef ZEND_SMART_STR_H
#define ZEND_SMART_STR_H

#include "zend.h"
#include "zend_globals.h"
#include "zend_operators.h"
#include "zend_smart_str_public.h"

BEGIN_EXTERN_C()

/* Grow `str` to hold at least `len` bytes (request / persistent memory). */
ZEND_API void ZEND_FASTCALL smart_str_erealloc(smart_str *str, size_t len);
ZEND_API void ZEND_FASTCALL smart_str_realloc(smart_str *str, size_t len);
/* Appends `s` with backslashes doubled and bytes outside 0x20..0x7e
 * escaped as \n, \r, \t, \f, \v, \e or \xHH (lowercase hex), as PHP does. */
ZEND_API void ZEND_FASTCALL smart_str_append_escaped(smart_str *str,
                                                     const char *s, size_t l);
ZEND_API void smart_str_append_printf(smart_str *dest, const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);

END_EXTERN_C()

/* Makes room for `len` more bytes; returns the length the string will have
 * once they are written. */
static zend_always_inline size_t smart_str_alloc(smart_str *str, size_t len,
                                                 bool persistent) {
  if (UNEXPECTED(!str->s)) {
    goto do_smart_str_realloc;
  } else {
    len += ZSTR_LEN(str->s);
    if (UNEXPECTED(len >= str->a)) {
    do_smart_str_realloc:
      if (persistent) {
        smart_str_realloc(str, len);
      } else {
        smart_str_erealloc(str, len);
      }
    }
  }
  return len;
}

/* Appends `len` uninitialised bytes and returns where they start. */
static zend_always_inline char *smart_str_extend_ex(smart_str *dest, size_t len,
                                                    bool persistent) {
  size_t new_len = smart_str_alloc(dest, len, persistent);
  char *ret = ZSTR_VAL(dest->s) + ZSTR_LEN(dest->s);
  ZSTR_LEN(dest->s) = new_len;
  return ret;
}

static zend_always_inline void smart_str_free_ex(smart_str *str,
                                                 bool persistent) {
  if (str->s) {
    zend_string_release_ex(str->s, persistent);
    str->s = NULL;
  }
  str->a = 0;
}

static zend_always_inline void smart_str_0(smart_str *str) {
  if (str->s) {
    ZSTR_VAL(str->s)[ZSTR_LEN(str->s)] = '\0';
  }
}

static zend_always_inline size_t smart_str_get_len(const smart_str *str) {
  return str->s ? ZSTR_LEN(str->s) : 0;
}

/* Shrinks the buffer to the string's length. */
static zend_always_inline void smart_str_trim_to_size_ex(smart_str *str,
                                                         bool persistent) {
  if (str->s && str->a > ZSTR_LEN(str->s)) {
    str->s = zend_string_realloc(str->s, ZSTR_LEN(str->s), persistent);
    str->a = ZSTR_LEN(str->s);
  }
}

static zend_always_inline void smart_str_trim_to_size(smart_str *dest) {
  smart_str_trim_to_size_ex(dest, false);
}

static zend_always_inline zend_string *smart_str_extract_ex(smart_str *str,
                                                            bool persistent) {
  if (str->s) {
    zend_string *res;
    smart_str_0(str);
    smart_str_trim_to_size_ex(str, persistent);
    res = str->s;
    str->s = NULL;
    str->a = 0;
    return res;
  }
  return ZSTR_EMPTY_ALLOC();
}

static zend_always_inline zend_string *smart_str_extract(smart_str *dest) {
  return smart_str_extract_ex(dest, false);
}

static zend_always_inline void smart_str_appendc_ex(smart_str *dest, char ch,
                                                    bool persistent) {
  size_t new_len = smart_str_alloc(dest, 1, persistent);
  ZSTR_VAL(dest->s)[new_len - 1] = ch;
  ZSTR_LEN(dest->s) = new_len;
}

static zend_always_inline void smart_str_appendl_ex(smart_str *dest,
                                                    const char *str, size_t len,
                                                    bool persistent) {
  size_t new_len = smart_str_alloc(dest, len, persistent);
  memcpy(ZSTR_VAL(dest->s) + ZSTR_LEN(dest->s), str, len);
  ZSTR_LEN(dest->s) = new_len;
}

static zend_always_inline void smart_str_append_ex(smart_str *dest,
                                                   const zend_string *src,
                                                   bool persistent) {
  smart_str_appendl_ex(dest, ZSTR_VAL(src), ZSTR_LEN(src), persistent);
}

static zend_always_inline void smart_str_append_smart_str_ex(
    smart_str *dest, const smart_str *src, bool persistent) {
  if (src->s && ZSTR_LEN(src->s)) {
    smart_str_append_ex(dest, src->s, persistent);
  }
}

static zend_always_inline void smart_str_append_long_ex(smart_str *dest,
                                                        zend_long num,
                                                        bool persistent) {
  char buf[32];
  char *result = zend_print_long_to_buf(buf + sizeof(buf) - 1, num);
  smart_str_appendl_ex(dest, result, buf + sizeof(buf) - 1 - result,
                       persistent);
}

static zend_always_inline void smart_str_append_unsigned_ex(smart_str *dest,
                                                            zend_ulong num,
                                                            bool persistent) {
  char buf[32];
  char *result = zend_print_ulong_to_buf(buf + sizeof(buf) - 1, num);
  smart_str_appendl_ex(dest, result, buf + sizeof(buf) - 1 - result,
                       persistent);
}

#define smart_str_appends_ex(dest, src, what) \
  smart_str_appendl_ex((dest), (src), strlen(src), (what))
#define smart_str_appends(dest, src) \
  smart_str_appendl((dest), (src), strlen(src))
#define smart_str_extend(dest, len) smart_str_extend_ex((dest), (len), false)
#define smart_str_appendc(dest, c) smart_str_appendc_ex((dest), (c), false)
#define smart_str_appendl(dest, src, len) \
  smart_str_appendl_ex((dest), (src), (len), false)
#define smart_str_append(dest, src) smart_str_append_ex((dest), (src), false)
#define smart_str_append_smart_str(dest, src) \
  smart_str_append_smart_str_ex((dest), (src), false)
#define smart_str_sets(dest, src) smart_str_setl((dest), (src), strlen(src));
#define smart_str_append_long(dest, val) \
  smart_str_append_long_ex((dest), (val), false)
#define smart_str_append_unsigned(dest, val) \
  smart_str_append_unsigned_ex((dest), (val), false)
#define smart_str_free(dest) smart_str_free_ex((dest), false)

/* Replaces the content with `src`. */
static zend_always_inline void smart_str_setl(smart_str *dest, const char *src,
                                              size_t len) {
  smart_str_free(dest);
  smart_str_appendl(dest, src, len);
}

#endif /* ZEND_SMART_STR_H */
