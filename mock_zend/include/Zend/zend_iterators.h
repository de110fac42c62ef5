/*
 * zend-async-ref: mock Zend engine.
 *
 * Object iterators (PHP's zend_iterators.h): how an extension lets foreach
 * walk its objects. A class's get_iterator handler (zend_class_entry)
 * returns a zend_object_iterator: the extension allocates its own struct
 * with the iterator first, calls zend_iterator_init() on it and fills
 * funcs and data. The iterator is then a refcounted object of the object
 * store (refcount 1, the caller's); zend_iterator_dtor() releases that
 * reference, and when the last one goes the store calls funcs->dtor and
 * frees the memory itself (funcs->dtor releases what the iterator holds,
 * never the iterator). The store frees whatever a request leaves alive.
 *
 * funcs (PHP's contract):
 *   dtor                 releases what the iterator holds        required
 *   valid                SUCCESS while there is a current element  required
 *   get_current_data     the current value (borrowed)            required
 *   get_current_key      writes the current key (owned)          optional:
 *                        without it the key is `index`
 *   move_forward         advances                                required
 *   rewind               back to the first element               optional
 *   invalidate_current   drops cached current data               optional
 *   get_gc               the zvals the iterator holds            optional
 * Any of them may throw (EG(exception)). `index` counts the elements a
 * foreach-like consumer has moved past (spl_iterator_apply,
 * InternalIterator); the iterator itself does not touch it.
 */
#ifndef ZEND_ITERATORS_H
#define ZEND_ITERATORS_H

#include "zend_types.h"

BEGIN_EXTERN_C()

typedef struct _zend_object_iterator_funcs {
  void (*dtor)(zend_object_iterator *iter);
  zend_result (*valid)(zend_object_iterator *iter);
  zval *(*get_current_data)(zend_object_iterator *iter);
  void (*get_current_key)(zend_object_iterator *iter, zval *key);
  void (*move_forward)(zend_object_iterator *iter);
  void (*rewind)(zend_object_iterator *iter);
  void (*invalidate_current)(zend_object_iterator *iter);
  HashTable *(*get_gc)(zend_object_iterator *iter, zval **table, int *n);
} zend_object_iterator_funcs;

struct _zend_object_iterator {
  zend_object std;
  zval data;
  const zend_object_iterator_funcs *funcs;
  zend_ulong index; /* private to fe_reset/fe_fetch opcodes */
};

/* The methods of an Iterator / IteratorAggregate class (PHP caches them in
 * zend_class_entry.iterator_funcs_ptr). The mock looks the methods up by
 * name and leaves iterator_funcs_ptr NULL. */
typedef struct _zend_class_iterator_funcs {
  zend_function *zf_new_iterator;
  zend_function *zf_valid;
  zend_function *zf_current;
  zend_function *zf_key;
  zend_function *zf_next;
  zend_function *zf_rewind;
} zend_class_iterator_funcs;

/* The iterator a zval wraps (an object made by zend_iterator_init), or
 * NULL when the zval holds anything else. */
ZEND_API zend_object_iterator *zend_iterator_unwrap(zval *array_ptr);

/* Makes `iter` an object of the store (refcount 1) of the internal class
 * "__iterator_wrapper"; see above. */
ZEND_API void zend_iterator_init(zend_object_iterator *iter);
/* Releases one reference; the last one destroys the iterator. */
ZEND_API void zend_iterator_dtor(zend_object_iterator *iter);

/* PHP's engine startup step; the mock's engine does it itself (no-op). */
ZEND_API void zend_register_iterator_wrapper(void);

END_EXTERN_C()

#endif /* ZEND_ITERATORS_H */
