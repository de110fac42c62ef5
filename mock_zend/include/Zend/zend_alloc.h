/*
 * zend-async-ref: mock Zend engine.
 *
 * The request allocator. emalloc() blocks belong to the current request:
 * every live block is recorded with its allocation site, and
 * php_request_shutdown() reports (and then frees) each block still alive, as
 * PHP debug builds do. Blocks are 8-byte aligned (ZEND_MM_ALIGNMENT).
 * Two mechanisms serve them, chosen when the engine starts, as in PHP: the
 * heap (PHP's size-class bins carved out of 2 MiB chunks; larger blocks
 * malloc'd one by one), and, with USE_ZEND_ALLOC=0 in the environment and
 * always in the sanitizer builds, a malloc per block (is_zend_mm() false).
 * pemalloc(size, 1) is the persistent allocator: its blocks are not tracked
 * one by one, only counted (zend_mock_persistent_blocks()).
 *
 * Failure: allocation failure and size overflow are fatal (the process
 * aborts with a message), as in PHP.
 *
 * Threading: the request allocator belongs to the thread running the request.
 * The persistent allocator (pemalloc(size, 1), pefree(ptr, 1), pestrdup(s, 1))
 * is malloc and free, and serves any thread: a thread body or a pool worker
 * without an engine (docs/threads.md) allocates only with it. Its count is
 * atomic.
 */
#ifndef ZEND_ALLOC_H
#define ZEND_ALLOC_H

#include "zend_portability.h"

/* PHP's heap geometry: 2 MiB chunks of 4 KiB pages, blocks up to 3072
 * bytes in size classes (the heap's elements keep a 16-byte header of the
 * allocation site, so a block up to 3056 bytes is small). */
#define ZEND_MM_CHUNK_SIZE ((size_t)(2 * 1024 * 1024))
#define ZEND_MM_PAGE_SIZE (4 * 1024)
#define ZEND_MM_PAGES (ZEND_MM_CHUNK_SIZE / ZEND_MM_PAGE_SIZE)
#define ZEND_MM_FIRST_PAGE (1)
#define ZEND_MM_MIN_SMALL_SIZE 8
#define ZEND_MM_MAX_SMALL_SIZE 3072
#define ZEND_MM_MAX_LARGE_SIZE (ZEND_MM_CHUNK_SIZE - ZEND_MM_PAGE_SIZE)

BEGIN_EXTERN_C()

ZEND_API void *_emalloc(size_t size ZEND_FILE_LINE_DC);
ZEND_API void *_ecalloc(size_t nmemb, size_t size ZEND_FILE_LINE_DC);
ZEND_API void *_erealloc(void *ptr, size_t size ZEND_FILE_LINE_DC);
ZEND_API void *_safe_emalloc(size_t nmemb, size_t size,
                             size_t offset ZEND_FILE_LINE_DC);
ZEND_API void *_safe_erealloc(void *ptr, size_t nmemb, size_t size,
                              size_t offset ZEND_FILE_LINE_DC);
ZEND_API char *_estrdup(const char *s ZEND_FILE_LINE_DC);
ZEND_API char *_estrndup(const char *s, size_t length ZEND_FILE_LINE_DC);
ZEND_API void _efree(void *ptr ZEND_FILE_LINE_DC);
/* The bytes the block at `ptr` can hold: its size class's room on the heap,
 * the requested size for a block malloc'd on its own. */
ZEND_API size_t _zend_mem_block_size(void *ptr ZEND_FILE_LINE_DC);
/* Like _erealloc, but only the first `copy_size` bytes (at most `size`)
 * are guaranteed to be kept: the rest of the old block may be dropped. */
ZEND_API void *_erealloc2(void *ptr, size_t size,
                          size_t copy_size ZEND_FILE_LINE_DC);

ZEND_API void *__zend_malloc(size_t len);
ZEND_API void *__zend_calloc(size_t nmemb, size_t len);
ZEND_API void *__zend_realloc(void *p, size_t len);
ZEND_API char *__zend_strdup(const char *s);
/* pefree(ptr, 1): free(ptr), counted. */
ZEND_API void zend_mock_persistent_free(void *ptr);
ZEND_API void *_safe_malloc(size_t nmemb, size_t size, size_t offset);
ZEND_API void *_safe_realloc(void *ptr, size_t nmemb, size_t size,
                             size_t offset);

#define emalloc(size) _emalloc((size)ZEND_FILE_LINE_CC)
#define ecalloc(nmemb, size) _ecalloc((nmemb), (size)ZEND_FILE_LINE_CC)
#define erealloc(ptr, size) _erealloc((ptr), (size)ZEND_FILE_LINE_CC)
#define erealloc2(ptr, size, copy_size) \
  _erealloc2((ptr), (size), (copy_size)ZEND_FILE_LINE_CC)
#define safe_emalloc(nmemb, size, offset) \
  _safe_emalloc((nmemb), (size), (offset)ZEND_FILE_LINE_CC)
#define safe_erealloc(ptr, nmemb, size, offset) \
  _safe_erealloc((ptr), (nmemb), (size), (offset)ZEND_FILE_LINE_CC)
#define estrdup(s) _estrdup((s)ZEND_FILE_LINE_CC)
#define estrndup(s, length) _estrndup((s), (length)ZEND_FILE_LINE_CC)
#define efree(ptr) _efree((ptr)ZEND_FILE_LINE_CC)
#define efree_size(ptr, size) efree(ptr)
#define zend_mem_block_size(ptr) _zend_mem_block_size((ptr)ZEND_FILE_LINE_CC)

#define pemalloc(size, persistent) \
  ((persistent) ? __zend_malloc(size) : emalloc(size))
#define pecalloc(nmemb, size, persistent) \
  ((persistent) ? __zend_calloc((nmemb), (size)) : ecalloc((nmemb), (size)))
#define perealloc(ptr, size, persistent) \
  ((persistent) ? __zend_realloc((ptr), (size)) : erealloc((ptr), (size)))
#define perealloc2(ptr, size, copy_size, persistent) \
  ((persistent) ? __zend_realloc((ptr), (size))      \
                : erealloc2((ptr), (size), (copy_size)))
#define safe_pemalloc(nmemb, size, offset, persistent)    \
  ((persistent) ? _safe_malloc((nmemb), (size), (offset)) \
                : safe_emalloc((nmemb), (size), (offset)))
#define safe_perealloc(ptr, nmemb, size, offset, persistent)      \
  ((persistent) ? _safe_realloc((ptr), (nmemb), (size), (offset)) \
                : safe_erealloc((ptr), (nmemb), (size), (offset)))
#define pefree(ptr, persistent) \
  ((persistent) ? zend_mock_persistent_free(ptr) : efree(ptr))
#define pestrdup(s, persistent) ((persistent) ? __zend_strdup(s) : estrdup(s))

/* True (and the flag cleared) when the latest bailout was an out-of-memory
 * error of the allocator (true-async/php-src). The mock sets no memory
 * limit and never bails out for lack of memory: always false. */
ZEND_API bool zend_alloc_pop_is_oom(void);

/* True when emalloc is the heap, false when it is the system allocator
 * (USE_ZEND_ALLOC=0 when the engine started; the sanitizer builds). */
ZEND_API bool is_zend_mm(void);

/* Accounting of the request allocator (mock extension). */
typedef struct _zend_mm_leak_info {
  size_t leaked_blocks;
  size_t leaked_bytes;
} zend_mm_leak_info;

/* Number of emalloc() blocks currently alive. */
ZEND_API size_t zend_mm_live_blocks(void);
/* Bytes in emalloc() blocks currently alive. */
ZEND_API size_t zend_mm_live_bytes(void);
/* Persistent blocks alive (mock extension): those the persistent allocator
 * handed out (pemalloc, pecalloc, perealloc of NULL, pestrdup, ...) minus
 * those given back with pefree(ptr, 1), over the whole process and every
 * thread. A block freed with free() itself is not seen: tests compare the
 * count before and after what they watch. */
ZEND_API size_t zend_mock_persistent_blocks(void);
/* Leaks found by the last php_request_shutdown() (or zend_mm_check_leaks). */
ZEND_API zend_mm_leak_info zend_mm_last_leaks(void);
/* Reports every live block on stderr ("file(line) : Freeing 0x... (N bytes)"),
 * frees it and returns the totals: the heap's blocks chunk by chunk in
 * address order, then the blocks malloc'd on their own oldest first. The
 * heap's chunks go back (one is kept for the next request). Called by
 * php_request_shutdown(). */
ZEND_API zend_mm_leak_info zend_mm_check_leaks(void);

END_EXTERN_C()

#endif /* ZEND_ALLOC_H */
