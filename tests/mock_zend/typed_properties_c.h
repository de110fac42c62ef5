/*
 * Typed properties, property info and object property initialisation used
 * from C11, as php-async's and true-async/server's C code uses them. A
 * check returns 0 on success or the line of the first failed condition.
 */
#ifndef ZAR_TESTS_MOCK_ZEND_TYPED_PROPERTIES_C_H_
#define ZAR_TESTS_MOCK_ZEND_TYPED_PROPERTIES_C_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct _zend_class_entry;
struct _zend_object;

size_t typed_properties_c_sizeof_property_info(void);

/* An arg-info table of gen_stub.php's macros read back from C. */
int typed_properties_c_arginfo_check(void);

/* Registers "CTyped" as a *_arginfo.h register function does: a nullable
 * class-typed `reason` (its name a persistent zend_string), a string
 * `message` without default and an int `code` defaulting to 0. */
struct _zend_class_entry* typed_properties_c_register_class(void);

/* Creates an object of `ce` (CTyped) the way php-async's
 * zend_object_internal_create does, checks its slots and writes them as
 * zend_common.h's zval_property_copy does. */
int typed_properties_c_create_check(struct _zend_class_entry* ce);

/* Reads `object`'s "right" slot (Pair) through properties_info and
 * OBJ_PROP, as the server's exception classes do. */
int typed_properties_c_object_check(struct _zend_class_entry* ce,
                                    struct _zend_object* object);

/* With `ce` an int-backed enum with the case High = 10: finds it by value
 * and reads its value and name as php-async's signal handling does. */
int typed_properties_c_enum_check(struct _zend_class_entry* ce);

#ifdef __cplusplus
}
#endif

#endif /* ZAR_TESTS_MOCK_ZEND_TYPED_PROPERTIES_C_H_ */
