/*
 * zend-async-ref: mock Zend engine.
 *
 * The smart_str type (its operations are in zend_smart_str.h). `s` is the
 * string built so far (NULL until the first append), `a` the number of
 * bytes `s` can hold before it must grow (not counting the terminating
 * NUL). The smart_str owns `s`.
 */
#ifndef ZEND_SMART_STR_PUBLIC_H
#define ZEND_SMART_STR_PUBLIC_H

#include "zend_types.h"

typedef struct {
  zend_string *s;
  size_t a;
} smart_str;

#endif /* ZEND_SMART_STR_PUBLIC_H */
