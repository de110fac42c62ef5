// zend-async-ref: mock Zend engine. Standard objects (zend_objects.h):
// creation, the standard destructor and free handlers, and cloning.

#include "engine_internal.h"

extern "C" {

void zend_object_std_init(zend_object* object, zend_class_entry* ce) {
  GC_SET_REFCOUNT(object, 1);
  GC_TYPE_INFO(object) = IS_OBJECT;
  object->extra_flags = 0;
  object->ce = ce;
  object->handlers = ce->default_object_handlers != nullptr
                         ? ce->default_object_handlers
                         : &std_object_handlers;
  object->properties = nullptr;
  zend_objects_store_put(object);
}

void object_properties_init(zend_object* object, zend_class_entry* class_type) {
  object->properties = nullptr;
  for (int i = 0; i < class_type->default_properties_count; i++) {
    ZVAL_COPY_PROP(OBJ_PROP_NUM(object, i),
                   &class_type->default_properties_table[i]);
  }
}

void object_properties_load(zend_object* object, HashTable* properties) {
  zend_string* key;
  zval* value;
  ZEND_HASH_FOREACH_STR_KEY_VAL(properties, key, value) {
    if (key != nullptr) zend_update_property_ex(object->ce, object, key, value);
  }
  ZEND_HASH_FOREACH_END();
}

zend_object* zend_objects_new(zend_class_entry* ce) {
  auto* object =
      static_cast<zend_object*>(zend_object_alloc(sizeof(zend_object), ce));
  zend_object_std_init(object, ce);
  return object;
}

// Releases the dynamic properties, then each declared slot (each slot is
// UNDEF before its old value is destroyed).
void zend_object_std_dtor(zend_object* object) {
  if (object->properties != nullptr) {
    HashTable* properties = object->properties;
    object->properties = nullptr;
    zend_array_release(properties);
  }
  for (int i = 0; i < object->ce->default_properties_count; i++) {
    zval* slot = &object->properties_table[i];
    if (!Z_REFCOUNTED_P(slot)) {
      ZVAL_UNDEF(slot);
      continue;
    }
    zval old;
    ZVAL_COPY_VALUE(&old, slot);
    ZVAL_UNDEF(slot);
    zval_ptr_dtor(&old);
  }
}

// Calls the class's __destruct, if any. An exception in flight is parked
// during the call; afterwards it becomes the previous of whatever the
// destructor threw, or is put back.
void zend_objects_destroy_object(zend_object* object) {
  zend_function* destructor = object->ce->destructor;
  if (destructor == nullptr) return;
  if (EG(exception) == object) return;  // never destroy the pending throwable
  zend_object* parked = EG(exception);
  EG(exception) = nullptr;
  zval retval;
  zend_mock_execute_internal(destructor, object, 0, nullptr, &retval);
  zval_ptr_dtor(&retval);
  if (parked != nullptr) {
    if (EG(exception) != nullptr) {
      zend_exception_set_previous(EG(exception), parked);
    } else {
      EG(exception) = parked;
    }
  }
}

}  // extern "C"
