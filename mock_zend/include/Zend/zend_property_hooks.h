/*
 * zend-async-ref: mock Zend engine.
 *
 * Property hooks (PHP 8.4): the helpers PHP gives object handlers of
 * classes with hooked properties. The mock compiles no PHP classes, so no
 * property has hooks; the helpers behave as for an object whose
 * properties are all plain:
 *   - zend_hooked_object_build_properties returns a new array (refcount 1,
 *     owned by the caller) of the object's declared properties (in slot
 *     order, unset ones left out) and then its dynamic ones, keyed by plain
 *     name (the mock has no property visibility, so no mangled names).
 *   - zend_hooked_object_get_iterator reports E_CORE_ERROR naming itself
 *     and returns NULL: the mock has no by-name property iteration.
 */
#ifndef ZEND_PROPERTY_HOOKS_H
#define ZEND_PROPERTY_HOOKS_H

#include "zend.h"
#include "zend_API.h"

BEGIN_EXTERN_C()

ZEND_API zend_object_iterator *zend_hooked_object_get_iterator(
    zend_class_entry *ce, zval *object, int by_ref);
ZEND_API zend_array *zend_hooked_object_build_properties(zend_object *zobj);

END_EXTERN_C()

#endif /* ZEND_PROPERTY_HOOKS_H */
