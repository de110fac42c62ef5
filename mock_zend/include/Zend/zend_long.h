/*
 * zend-async-ref: mock Zend engine. The limits and formats of zend_long and
 * zend_ulong (PHP's zend_long.h). The mock is always a 64-bit build:
 * zend_long is int64_t, zend_ulong uint64_t (zend_types.h).
 */
#ifndef ZEND_LONG_H
#define ZEND_LONG_H

#include <inttypes.h>
#include <stdint.h>

#define ZEND_ENABLE_ZVAL_LONG64 1
#define SIZEOF_ZEND_LONG 8

#define ZEND_LONG_MAX INT64_MAX
#define ZEND_LONG_MIN INT64_MIN
#define ZEND_ULONG_MAX UINT64_MAX
#define ZEND_STRTOL(s0, s1, base) strtoll((s0), (s1), (base))
#define ZEND_STRTOUL(s0, s1, base) strtoull((s0), (s1), (base))
/* Characters of the longest zend_long written in decimal, its sign
 * included ("-9223372036854775808"). */
#define MAX_LENGTH_OF_LONG 20
#define ZEND_LONG_FMT "%" PRId64
#define ZEND_ULONG_FMT "%" PRIu64

#endif /* ZEND_LONG_H */
