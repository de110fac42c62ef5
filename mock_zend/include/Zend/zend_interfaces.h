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

END_EXTERN_C()

#endif /* ZEND_INTERFACES_H */
