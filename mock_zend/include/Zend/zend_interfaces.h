/*
 * zend-async-ref: mock Zend engine. Builtin interfaces and method calls.
 */
#ifndef ZEND_INTERFACES_H
#define ZEND_INTERFACES_H

#include "zend_API.h"

BEGIN_EXTERN_C()

ZEND_API extern zend_class_entry *zend_ce_traversable;
ZEND_API extern zend_class_entry *zend_ce_countable;
ZEND_API extern zend_class_entry *zend_ce_stringable;

/* Calls method `function_name` of `object` (looked up in obj_ce, or the
 * object's class when obj_ce is NULL) with up to two arguments. `fn_proxy`
 * may cache the lookup. Returns the retval pointer, or NULL when the call
 * failed (an exception is then pending). */
ZEND_API zval *zend_call_method(zend_object *object, zend_class_entry *obj_ce,
                                zend_function **fn_proxy,
                                const char *function_name,
                                size_t function_name_len, zval *retval,
                                uint32_t param_count, zval *arg1, zval *arg2);

#define zend_call_method_with_0_params(obj, obj_ce, fn_proxy, function_name, \
                                       retval)                               \
  zend_call_method(obj, obj_ce, fn_proxy, function_name,                     \
                   sizeof(function_name) - 1, retval, 0, NULL, NULL)
#define zend_call_method_with_1_params(obj, obj_ce, fn_proxy, function_name, \
                                       retval, arg1)                         \
  zend_call_method(obj, obj_ce, fn_proxy, function_name,                     \
                   sizeof(function_name) - 1, retval, 1, arg1, NULL)
#define zend_call_method_with_2_params(obj, obj_ce, fn_proxy, function_name, \
                                       retval, arg1, arg2)                   \
  zend_call_method(obj, obj_ce, fn_proxy, function_name,                     \
                   sizeof(function_name) - 1, retval, 2, arg1, arg2)

/* ---- Traversable objects ----
 * Iterator and IteratorAggregate extend Traversable. A class implementing
 * Iterator (zend_class_implements) gets a get_iterator that calls its
 * methods rewind(), valid(), current(), key() and next() (by name, in the
 * object's class); one implementing IteratorAggregate gets one that calls
 * getIterator() and iterates what it returns, which must be an object
 * whose class has a get_iterator (otherwise an Exception "Objects returned
 * by <class>::getIterator() must be traversable or implement interface
 * Iterator"). Either is installed only when the class has none yet, so an
 * internal class may set its own after registering, as in PHP.
 *
 * InternalIterator is PHP's final class that drives a get_iterator
 * iterator through the Iterator methods, rewinding it on first use. */
ZEND_API extern zend_class_entry *zend_ce_aggregate;
ZEND_API extern zend_class_entry *zend_ce_iterator;
ZEND_API extern zend_class_entry *zend_ce_internal_iterator;

/* The iterator zend_user_it_* drive: the object's Iterator methods, with
 * the current value cached in `value` until the iterator moves. */
typedef struct _zend_user_iterator {
  zend_object_iterator it;
  zend_class_entry *ce;
  zval value;
} zend_user_iterator;

ZEND_API void zend_user_it_rewind(zend_object_iterator *_iter);
ZEND_API zend_result zend_user_it_valid(zend_object_iterator *_iter);
ZEND_API void zend_user_it_get_current_key(zend_object_iterator *_iter,
                                           zval *key);
ZEND_API zval *zend_user_it_get_current_data(zend_object_iterator *_iter);
ZEND_API void zend_user_it_move_forward(zend_object_iterator *_iter);
ZEND_API void zend_user_it_invalidate_current(zend_object_iterator *_iter);
ZEND_API HashTable *zend_user_it_get_gc(zend_object_iterator *_iter,
                                        zval **table, int *n);

/* Calls object->getIterator() into `iterator` (UNDEF if it threw). */
ZEND_API void zend_user_it_new_iterator(zend_class_entry *ce, zval *object,
                                        zval *iterator);
/* The IteratorAggregate get_iterator (see above). */
ZEND_API zend_object_iterator *zend_user_it_get_new_iterator(
    zend_class_entry *ce, zval *object, int by_ref);

/* For an internal getIterator() method: wraps the iterator of the method's
 * class's get_iterator for `obj` in a new InternalIterator object in
 * return_value. FAILURE (return_value untouched) when get_iterator
 * returned NULL (it has thrown). The class is the scope of the running
 * method, as in PHP; called outside a method, the object's class. */
ZEND_API zend_result zend_create_internal_iterator_zval(zval *return_value,
                                                        zval *obj);

END_EXTERN_C()

#endif /* ZEND_INTERFACES_H */
