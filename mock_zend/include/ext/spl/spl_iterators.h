/*
 * zend-async-ref: mock Zend engine. SPL's C entry point for walking a
 * Traversable object (PHP's ext/spl/spl_iterators.h); the SPL iterator
 * classes themselves are not provided.
 */
#ifndef SPL_ITERATORS_H
#define SPL_ITERATORS_H

#include "php.h"

BEGIN_EXTERN_C()

/* Called once per element with the iterator positioned on it (its
 * get_current_data / get_current_key give the element; iter->index counts
 * from 0). Returning ZEND_HASH_APPLY_STOP ends the walk. */
typedef int (*spl_iterator_apply_func_t)(zend_object_iterator *iter,
                                         void *puser);

/* Walks `obj` as foreach does: its class's get_iterator (by value), then
 * rewind, and while valid: apply_func, move_forward. Stops at the first
 * exception (left pending). The iterator is released at the end. SUCCESS
 * unless an exception is pending. */
PHPAPI zend_result spl_iterator_apply(zval *obj,
                                      spl_iterator_apply_func_t apply_func,
                                      void *puser);

END_EXTERN_C()

#endif /* SPL_ITERATORS_H */
