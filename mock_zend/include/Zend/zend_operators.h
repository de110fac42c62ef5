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

END_EXTERN_C()

#endif /* ZEND_OPERATORS_H */
