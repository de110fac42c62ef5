/*
 * zend-async-ref: mock Zend engine.
 *
 * MAY_BE_* type bits, with PHP's values: bit n stands for zval type n, so a
 * zend_type's mask tests a value with (1 << Z_TYPE_P(value)). CALLABLE,
 * VOID, STATIC and NEVER are pseudo-types of declarations; their bits
 * overlap the internal types, as in PHP.
 */
#ifndef ZEND_TYPE_INFO_H
#define ZEND_TYPE_INFO_H

#include "zend_types.h"

#define MAY_BE_UNDEF (1 << IS_UNDEF)
#define MAY_BE_NULL (1 << IS_NULL)
#define MAY_BE_FALSE (1 << IS_FALSE)
#define MAY_BE_TRUE (1 << IS_TRUE)
#define MAY_BE_BOOL (MAY_BE_FALSE | MAY_BE_TRUE)
#define MAY_BE_LONG (1 << IS_LONG)
#define MAY_BE_DOUBLE (1 << IS_DOUBLE)
#define MAY_BE_STRING (1 << IS_STRING)
#define MAY_BE_ARRAY (1 << IS_ARRAY)
#define MAY_BE_OBJECT (1 << IS_OBJECT)
#define MAY_BE_RESOURCE (1 << IS_RESOURCE)
#define MAY_BE_ANY                                                          \
  (MAY_BE_NULL | MAY_BE_FALSE | MAY_BE_TRUE | MAY_BE_LONG | MAY_BE_DOUBLE | \
   MAY_BE_STRING | MAY_BE_ARRAY | MAY_BE_OBJECT | MAY_BE_RESOURCE)
#define MAY_BE_REF (1 << IS_REFERENCE)

#define MAY_BE_CALLABLE (1 << IS_CALLABLE)
#define MAY_BE_VOID (1 << IS_VOID)
#define MAY_BE_NEVER (1 << IS_NEVER)
#define MAY_BE_STATIC (1 << IS_STATIC)

#endif /* ZEND_TYPE_INFO_H */
