/*
 * zend-async-ref: mock Zend engine.
 *
 * Compiler and platform helpers under PHP's names. Only GCC/Clang on
 * 64-bit POSIX targets are supported; this is what PHP's own
 * zend_portability.h reduces to on that platform.
 */
#ifndef ZEND_PORTABILITY_H
#define ZEND_PORTABILITY_H

/* The configuration first, before any system header, as PHP's
 * zend_config.h brings main/php_config.h: it makes the GNU/POSIX API
 * visible (sigjmp_buf, struct addrinfo and friends). The installed package
 * also passes -D_GNU_SOURCE, which covers translation units that include a
 * system header before any PHP header. */
// clang-format off
#include "../main/php_config.h"
// clang-format on

#include <alloca.h>
#include <assert.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#ifdef __cplusplus
#define BEGIN_EXTERN_C() extern "C" {
#define END_EXTERN_C() }
#else
#define BEGIN_EXTERN_C()
#define END_EXTERN_C()
#endif

/* Symbols of the engine are visible to extensions loaded with dlopen(). */
#define ZEND_API __attribute__((visibility("default")))
#define ZEND_DLEXPORT __attribute__((visibility("default")))

#define ZEND_COLD __attribute__((cold))
#define ZEND_NORETURN __attribute__((noreturn))
#define ZEND_ATTRIBUTE_FORMAT(type, idx, first) \
  __attribute__((format(type, idx, first)))
#define ZEND_ATTRIBUTE_UNUSED __attribute__((unused))
#define ZEND_FASTCALL

/* Thread-local storage of the engine: plain static in a non-ZTS build. */
#define ZEND_TLS static
#define ZEND_EXT_TLS

#ifdef __cplusplus
#define ZEND_STATIC_ASSERT(c, m) static_assert((c), m)
#else
#define ZEND_STATIC_ASSERT(c, m) _Static_assert((c), m)
#endif

#define zend_always_inline inline __attribute__((always_inline))
/* Realigns the stack on entry: for functions entered on a fresh stack
 * (fiber and coroutine entry points). */
#define ZEND_STACK_ALIGNED __attribute__((force_align_arg_pointer))
#define zend_never_inline __attribute__((noinline))

#define EXPECTED(condition) __builtin_expect(!!(condition), 1)
#define UNEXPECTED(condition) __builtin_expect(!!(condition), 0)

/* Like PHP's debug builds: an assertion that the code never relies on for
 * its effect. Upstream passes string literals ("msg") as a documentation
 * idiom; those are always true. */
#define ZEND_ASSERT(c) assert(c)
#define ZEND_UNREACHABLE() __builtin_unreachable()

#define XtOffsetOf(s_type, field) offsetof(s_type, field)

#define ZEND_MM_ALIGNMENT ((size_t)8)
#define ZEND_MM_ALIGNMENT_LOG2 3
#define ZEND_MM_ALIGNED_SIZE(size) \
  (((size) + ZEND_MM_ALIGNMENT - 1) & ~(ZEND_MM_ALIGNMENT - 1))
#define ZEND_MM_ALIGNED_SIZE_EX(size, alignment) \
  (((size) + ((alignment) - (size_t)1)) & ~((alignment) - (size_t)1))

#define ZEND_STRL(str) (str), (sizeof(str) - 1)
#define ZEND_STRS(str) (str), (sizeof(str))

#ifndef MIN
#define MIN(a, b) (((a) < (b)) ? (a) : (b))
#endif
#ifndef MAX
#define MAX(a, b) (((a) > (b)) ? (a) : (b))
#endif

/* PHP passes the allocation site to the allocator in debug builds; the mock
 * always does, so leak reports name the file and line of each block. */
#define ZEND_FILE_LINE_D \
  const char *__zend_filename, const uint32_t __zend_lineno
#define ZEND_FILE_LINE_DC , ZEND_FILE_LINE_D
#define ZEND_FILE_LINE_C __FILE__, __LINE__
#define ZEND_FILE_LINE_CC , __FILE__, __LINE__
#define ZEND_FILE_LINE_RELAY_C __zend_filename, __zend_lineno
#define ZEND_FILE_LINE_RELAY_CC , ZEND_FILE_LINE_RELAY_C

/* Stack buffers that fall back to the request heap above
 * ZEND_ALLOCA_MAX_SIZE bytes, as PHP on GCC/Clang: ALLOCA_FLAG(name)
 * declares the flag (with its semicolon), do_alloca sets it when the block
 * came from emalloc, and free_alloca then frees it. */
#define ZEND_ALLOCA_MAX_SIZE (32 * 1024)
#define ALLOCA_FLAG(name) bool name;
#define SET_ALLOCA_FLAG(name) name = true
#define do_alloca_ex(size, limit, use_heap) \
  ((use_heap = (UNEXPECTED((size) > (limit)))) ? emalloc(size) : alloca(size))
#define do_alloca(size, use_heap) \
  do_alloca_ex(size, ZEND_ALLOCA_MAX_SIZE, use_heap)
#define free_alloca(p, use_heap)        \
  do {                                  \
    if (UNEXPECTED(use_heap)) efree(p); \
  } while (0)

/* A socket descriptor that can be used (POSIX: not negative). */
#define ZEND_VALID_SOCKET(sock) ((sock) >= 0)

#include "zend_long.h"

#endif /* ZEND_PORTABILITY_H */
