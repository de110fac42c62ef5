/*
 * zend-async-ref: mock Zend engine. Type tests and conversions.
 */
#ifndef ZEND_OPERATORS_H
#define ZEND_OPERATORS_H

#include "zend.h"

BEGIN_EXTERN_C()

ZEND_API bool instanceof_function_slow(const zend_class_entry *instance_ce,
                                       const zend_class_entry *ce);

/* True when instance_ce is ce, extends it, or implements it. */
static zend_always_inline bool instanceof_function(
    const zend_class_entry *instance_ce, const zend_class_entry *ce) {
  return instance_ce == ce || instanceof_function_slow(instance_ce, ce);
}

ZEND_API bool zend_is_true(const zval *op);
ZEND_API bool zend_is_identical(const zval *op1, const zval *op2);
ZEND_API zend_long zval_get_long(const zval *op);
/* Returns a new reference to the string form of `op`. */
ZEND_API zend_string *zval_get_string(zval *op);
/* The decimal text of `num` (what zval_get_string gives an int). */
ZEND_API zend_string *ZEND_FASTCALL zend_long_to_str(zend_long num);
/* zval_get_string for a conversion that may fail: NULL, with the exception
 * in EG(exception), when converting `op` threw (an object without
 * __toString, or one whose __toString threw); else a new reference. */
ZEND_API zend_string *ZEND_FASTCALL zval_try_get_string_func(zval *op);
static zend_always_inline zend_string *zval_try_get_string(zval *op) {
  if (EXPECTED(Z_TYPE_P(op) == IS_STRING)) {
    return zend_string_copy(Z_STR_P(op));
  }
  return zval_try_get_string_func(op);
}
/* Converts `op` in place to its string form (zval_get_string's rules;
 * after a failed object conversion the value is the empty string). */
ZEND_API void ZEND_FASTCALL _convert_to_string(zval *op);
#define convert_to_string(op) \
  if (Z_TYPE_P(op) != IS_STRING) _convert_to_string((op))
ZEND_API void zend_str_tolower(char *str, size_t length);
/* Compares at most `length` bytes of s1 (len1 bytes) and s2 (len2 bytes),
 * ASCII case-insensitively: < 0, 0 or > 0; when one is a prefix of the
 * other within `length`, the shorter compares lower. */
ZEND_API int ZEND_FASTCALL zend_binary_strncasecmp(const char *s1, size_t len1,
                                                   const char *s2, size_t len2,
                                                   size_t length);
/* The first ASCII case-insensitive occurrence of needle (needle_len bytes)
 * in [haystack, end), or NULL; `haystack` itself for an empty needle. */
ZEND_API const char *ZEND_FASTCALL zend_memnistr(const char *haystack,
                                                 const char *needle,
                                                 size_t needle_len,
                                                 const char *end);
/* Compares s1 and s2 byte-wise, ASCII case-insensitively; <0, 0 or >0
 * (a proper prefix sorts first). */
ZEND_API int ZEND_FASTCALL zend_binary_strcasecmp(const char *s1, size_t len1,
                                                  const char *s2, size_t len2);

/* Writes the decimal digits of `num` so that they end just before `buf`
 * (where a NUL is stored) and returns the first digit. `buf` must have 20
 * (unsigned) / 21 (signed) bytes of room before it. */
static zend_always_inline char *zend_print_ulong_to_buf(char *buf,
                                                        zend_ulong num) {
  *buf = '\0';
  do {
    *--buf = (char)(num % 10) + '0';
    num /= 10;
  } while (num > 0);
  return buf;
}

static zend_always_inline char *zend_print_long_to_buf(char *buf,
                                                       zend_long num) {
  if (num < 0) {
    char *result = zend_print_ulong_to_buf(buf, ~((zend_ulong)num) + 1);
    *--result = '-';
    return result;
  }
  return zend_print_ulong_to_buf(buf, (zend_ulong)num);
}

END_EXTERN_C()

#endif /* ZEND_OPERATORS_H */
