/*
 * zend-async-ref: mock Zend engine.
 *
 * Weak references (Zend/zend_weakrefs.h): zend_ce_weakref, PHP's final
 * class WeakReference, whose methods extension code calls through the
 * class's function table (create(), get()). The mock keeps no weak
 * references: the class is registered with PHP's name, flags and methods,
 * and WeakReference::create() and WeakReference::get() report an
 * E_CORE_ERROR naming themselves and return NULL.
 */
#ifndef ZEND_WEAKREFS_H
#define ZEND_WEAKREFS_H

#include "zend.h"

BEGIN_EXTERN_C()

extern ZEND_API zend_class_entry *zend_ce_weakref;

END_EXTERN_C()

#endif /* ZEND_WEAKREFS_H */
