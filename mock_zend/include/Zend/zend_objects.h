/*
 * zend-async-ref: mock Zend engine. Standard object creation.
 */
#ifndef ZEND_OBJECTS_H
#define ZEND_OBJECTS_H

#include "zend_objects_API.h"

BEGIN_EXTERN_C()

/* Initialises the embedded object: refcount 1, class, standard handlers
 * (or the class's default handlers), declared properties copied from the
 * class defaults, and a handle in the object store. */
ZEND_API void zend_object_std_init(zend_object *object, zend_class_entry *ce);
/* Creates a plain object of `ce` (what create_object does by default). */
ZEND_API zend_object *zend_objects_new(zend_class_entry *ce);
/* Releases the declared and dynamic properties of an object. */
ZEND_API void zend_object_std_dtor(zend_object *object);

END_EXTERN_C()

#endif /* ZEND_OBJECTS_H */
