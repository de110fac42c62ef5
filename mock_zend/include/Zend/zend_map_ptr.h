/*
 * zend-async-ref: mock Zend engine.
 *
 * Map pointers (Zend/zend_map_ptr.h): a field declared with
 * ZEND_MAP_PTR_DEF holds either a plain pointer or, when its lowest bit is
 * set, the offset of a slot in the table CG(map_ptr_base) points into, so
 * shared (immutable) op arrays can keep per-request values such as their
 * run-time cache. PHP has one kind, ZEND_MAP_PTR_KIND_PTR_OR_OFFSET, in
 * ZTS and non-ZTS builds; the mock has the same. The table is real:
 * zend_map_ptr_new() hands out slots that hold NULL until set, every slot
 * is cleared by zend_map_ptr_reset() and at module shutdown the table is
 * freed.
 */
#ifndef ZEND_MAP_PTR_H
#define ZEND_MAP_PTR_H

#include "zend_portability.h"

#define ZEND_MAP_PTR_KIND_PTR 0
#define ZEND_MAP_PTR_KIND_PTR_OR_OFFSET 1

#define ZEND_MAP_PTR_KIND ZEND_MAP_PTR_KIND_PTR_OR_OFFSET

#define ZEND_MAP_PTR(ptr) ptr##__ptr
#define ZEND_MAP_PTR_DEF(type, name) type ZEND_MAP_PTR(name)
#define ZEND_MAP_PTR_OFFSET2PTR(offset) \
  ((void **)((char *)CG(map_ptr_base) + offset))
#define ZEND_MAP_PTR_PTR2OFFSET(ptr) \
  ((void *)(((char *)(ptr)) - ((char *)CG(map_ptr_base))))
#define ZEND_MAP_PTR_INIT(ptr, val) \
  do {                              \
    ZEND_MAP_PTR(ptr) = (val);      \
  } while (0)
#define ZEND_MAP_PTR_NEW(ptr)               \
  do {                                      \
    ZEND_MAP_PTR(ptr) = zend_map_ptr_new(); \
  } while (0)
#define ZEND_MAP_PTR_NEW_OFFSET() ((uint32_t)(uintptr_t)zend_map_ptr_new())
#define ZEND_MAP_PTR_IS_OFFSET(ptr) (((uintptr_t)ZEND_MAP_PTR(ptr)) & 1L)
#define ZEND_MAP_PTR_GET(ptr)                               \
  ((ZEND_MAP_PTR_IS_OFFSET(ptr) ? ZEND_MAP_PTR_GET_IMM(ptr) \
                                : ((void *)(ZEND_MAP_PTR(ptr)))))
#define ZEND_MAP_PTR_GET_IMM(ptr) \
  (*ZEND_MAP_PTR_OFFSET2PTR((uintptr_t)ZEND_MAP_PTR(ptr)))
#define ZEND_MAP_PTR_SET(ptr, val)     \
  do {                                 \
    if (ZEND_MAP_PTR_IS_OFFSET(ptr)) { \
      ZEND_MAP_PTR_SET_IMM(ptr, val);  \
    } else {                           \
      ZEND_MAP_PTR_INIT(ptr, val);     \
    }                                  \
  } while (0)
#define ZEND_MAP_PTR_SET_IMM(ptr, val)                                  \
  do {                                                                  \
    void **__p = ZEND_MAP_PTR_OFFSET2PTR((uintptr_t)ZEND_MAP_PTR(ptr)); \
    *__p = (val);                                                       \
  } while (0)
/* The table's base is biased by one so that every offset is odd. */
#define ZEND_MAP_PTR_BIASED_BASE(real_base) \
  ((void *)(((uintptr_t)(real_base)) - 1))

BEGIN_EXTERN_C()

/* Clears every slot (PHP does this at request startup). */
ZEND_API void zend_map_ptr_reset(void);
/* A new slot holding NULL; returns its offset (odd, see above). */
ZEND_API void *zend_map_ptr_new(void);
/* Grows the table to `last` slots; the new ones hold NULL. */
ZEND_API void zend_map_ptr_extend(size_t last);

END_EXTERN_C()

#endif /* ZEND_MAP_PTR_H */
