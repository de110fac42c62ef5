/*
 * zend-async-ref: mock Zend engine.
 *
 * The cycle collector. gc_collect_cycles() looks at every live object,
 * computes which ones are reachable only through other objects (via each
 * object's get_gc handler and, for closures, their captured values), and
 * frees those garbage cycles: destructors first, then free_obj, then the
 * memory, each exactly once. It returns the number of objects freed.
 *
 * An object whose get_gc under-reports what it holds is kept alive (a
 * leak the allocator then reports); one that over-reports may be freed
 * while referenced, which ASan will catch.
 */
#ifndef ZEND_GC_H
#define ZEND_GC_H

#include "zend_types.h"
/* As PHP 8.3+, whose zend_gc_status counts in zend_hrtime_t: zend.h reaches
 * zend_hrtime() through here. */
#include "zend_hrtime.h"

BEGIN_EXTERN_C()

ZEND_API int zend_gc_collect_cycles(void);
#define gc_collect_cycles zend_gc_collect_cycles
ZEND_API bool gc_enabled(void);
ZEND_API bool gc_enable(bool enable);
/* Protection: while protected, PHP records no possible roots, so no cycle
 * is collected; in the mock zend_gc_collect_cycles() returns 0 without
 * looking. gc_protect returns the previous setting. PHP arms it when a
 * bailout unwinds; code that recovers from a bailout restores it. */
ZEND_API bool gc_protect(bool protect);
ZEND_API bool gc_protected(void);
static zend_always_inline void gc_possible_root(zend_refcounted *ref) {
  (void)ref;
}
static zend_always_inline void gc_check_possible_root(zend_refcounted *ref) {
  (void)ref;
}

/* A scratch buffer for get_gc handlers, as in PHP 8. */
typedef struct {
  zval *cur;
  zval *end;
  zval *start;
} zend_get_gc_buffer;

ZEND_API zend_get_gc_buffer *zend_get_gc_buffer_create(void);
ZEND_API void zend_get_gc_buffer_grow(zend_get_gc_buffer *gc_buffer);

static zend_always_inline void zend_get_gc_buffer_add_zval(
    zend_get_gc_buffer *gc_buffer, zval *zv) {
  if (Z_REFCOUNTED_P(zv)) {
    if (UNEXPECTED(gc_buffer->cur == gc_buffer->end)) {
      zend_get_gc_buffer_grow(gc_buffer);
    }
    ZVAL_COPY_VALUE(gc_buffer->cur, zv);
    gc_buffer->cur++;
  }
}

static zend_always_inline void zend_get_gc_buffer_add_obj(
    zend_get_gc_buffer *gc_buffer, zend_object *obj) {
  if (UNEXPECTED(gc_buffer->cur == gc_buffer->end)) {
    zend_get_gc_buffer_grow(gc_buffer);
  }
  ZVAL_OBJ(gc_buffer->cur, obj);
  gc_buffer->cur++;
}

/* An array the object holds (immutable arrays hold nothing and are left
 * out). */
static zend_always_inline void zend_get_gc_buffer_add_ht(
    zend_get_gc_buffer *gc_buffer, HashTable *ht) {
  if (GC_FLAGS(ht) & IS_ARRAY_IMMUTABLE) return;
  if (UNEXPECTED(gc_buffer->cur == gc_buffer->end)) {
    zend_get_gc_buffer_grow(gc_buffer);
  }
  ZVAL_ARR(gc_buffer->cur, ht);
  gc_buffer->cur++;
}

static zend_always_inline void zend_get_gc_buffer_use(
    zend_get_gc_buffer *gc_buffer, zval **table, int *n) {
  *table = gc_buffer->start;
  *n = (int)(gc_buffer->cur - gc_buffer->start);
}

END_EXTERN_C()

#endif /* ZEND_GC_H */
