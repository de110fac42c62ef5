/*
 * zend-async-ref: mock Zend engine.
 *
 * The object handler table. Field names follow PHP; the mock keeps the
 * handlers the ABI and its consumers use. `offset` is the distance from the
 * start of the enclosing C struct to its embedded zend_object, which is how
 * ZEND_ASYNC_OBJECT_TO_EVENT finds the event of an object.
 *
 * Lifetime: when an object's refcount drops to zero the engine calls
 * dtor_obj (once), then free_obj (once), then frees the memory at
 * (char*)obj - offset. free_obj must release what the object owns and must
 * not free the object's own memory.
 */
#ifndef ZEND_OBJECT_HANDLERS_H
#define ZEND_OBJECT_HANDLERS_H

#include "zend_types.h"

BEGIN_EXTERN_C()

typedef void (*zend_object_free_obj_t)(zend_object *object);
typedef void (*zend_object_dtor_obj_t)(zend_object *object);
typedef zend_object *(*zend_object_clone_obj_t)(zend_object *old_object);
/* Reports the zvals the object holds (for the cycle collector): either a
 * table of *n zvals, or a HashTable (returned), or both. */
typedef HashTable *(*zend_object_get_gc_t)(zend_object *object, zval **table,
                                           int *n);
typedef HashTable *(*zend_object_get_properties_t)(zend_object *object);
typedef zend_function *(*zend_object_get_method_t)(zend_object **object,
                                                   zend_string *method,
                                                   const zval *key);
typedef zend_function *(*zend_object_get_constructor_t)(zend_object *object);
typedef zend_result (*zend_object_count_elements_t)(zend_object *object,
                                                    zend_long *count);
typedef int (*zend_object_compare_t)(zval *object1, zval *object2);
typedef zend_string *(*zend_object_get_class_name_t)(const zend_object *object);

/* TrueAsync's php-src: moving an object between threads. TRANSFER builds a
 * persistent transit copy of `object` (on the source thread), LOAD builds a
 * request object from a transit copy (on the destination thread), and
 * TRANSFER_RELEASE frees what a handler put in a transit copy that is being
 * released (ctx and default_fn are NULL then; the handler returns NULL).
 * default_fn is the default copy for the same direction: alloc_size is the
 * size of the enclosing struct on TRANSFER (0: offset + object + declared
 * properties) and is ignored on LOAD. */
struct _zend_async_thread_transfer_ctx_s; /* Zend/zend_async_API.h */

typedef enum {
  ZEND_OBJECT_TRANSFER,        /* emalloc -> pemalloc (send to a thread) */
  ZEND_OBJECT_LOAD,            /* pemalloc -> emalloc (receive) */
  ZEND_OBJECT_TRANSFER_RELEASE /* free a transit copy's extra state */
} zend_object_transfer_kind_t;

typedef zend_object *(*zend_object_transfer_default_fn)(
    const zend_object *src, struct _zend_async_thread_transfer_ctx_s *ctx,
    size_t alloc_size);

typedef zend_object *(*zend_object_transfer_obj_t)(
    zend_object *object, struct _zend_async_thread_transfer_ctx_s *ctx,
    zend_object_transfer_kind_t kind,
    zend_object_transfer_default_fn default_fn);

struct _zend_object_handlers {
  int offset;                          /* required */
  zend_object_free_obj_t free_obj;     /* required */
  zend_object_dtor_obj_t dtor_obj;     /* required */
  zend_object_clone_obj_t clone_obj;   /* optional, NULL = not cloneable */
  zend_object_get_method_t get_method; /* required */
  zend_object_get_constructor_t get_constructor; /* required */
  zend_object_get_class_name_t get_class_name;   /* required */
  zend_object_get_properties_t get_properties;   /* required */
  zend_object_count_elements_t count_elements;   /* optional, may be NULL */
  zend_object_get_gc_t get_gc;                   /* required */
  zend_object_compare_t compare;                 /* required */
  zend_object_transfer_obj_t transfer_obj;       /* optional, may be NULL */
};

ZEND_API extern const zend_object_handlers std_object_handlers;
#define zend_get_std_object_handlers() (&std_object_handlers)

ZEND_API void zend_object_std_dtor(zend_object *object);
ZEND_API void zend_objects_destroy_object(zend_object *object);
ZEND_API zend_function *zend_std_get_method(zend_object **obj_ptr,
                                            zend_string *method_name,
                                            const zval *key);
ZEND_API zend_function *zend_std_get_constructor(zend_object *object);
ZEND_API zend_string *zend_std_get_class_name(const zend_object *zobj);
ZEND_API HashTable *zend_std_get_properties(zend_object *object);
ZEND_API HashTable *zend_std_get_gc(zend_object *object, zval **table, int *n);
ZEND_API int zend_std_compare_objects(zval *o1, zval *o2);

END_EXTERN_C()

#endif /* ZEND_OBJECT_HANDLERS_H */
