/*
 * zend-async-ref: mock Zend engine. Destroying and copying values.
 */
#ifndef ZEND_VARIABLES_H
#define ZEND_VARIABLES_H

#include "zend_types.h"

BEGIN_EXTERN_C()

/* Frees a refcounted value whose refcount reached zero. */
ZEND_API void rc_dtor_func(zend_refcounted *p);
/* Drops the reference a zval holds (no-op for non-refcounted values). */
ZEND_API void zval_ptr_dtor(zval *zval_ptr);
ZEND_API void zval_internal_ptr_dtor(zval *zval_ptr);
ZEND_API void zval_add_ref(zval *p);

static zend_always_inline void zval_ptr_dtor_nogc(zval *zval_ptr) {
  if (Z_REFCOUNTED_P(zval_ptr) && !GC_DELREF(Z_COUNTED_P(zval_ptr))) {
    rc_dtor_func(Z_COUNTED_P(zval_ptr));
  }
}

#define ZVAL_PTR_DTOR zval_ptr_dtor
#define ZVAL_INTERNAL_PTR_DTOR zval_internal_ptr_dtor

END_EXTERN_C()

#endif /* ZEND_VARIABLES_H */
