// zend-async-ref: mock Zend engine. Creating objects of a class and reading
// and writing their properties (zend_API.h).
//
// A property name is looked up first among the declared slots of the
// object's class (the parent's slots come first), then in the object's
// dynamic properties table. Writes store a copy (one reference added) and
// destroy the old value afterwards.

#include "engine_internal.h"

namespace {

using mock_zend::internal::PropertySlot;

// What a read of a missing property returns (PHP's uninitialized zval).
zval missing_property;

void StoreCopy(zval* slot, zval* value) {
  zval old;
  ZVAL_COPY_VALUE(&old, slot);
  ZVAL_COPY(slot, value);
  zval_ptr_dtor(&old);
}

void UpdateProperty(zend_object* object, const char* name, size_t len,
                    zval* value) {
  if (zval* slot = PropertySlot(object, name, len)) {
    StoreCopy(slot, value);
    return;
  }
  HashTable* properties = zend_std_get_properties(object);
  Z_TRY_ADDREF_P(value);
  zend_hash_str_update(properties, name, len, value);
}

zval* ReadProperty(zend_object* object, const char* name, size_t len,
                   bool silent) {
  zval* slot = PropertySlot(object, name, len);
  if (slot != nullptr && !Z_ISUNDEF_P(slot)) return slot;
  if (slot == nullptr && object->properties != nullptr) {
    if (zval* value = zend_hash_str_find(object->properties, name, len)) {
      return value;
    }
  }
  if (!silent) {
    zend_error(E_WARNING, "Undefined property: %s::$%.*s",
               ZSTR_VAL(object->ce->name), static_cast<int>(len), name);
  }
  ZVAL_NULL(&missing_property);
  return &missing_property;
}

}  // namespace

extern "C" {

zend_result object_init_ex(zval* arg, zend_class_entry* ce) {
  const char* kind = nullptr;
  if (ce->ce_flags & ZEND_ACC_INTERFACE) {
    kind = "interface";
  } else if (ce->ce_flags & ZEND_ACC_TRAIT) {
    kind = "trait";
  } else if (ce->ce_flags & ZEND_ACC_ENUM) {
    kind = "enum";
  } else if (ce->ce_flags & ZEND_ACC_EXPLICIT_ABSTRACT_CLASS) {
    kind = "abstract class";
  }
  if (kind != nullptr) {
    zend_throw_error(nullptr, "Cannot instantiate %s %s", kind,
                     ZSTR_VAL(ce->name));
    ZVAL_NULL(arg);
    return FAILURE;
  }
  zend_object* object = ce->create_object != nullptr ? ce->create_object(ce)
                                                     : zend_objects_new(ce);
  if (object == nullptr) {
    ZVAL_NULL(arg);
    return FAILURE;
  }
  ZVAL_OBJ(arg, object);
  return SUCCESS;
}

void object_init(zval* arg) { object_init_ex(arg, zend_standard_class_def); }

void zend_update_property_ex(zend_class_entry* scope, zend_object* object,
                             zend_string* name, zval* value) {
  (void)scope;  // every property is public
  UpdateProperty(object, ZSTR_VAL(name), ZSTR_LEN(name), value);
}

void zend_update_property(zend_class_entry* scope, zend_object* object,
                          const char* name, size_t name_length, zval* value) {
  (void)scope;
  UpdateProperty(object, name, name_length, value);
}

void zend_update_property_long(zend_class_entry* scope, zend_object* object,
                               const char* name, size_t name_length,
                               zend_long value) {
  zval tmp;
  ZVAL_LONG(&tmp, value);
  zend_update_property(scope, object, name, name_length, &tmp);
}

void zend_update_property_string(zend_class_entry* scope, zend_object* object,
                                 const char* name, size_t name_length,
                                 const char* value) {
  zval tmp;
  ZVAL_STRING(&tmp, value);
  zend_update_property(scope, object, name, name_length, &tmp);
  zval_ptr_dtor(&tmp);
}

zval* zend_read_property_ex(zend_class_entry* scope, zend_object* object,
                            zend_string* name, bool silent, zval* rv) {
  (void)scope;
  (void)rv;
  return ReadProperty(object, ZSTR_VAL(name), ZSTR_LEN(name), silent);
}

zval* zend_read_property(zend_class_entry* scope, zend_object* object,
                         const char* name, size_t name_length, bool silent,
                         zval* rv) {
  (void)scope;
  (void)rv;
  return ReadProperty(object, name, name_length, silent);
}

}  // extern "C"
