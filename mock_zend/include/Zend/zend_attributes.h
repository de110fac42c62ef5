/*
 * zend-async-ref: mock Zend engine.
 *
 * Attributes (Zend/zend_attributes.h): PHP 8.5's zend_attribute and
 * zend_attribute_arg layouts (with validation_error, for
 * #[\DelayedTargetValidation]), the target and flag values (with attributes
 * on constants) and ZEND_ATTRIBUTE_SIZE, so extension code that copies or
 * walks an attribute table sizes its copies as against PHP.
 *
 * Real: zend_add_attribute() and the zend_add_function_attribute() and
 * zend_add_parameter_attribute() that gen_stub.php's *_arginfo.h files call
 * on the methods they register (#[\Override], #[\SensitiveParameter], ...),
 * and the lookups zend_get_attribute(_str) and
 * zend_get_parameter_attribute(_str). A function-table function frees its
 * attributes with itself. The mock compiles no PHP code, so attributes only
 * come from C; their arguments are whatever the caller stores.
 */
#ifndef ZEND_ATTRIBUTES_H
#define ZEND_ATTRIBUTES_H

#include "zend.h"

#define ZEND_ATTRIBUTE_TARGET_CLASS (1 << 0)
#define ZEND_ATTRIBUTE_TARGET_FUNCTION (1 << 1)
#define ZEND_ATTRIBUTE_TARGET_METHOD (1 << 2)
#define ZEND_ATTRIBUTE_TARGET_PROPERTY (1 << 3)
#define ZEND_ATTRIBUTE_TARGET_CLASS_CONST (1 << 4)
#define ZEND_ATTRIBUTE_TARGET_PARAMETER (1 << 5)
#define ZEND_ATTRIBUTE_TARGET_CONST (1 << 6)
#define ZEND_ATTRIBUTE_TARGET_ALL ((1 << 7) - 1)
#define ZEND_ATTRIBUTE_IS_REPEATABLE (1 << 7)
#define ZEND_ATTRIBUTE_FLAGS ((1 << 8) - 1)

/* Flags for zend_attribute.flags */
#define ZEND_ATTRIBUTE_PERSISTENT (1 << 0)
#define ZEND_ATTRIBUTE_STRICT_TYPES (1 << 1)

/* The size of an attribute with argc arguments: args[] runs past the
 * struct, whose own args[1] holds the first. */
#define ZEND_ATTRIBUTE_SIZE(argc)                                 \
  (sizeof(zend_attribute) + sizeof(zend_attribute_arg) * (argc) - \
   sizeof(zend_attribute_arg))

BEGIN_EXTERN_C()

/* One argument: its name (NULL when positional) and value. */
typedef struct {
  zend_string *name;
  zval value;
} zend_attribute_arg;

typedef struct _zend_attribute {
  zend_string *name;
  zend_string *lcname;
  /* Only non-null for internal attributes with validation errors that are
   * delayed until runtime via #[\DelayedTargetValidation] */
  zend_string *validation_error;
  uint32_t flags;
  uint32_t lineno;
  /* Parameter offsets start at 1, everything else uses 0. */
  uint32_t offset;
  uint32_t argc;
  zend_attribute_arg args[1];
} zend_attribute;

/* The first attribute at offset 0 (the declaration itself) whose lowercase
 * name is lcname / str (already lowercase), or NULL. */
ZEND_API zend_attribute *zend_get_attribute(const HashTable *attributes,
                                            const zend_string *lcname);
ZEND_API zend_attribute *zend_get_attribute_str(const HashTable *attributes,
                                                const char *str, size_t len);
/* The same for parameter `offset` (0-based) of a function. */
ZEND_API zend_attribute *zend_get_parameter_attribute(
    const HashTable *attributes, const zend_string *lcname, uint32_t offset);
ZEND_API zend_attribute *zend_get_parameter_attribute_str(
    const HashTable *attributes, const char *str, size_t len, uint32_t offset);

/* Appends an attribute named `name` with argc arguments (names NULL, values
 * UNDEF) to *attributes, creating the table if it is NULL. With
 * ZEND_ATTRIBUTE_PERSISTENT in flags the table, the attribute and its
 * strings are persistent (malloc), else request memory. The table owns its
 * attributes: destroying it frees each, with its names and values. */
ZEND_API zend_attribute *zend_add_attribute(HashTable **attributes,
                                            zend_string *name, uint32_t argc,
                                            uint32_t flags, uint32_t offset,
                                            uint32_t lineno);

END_EXTERN_C()

static zend_always_inline zend_attribute *zend_add_function_attribute(
    zend_function *func, zend_string *name, uint32_t argc) {
  uint32_t flags =
      func->common.type != ZEND_USER_FUNCTION ? ZEND_ATTRIBUTE_PERSISTENT : 0;
  return zend_add_attribute(&func->common.attributes, name, argc, flags, 0, 0);
}

static zend_always_inline zend_attribute *zend_add_parameter_attribute(
    zend_function *func, uint32_t offset, zend_string *name, uint32_t argc) {
  uint32_t flags =
      func->common.type != ZEND_USER_FUNCTION ? ZEND_ATTRIBUTE_PERSISTENT : 0;
  return zend_add_attribute(&func->common.attributes, name, argc, flags,
                            offset + 1, 0);
}

#endif /* ZEND_ATTRIBUTES_H */
