/*
 * zend-async-ref: mock Zend engine. Standard object creation.
 */
#ifndef ZEND_OBJECTS_H
#define ZEND_OBJECTS_H

#include "zend_objects_API.h"

BEGIN_EXTERN_C()

/* Initialises the embedded object: refcount 1, class, standard handlers
 * (or the class's default handlers) and a handle in the object store. As in
 * PHP, the declared property slots are left alone: object_properties_init
 * (zend_API.h) fills them. */
ZEND_API void zend_object_std_init(zend_object *object, zend_class_entry *ce);
/* Allocates and initialises a plain object of `ce` (zend_object_std_init;
 * the property slots are the caller's to fill, as in PHP). */
ZEND_API zend_object *zend_objects_new(zend_class_entry *ce);
/* Releases the declared and dynamic properties of an object. */
ZEND_API void zend_object_std_dtor(zend_object *object);

END_EXTERN_C()

#endif /* ZEND_OBJECTS_H */
