// zend-async-ref: mock Zend engine. The standard object handlers
// (zend_object_handlers.h): what every object of a class without its own
// handler table uses.

#include "engine_internal.h"

namespace {

// A new object of the same class with copies of the declared and dynamic
// properties; then the class's __clone, if any, runs on the copy.
zend_object* CloneObject(zend_object* old_object) {
  zend_object* copy = zend_objects_new(old_object->ce);
  for (int i = 0; i < old_object->ce->default_properties_count; i++) {
    ZVAL_COPY_PROP(OBJ_PROP_NUM(copy, i), OBJ_PROP_NUM(old_object, i));
  }
  if (old_object->properties != nullptr) {
    copy->properties = zend_array_dup(old_object->properties);
  }
  zend_function* clone = mock_zend::internal::FindFunction(
      &old_object->ce->function_table, ZEND_STRL("__clone"));
  if (clone != nullptr) {
    zend_call_known_instance_method(clone, copy, nullptr, 0, nullptr);
  }
  return copy;
}

}  // namespace

extern "C" {

const zend_object_handlers std_object_handlers = {
    /* offset */ 0,
    /* free_obj */ zend_object_std_dtor,
    /* dtor_obj */ zend_objects_destroy_object,
    /* clone_obj */ CloneObject,
    /* get_method */ zend_std_get_method,
    /* get_constructor */ zend_std_get_constructor,
    /* get_class_name */ zend_std_get_class_name,
    /* get_properties */ zend_std_get_properties,
    /* count_elements */ nullptr,
    /* get_gc */ zend_std_get_gc,
    /* compare */ zend_std_compare_objects,
    /* transfer_obj */ nullptr,
};

zend_function* zend_std_get_method(zend_object** obj_ptr,
                                   zend_string* method_name, const zval* key) {
  const HashTable* methods = &(*obj_ptr)->ce->function_table;
  if (key != nullptr && Z_TYPE_P(key) == IS_STRING) {
    return static_cast<zend_function*>(
        zend_hash_find_ptr(methods, Z_STR_P(key)));
  }
  return mock_zend::internal::FindFunction(methods, ZSTR_VAL(method_name),
                                           ZSTR_LEN(method_name));
}

zend_function* zend_std_get_constructor(zend_object* object) {
  return object->ce->constructor;
}

zend_string* zend_std_get_class_name(const zend_object* zobj) {
  return zend_string_copy(zobj->ce->name);
}

HashTable* zend_std_get_properties(zend_object* object) {
  if (object->properties == nullptr) object->properties = zend_new_array(0);
  return object->properties;
}

HashTable* zend_std_get_gc(zend_object* object, zval** table, int* n) {
  *table = object->properties_table;
  *n = object->ce->default_properties_count;
  return object->properties;
}

int zend_std_compare_objects(zval* o1, zval* o2) {
  return Z_OBJ_P(o1) == Z_OBJ_P(o2) ? 0 : 1;
}

}  // extern "C"
