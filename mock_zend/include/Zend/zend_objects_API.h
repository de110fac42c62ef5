/*
 * zend-async-ref: mock Zend engine.
 *
 * The object store: every live object has a handle, its index in
 * EG(objects_store). Handles start at 1 and freed handles are reused most
 * recently freed first, as in PHP.
 *
 * Release: zend_object_release()/OBJ_RELEASE drop one reference; at zero the
 * store runs dtor_obj (unless already called), then free_obj (unless already
 * called), then frees the memory at (char*)obj - handlers->offset. The
 * cycle collector (gc_collect_cycles) uses the same flags to free garbage
 * cycles exactly once.
 */
#ifndef ZEND_OBJECTS_API_H
#define ZEND_OBJECTS_API_H

#include "zend.h"

BEGIN_EXTERN_C()

typedef struct _zend_objects_store {
  zend_object **object_buckets;
  uint32_t top;  /* next never-used handle */
  uint32_t size; /* capacity of object_buckets */
  int free_list_head;
} zend_objects_store;

/* A bucket whose low bit is set holds no live object: a released one
 * being freed, or a free-list link. Only valid buckets may be
 * dereferenced. */
#define OBJ_BUCKET_INVALID (1 << 0)
#define IS_OBJ_VALID(o) (!(((uintptr_t)(o)) & OBJ_BUCKET_INVALID))

ZEND_API void zend_objects_store_put(zend_object *object);
ZEND_API void zend_objects_store_del(zend_object *object);
/* Number of objects currently alive in the store (mock extension). */
ZEND_API uint32_t zend_objects_store_live_count(void);

static zend_always_inline void zend_object_release(zend_object *obj) {
  if (GC_DELREF(obj) == 0) {
    zend_objects_store_del(obj);
  }
}

#define OBJ_RELEASE(obj) zend_object_release(obj)

static zend_always_inline size_t
zend_object_properties_size(const zend_class_entry *ce) {
  return sizeof(zval) * (ce->default_properties_count - 1);
}

/* Allocates an object of `obj_size` bytes whose last member is the
 * zend_object, with room for the class's declared properties. Only the
 * enclosing struct (not the property slots) is zeroed. */
static zend_always_inline void *zend_object_alloc(size_t obj_size,
                                                  zend_class_entry *ce) {
  void *obj = emalloc(obj_size + zend_object_properties_size(ce));
  memset(obj, 0, obj_size - sizeof(zend_object));
  return obj;
}

END_EXTERN_C()

#endif /* ZEND_OBJECTS_API_H */
