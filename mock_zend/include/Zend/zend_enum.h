/*
 * zend-async-ref: mock Zend engine.
 *
 * Enums: within a request each case is one object of the enum class,
 * created by the first lookup of the case in that request and shared by
 * every later lookup (compare cases by identity). The engine owns the case
 * objects and releases them at request shutdown, before it counts the
 * objects still alive; the next request gets new ones. Outside a request
 * there are no case objects. Case objects carry the typed readonly `name`
 * property in slot 0 (and `value`, the backing value, in slot 1 for backed
 * enums), as in PHP.
 */
#ifndef ZEND_ENUM_H
#define ZEND_ENUM_H

#include "zend_API.h"

BEGIN_EXTERN_C()

ZEND_API extern zend_class_entry *zend_ce_unit_enum;
ZEND_API extern zend_class_entry *zend_ce_backed_enum;

/* `type` is IS_UNDEF for a pure enum, IS_LONG or IS_STRING when backed. */
ZEND_API zend_class_entry *zend_register_internal_enum(
    const char *name, zend_uchar type, const zend_function_entry *functions);
/* `value` is NULL for pure enums. */
ZEND_API void zend_enum_add_case(zend_class_entry *ce, zend_string *case_name,
                                 zval *value);
ZEND_API void zend_enum_add_case_cstr(zend_class_entry *ce, const char *name,
                                      zval *value);
/* The shared case object (borrowed), or NULL if there is no such case or
 * no request is active. */
ZEND_API zend_object *zend_enum_get_case_cstr(zend_class_entry *ce,
                                              const char *name);
ZEND_API zend_object *zend_enum_get_case(zend_class_entry *ce,
                                         zend_string *name);
/* The case of a backed enum whose backing value is long_key (int-backed)
 * or string_key (string-backed), in *result (borrowed), with SUCCESS. No
 * such case: with try_from, *result is NULL and SUCCESS; without, FAILURE
 * and PHP's ValueError "<n> is not a valid backing value for enum E" or
 * "\"<s>\" is not a valid backing value for enum E". A pure enum gives
 * FAILURE and the ValueError "E is not a backed enum" (the mock's own text:
 * PHP does not allow the call); outside a request *result is NULL and the
 * result FAILURE. */
ZEND_API zend_result zend_enum_get_case_by_value(zend_object **result,
                                                 zend_class_entry *ce,
                                                 zend_long long_key,
                                                 zend_string *string_key,
                                                 bool try_from);

/* The `name` and `value` properties of a case object (slots 0 and 1). */
static zend_always_inline zval *zend_enum_fetch_case_name(zend_object *zobj) {
  return OBJ_PROP_NUM(zobj, 0);
}
static zend_always_inline zval *zend_enum_fetch_case_value(zend_object *zobj) {
  return OBJ_PROP_NUM(zobj, 1);
}

END_EXTERN_C()

#endif /* ZEND_ENUM_H */
