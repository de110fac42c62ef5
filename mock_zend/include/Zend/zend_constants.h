/*
 * zend-async-ref: mock Zend engine. Constants (PHP's zend_constants.h).
 *
 * Real: constants live in EG(zend_constants) from registration until
 * module shutdown; one without CONST_PERSISTENT is removed at request
 * shutdown, as PHP's non-persistent constants are. Names are
 * case-sensitive; a namespaced name's namespace is case-insensitive (it is
 * stored lowercased). Registering a name already defined warns "Constant
 * %s already defined", releases the value and returns NULL. The mock
 * registers no constants of its own, and evaluates no constant
 * expressions: zend_get_constant_ex looks up global constants only (a
 * "Class::NAME" lookup finds nothing).
 */
#ifndef ZEND_CONSTANTS_H
#define ZEND_CONSTANTS_H

#include "zend_globals.h"

#define CONST_CS 0 /* no longer used: constants are always case-sensitive */
#define CONST_PERSISTENT (1 << 0)
#define CONST_NO_FILE_CACHE (1 << 1)
#define CONST_DEPRECATED (1 << 2)
#define CONST_OWNED (1 << 3)

#define PHP_USER_CONSTANT 0x7fffff

BEGIN_EXTERN_C()

typedef struct _zend_constant {
  zval value; /* flags and module number in Z_CONSTANT_FLAGS(value) */
  zend_string *name;
  zend_string *filename;
  HashTable *attributes;
} zend_constant;

#define ZEND_CONSTANT_FLAGS(c) (Z_CONSTANT_FLAGS((c)->value) & 0xff)
#define ZEND_CONSTANT_MODULE_NUMBER(c) (Z_CONSTANT_FLAGS((c)->value) >> 8)
#define ZEND_CONSTANT_SET_FLAGS(c, _flags, _module_number)   \
  do {                                                       \
    Z_CONSTANT_FLAGS((c)->value) =                           \
        ((_flags)&0xff) | ((uint32_t)(_module_number) << 8); \
  } while (0)

#define REGISTER_NULL_CONSTANT(name, flags) \
  zend_register_null_constant((name), sizeof(name) - 1, (flags), module_number)
#define REGISTER_BOOL_CONSTANT(name, bval, flags)                        \
  zend_register_bool_constant((name), sizeof(name) - 1, (bval), (flags), \
                              module_number)
#define REGISTER_LONG_CONSTANT(name, lval, flags)                        \
  zend_register_long_constant((name), sizeof(name) - 1, (lval), (flags), \
                              module_number)
#define REGISTER_DOUBLE_CONSTANT(name, dval, flags)                        \
  zend_register_double_constant((name), sizeof(name) - 1, (dval), (flags), \
                                module_number)
#define REGISTER_STRING_CONSTANT(name, str, flags)                        \
  zend_register_string_constant((name), sizeof(name) - 1, (str), (flags), \
                                module_number)
#define REGISTER_STRINGL_CONSTANT(name, str, len, flags)                 \
  zend_register_stringl_constant((name), sizeof(name) - 1, (str), (len), \
                                 (flags), module_number)

#define REGISTER_NS_NULL_CONSTANT(ns, name, flags)                         \
  zend_register_null_constant(ZEND_NS_NAME(ns, name),                      \
                              sizeof(ZEND_NS_NAME(ns, name)) - 1, (flags), \
                              module_number)
#define REGISTER_NS_BOOL_CONSTANT(ns, name, bval, flags)                  \
  zend_register_bool_constant(ZEND_NS_NAME(ns, name),                     \
                              sizeof(ZEND_NS_NAME(ns, name)) - 1, (bval), \
                              (flags), module_number)
#define REGISTER_NS_LONG_CONSTANT(ns, name, lval, flags)                  \
  zend_register_long_constant(ZEND_NS_NAME(ns, name),                     \
                              sizeof(ZEND_NS_NAME(ns, name)) - 1, (lval), \
                              (flags), module_number)
#define REGISTER_NS_DOUBLE_CONSTANT(ns, name, dval, flags)                  \
  zend_register_double_constant(ZEND_NS_NAME(ns, name),                     \
                                sizeof(ZEND_NS_NAME(ns, name)) - 1, (dval), \
                                (flags), module_number)
#define REGISTER_NS_STRING_CONSTANT(ns, name, str, flags)                  \
  zend_register_string_constant(ZEND_NS_NAME(ns, name),                    \
                                sizeof(ZEND_NS_NAME(ns, name)) - 1, (str), \
                                (flags), module_number)
#define REGISTER_NS_STRINGL_CONSTANT(ns, name, str, len, flags)             \
  zend_register_stringl_constant(ZEND_NS_NAME(ns, name),                    \
                                 sizeof(ZEND_NS_NAME(ns, name)) - 1, (str), \
                                 (len), (flags), module_number)

#define REGISTER_MAIN_NULL_CONSTANT(name, flags) \
  zend_register_null_constant((name), sizeof(name) - 1, (flags), 0)
#define REGISTER_MAIN_BOOL_CONSTANT(name, bval, flags) \
  zend_register_bool_constant((name), sizeof(name) - 1, (bval), (flags), 0)
#define REGISTER_MAIN_LONG_CONSTANT(name, lval, flags) \
  zend_register_long_constant((name), sizeof(name) - 1, (lval), (flags), 0)
#define REGISTER_MAIN_DOUBLE_CONSTANT(name, dval, flags) \
  zend_register_double_constant((name), sizeof(name) - 1, (dval), (flags), 0)
#define REGISTER_MAIN_STRING_CONSTANT(name, str, flags) \
  zend_register_string_constant((name), sizeof(name) - 1, (str), (flags), 0)
#define REGISTER_MAIN_STRINGL_CONSTANT(name, str, len, flags)            \
  zend_register_stringl_constant((name), sizeof(name) - 1, (str), (len), \
                                 (flags), 0)

/* The value of the constant `name`, or NULL (no error) when undefined. */
ZEND_API zval *zend_get_constant(zend_string *name);
ZEND_API zval *zend_get_constant_str(const char *name, size_t name_len);
ZEND_API zval *zend_get_constant_ex(zend_string *name, zend_class_entry *scope,
                                    uint32_t flags);
ZEND_API zend_constant *zend_get_constant_ptr(zend_string *name);

ZEND_API void zend_register_bool_constant(const char *name, size_t name_len,
                                          bool bval, int flags,
                                          int module_number);
ZEND_API void zend_register_null_constant(const char *name, size_t name_len,
                                          int flags, int module_number);
ZEND_API void zend_register_long_constant(const char *name, size_t name_len,
                                          zend_long lval, int flags,
                                          int module_number);
ZEND_API void zend_register_double_constant(const char *name, size_t name_len,
                                            double dval, int flags,
                                            int module_number);
ZEND_API void zend_register_string_constant(const char *name, size_t name_len,
                                            const char *strval, int flags,
                                            int module_number);
ZEND_API void zend_register_stringl_constant(const char *name, size_t name_len,
                                             const char *strval, size_t strlen,
                                             int flags, int module_number);
/* Registers `c` (its value and name are taken over; flags and module
 * number in Z_CONSTANT_FLAGS(c->value)): the registered constant, or NULL
 * with a warning when the name is taken. */
ZEND_API zend_constant *zend_register_constant(zend_constant *c);

END_EXTERN_C()

#endif /* ZEND_CONSTANTS_H */
