/*
 * zend-async-ref: mock Zend engine.
 *
 * Object iterators (PHP's zend_iterators.h): the struct and the method
 * table an extension fills to walk an object the way foreach does, in
 * PHP's field order. Header only: the mock has no class get_iterator
 * machinery (zend_iterator_init / zend_iterator_dtor and the iterator
 * wrapper object are not implemented), so whoever makes an iterator owns
 * its memory and calls funcs->dtor itself.
 *
 * funcs (PHP's contract):
 *   dtor                 frees the iterator                  required
 *   valid                SUCCESS while there is a current element  required
 *   get_current_data     the current value (borrowed)        required
 *   get_current_key      writes the current key (owned)      optional
 *   move_forward         advances                            required
 *   rewind               back to the first element           optional
 *   invalidate_current   drops cached current data           optional
 *   get_gc               the zvals the iterator holds        optional
 * Any of them may throw (EG(exception)).
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
  zend_ulong index; /* private to foreach */
};

END_EXTERN_C()

#endif /* ZEND_ITERATORS_H */
