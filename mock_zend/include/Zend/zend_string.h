/*
 * zend-async-ref: mock Zend engine.
 *
 * Refcounted byte strings. Request strings come from emalloc and are leak
 * tracked; persistent strings come from malloc; interned strings (the known
 * strings and anything made with zend_string_init_interned) are immutable,
 * never refcounted and live until module shutdown.
 *
 * Threading: request strings belong to the request's thread. A persistent
 * string may be made and freed on any thread (a thread body handing back a
 * value); its refcount is not atomic, so one thread owns it at a time.
 * Interned strings are made at startup and only read afterwards.
 */
#ifndef ZEND_STRING_H
#define ZEND_STRING_H

#include "zend_alloc.h"
#include "zend_types.h"

BEGIN_EXTERN_C()

#define ZSTR_VAL(zstr) (zstr)->val
#define ZSTR_LEN(zstr) (zstr)->len
#define ZSTR_H(zstr) (zstr)->h
#define ZSTR_HASH(zstr) zend_string_hash_val(zstr)
#define ZSTR_IS_INTERNED(s) (GC_FLAGS(s) & IS_STR_INTERNED)
#define ZSTR_IS_VALID_UTF8(s) (GC_FLAGS(s) & IS_STR_VALID_UTF8)

#define _ZSTR_HEADER_SIZE XtOffsetOf(zend_string, val)
#define _ZSTR_STRUCT_SIZE(len) (_ZSTR_HEADER_SIZE + (len) + 1)

/* Known strings, as ZSTR_KNOWN(ZEND_STR_MESSAGE). */
typedef enum _zend_known_string_id {
  ZEND_STR_EMPTY,
  ZEND_STR_MESSAGE,
  ZEND_STR_CODE,
  ZEND_STR_STRING,
  ZEND_STR_PREVIOUS,
  ZEND_STR_FILE,
  ZEND_STR_LINE,
  ZEND_STR_TRACE,
  ZEND_STR_NAME,
  ZEND_STR_VALUE,
  ZEND_STR_CLOSURE,
  ZEND_STR_MAIN,
  /* The names of a backtrace frame and of a file-system event. */
  ZEND_STR_FUNCTION,
  ZEND_STR_CLASS,
  ZEND_STR_OBJECT,
  ZEND_STR_TYPE,
  ZEND_STR_OBJECT_OPERATOR,
  ZEND_STR_PAAMAYIM_NEKUDOTAYIM,
  ZEND_STR_ARGS,
  ZEND_STR_UNKNOWN,
  ZEND_STR_UNKNOWN_CAPITALIZED,
  ZEND_STR_PATH,
  ZEND_STR_LAST_KNOWN
} zend_known_string_id;

ZEND_API extern zend_string **zend_known_strings;
ZEND_API extern zend_string *zend_empty_string;
#define ZSTR_KNOWN(idx) zend_known_strings[idx]
#define ZSTR_EMPTY_ALLOC() zend_empty_string

ZEND_API zend_ulong zend_hash_func(const char *str, size_t len);
ZEND_API zend_ulong zend_string_hash_func(zend_string *str);
/* PHP's string hash (DJBX33A, top bit set), inline in PHP; the same value
 * as zend_hash_func. */
static zend_always_inline zend_ulong zend_inline_hash_func(const char *str,
                                                           size_t len) {
  return zend_hash_func(str, len);
}

/* Interned strings are created once and freed at module shutdown. */
ZEND_API zend_string *zend_string_init_interned(const char *str, size_t len,
                                                bool permanent);

ZEND_API zend_string *zend_strpprintf(size_t max_len, const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
ZEND_API zend_string *zend_vstrpprintf(size_t max_len, const char *format,
                                       va_list ap);
ZEND_API size_t zend_spprintf(char **pbuf, size_t max_len, const char *format,
                              ...) ZEND_ATTRIBUTE_FORMAT(printf, 3, 4);
ZEND_API zend_string *zend_string_tolower_ex(zend_string *str, bool persistent);
#define zend_string_tolower(str) zend_string_tolower_ex(str, false)
ZEND_API zend_string *zend_string_concat2(const char *str1, size_t str1_len,
                                          const char *str2, size_t str2_len);

static zend_always_inline zend_ulong zend_string_hash_val(zend_string *s) {
  return ZSTR_H(s) ? ZSTR_H(s) : zend_string_hash_func(s);
}

static zend_always_inline zend_string *zend_string_alloc(size_t len,
                                                         bool persistent) {
  zend_string *ret = (zend_string *)pemalloc(
      ZEND_MM_ALIGNED_SIZE(_ZSTR_STRUCT_SIZE(len)), persistent);
  GC_SET_REFCOUNT(ret, 1);
  GC_TYPE_INFO(ret) = IS_STRING | (persistent ? IS_STR_PERSISTENT : 0);
  ZSTR_H(ret) = 0;
  ZSTR_LEN(ret) = len;
  return ret;
}

/* A string of n * m + l bytes; the size computation aborts on overflow. */
static zend_always_inline zend_string *zend_string_safe_alloc(size_t n,
                                                              size_t m,
                                                              size_t l,
                                                              bool persistent) {
  zend_string *ret = (zend_string *)safe_pemalloc(
      n, m, ZEND_MM_ALIGNED_SIZE(_ZSTR_STRUCT_SIZE(l)), persistent);
  GC_SET_REFCOUNT(ret, 1);
  GC_TYPE_INFO(ret) = IS_STRING | (persistent ? IS_STR_PERSISTENT : 0);
  ZSTR_H(ret) = 0;
  ZSTR_LEN(ret) = (n * m) + l;
  return ret;
}

/* Frees a request string nobody else references (not interned). */
static zend_always_inline void zend_string_efree(zend_string *s) {
  ZEND_ASSERT(!ZSTR_IS_INTERNED(s));
  ZEND_ASSERT(GC_REFCOUNT(s) <= 1);
  efree(s);
}

static zend_always_inline zend_string *zend_string_init(const char *str,
                                                        size_t len,
                                                        bool persistent) {
  zend_string *ret = zend_string_alloc(len, persistent);
  memcpy(ZSTR_VAL(ret), str, len);
  ZSTR_VAL(ret)[len] = '\0';
  return ret;
}

#define zend_string_init_literal(str, persistent) \
  zend_string_init("" str, sizeof(str) - 1, persistent)
#define ZSTR_INIT_LITERAL(s, persistent) zend_string_init_literal(s, persistent)

static zend_always_inline zend_string *zend_string_copy(zend_string *s) {
  if (!ZSTR_IS_INTERNED(s)) {
    GC_ADDREF(s);
  }
  return s;
}

/* Adds a reference (interned strings are not counted: 1). Returns the new
 * count. */
static zend_always_inline uint32_t zend_string_addref(zend_string *s) {
  if (!ZSTR_IS_INTERNED(s)) {
    return GC_ADDREF(s);
  }
  return 1;
}
static zend_always_inline uint32_t zend_string_delref(zend_string *s) {
  if (!ZSTR_IS_INTERNED(s)) {
    return GC_DELREF(s);
  }
  return 1;
}

static zend_always_inline zend_string *zend_string_dup(zend_string *s,
                                                       bool persistent) {
  if (ZSTR_IS_INTERNED(s)) {
    return s;
  }
  return zend_string_init(ZSTR_VAL(s), ZSTR_LEN(s), persistent);
}

static zend_always_inline void zend_string_free(zend_string *s) {
  if (!ZSTR_IS_INTERNED(s)) {
    pefree(s, GC_FLAGS(s) & IS_STR_PERSISTENT);
  }
}

static zend_always_inline void zend_string_release(zend_string *s) {
  if (!ZSTR_IS_INTERNED(s)) {
    if (GC_DELREF(s) == 0) {
      pefree(s, GC_FLAGS(s) & IS_STR_PERSISTENT);
    }
  }
}

static zend_always_inline void zend_string_release_ex(zend_string *s,
                                                      bool persistent) {
  (void)persistent;
  zend_string_release(s);
}

static zend_always_inline void zend_string_forget_hash_val(zend_string *s) {
  ZSTR_H(s) = 0;
}

/* Resizes `s` to `len` bytes (keeping min(len, old length) bytes and the
 * byte after them) and returns it. A string only the caller holds is
 * resized in place; an interned or shared one is copied and the caller's
 * reference to the original is dropped. The result is not terminated at
 * `len`: the caller writes the content and the NUL. */
static zend_always_inline zend_string *zend_string_realloc(zend_string *s,
                                                           size_t len,
                                                           bool persistent) {
  zend_string *ret;
  if (!ZSTR_IS_INTERNED(s) && EXPECTED(GC_REFCOUNT(s) == 1)) {
    ret = (zend_string *)perealloc(
        s, ZEND_MM_ALIGNED_SIZE(_ZSTR_STRUCT_SIZE(len)), persistent);
    ZSTR_LEN(ret) = len;
    zend_string_forget_hash_val(ret);
    return ret;
  }
  ret = zend_string_alloc(len, persistent);
  memcpy(ZSTR_VAL(ret), ZSTR_VAL(s), MIN(len, ZSTR_LEN(s)) + 1);
  if (!ZSTR_IS_INTERNED(s)) {
    GC_DELREF(s);
  }
  return ret;
}

/* zend_string_realloc for growing (len >= ZSTR_LEN(s)) / shrinking
 * (len <= ZSTR_LEN(s)). */
static zend_always_inline zend_string *zend_string_extend(zend_string *s,
                                                          size_t len,
                                                          bool persistent) {
  ZEND_ASSERT(len >= ZSTR_LEN(s));
  return zend_string_realloc(s, len, persistent);
}
static zend_always_inline zend_string *zend_string_truncate(zend_string *s,
                                                            size_t len,
                                                            bool persistent) {
  ZEND_ASSERT(len <= ZSTR_LEN(s));
  return zend_string_realloc(s, len, persistent);
}

static zend_always_inline bool zend_string_equal_val(const zend_string *s1,
                                                     const zend_string *s2) {
  return ZSTR_LEN(s1) == ZSTR_LEN(s2) &&
         !memcmp(ZSTR_VAL(s1), ZSTR_VAL(s2), ZSTR_LEN(s1));
}

static zend_always_inline bool zend_string_equals(const zend_string *s1,
                                                  const zend_string *s2) {
  return s1 == s2 || zend_string_equal_val(s1, s2);
}

#define zend_string_equals_literal(str, literal) \
  (ZSTR_LEN(str) == sizeof(literal) - 1 &&       \
   !memcmp(ZSTR_VAL(str), literal, sizeof(literal) - 1))

/* ASCII case-insensitive equality (zend_binary_strcasecmp,
 * zend_operators.h). */
#define zend_string_equals_ci(s1, s2)                                \
  (ZSTR_LEN(s1) == ZSTR_LEN(s2) &&                                   \
   !zend_binary_strcasecmp(ZSTR_VAL(s1), ZSTR_LEN(s1), ZSTR_VAL(s2), \
                           ZSTR_LEN(s2)))
#define zend_string_equals_literal_ci(str, c) \
  (ZSTR_LEN(str) == sizeof("" c) - 1 &&       \
   !zend_binary_strcasecmp(ZSTR_VAL(str), ZSTR_LEN(str), (c), sizeof(c) - 1))

END_EXTERN_C()

#endif /* ZEND_STRING_H */
