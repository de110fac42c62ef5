/*
 * zend-async-ref: mock Zend engine.
 *
 * Enums: within a request each case is one object of the enum class,
 * created by the first lookup of the case in that request and shared by
 * every later lookup (compare cases by identity). The engine owns the case
 * objects and releases them at request shutdown, before it counts the
 * objects still alive; the next request gets new ones. Outside a request
 * there are no case objects. Case objects carry the `name` property (and
 * `value` for backed enums).
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
ZEND_API void zend_enum_add_case_cstr(zend_class_entry *ce, const char *name,
                                      zval *value);
/* The shared case object (borrowed), or NULL if there is no such case or
 * no request is active. */
ZEND_API zend_object *zend_enum_get_case_cstr(zend_class_entry *ce,
                                              const char *name);
ZEND_API zend_object *zend_enum_get_case(zend_class_entry *ce,
                                         zend_string *name);
/* The `name` property of a case object. */
ZEND_API zval *zend_enum_fetch_case_name(zend_object *zobj);

END_EXTERN_C()

#endif /* ZEND_ENUM_H */
