// zend-async-ref: mock Zend engine. Creating objects of a class and reading
// and writing their properties (zend_API.h).
//
// A property name is looked up first among the declared properties of the
// object's class (properties_info, inherited ones included), then in the
// object's dynamic properties table. Writes store a copy (one reference
// added), clear the slot's IS_PROP_UNINIT/IS_PROP_REINITABLE flags and
// destroy the old value afterwards. Reading a typed property that was never
// initialised (UNDEF slot) throws Error as PHP's std read handler does; an
// untyped UNDEF slot (unset) reads as a missing property. Types are not
// checked on write.

#include "engine_internal.h"

namespace {

using mock_zend::internal::FindPropertyInfo;

// What a read of a missing property returns (PHP's uninitialized zval).
zval missing_property;

void StoreCopy(zval* slot, zval* value) {
  zval old;
  ZVAL_COPY_VALUE(&old, slot);
  ZVAL_COPY(slot, value);
  Z_PROP_FLAG_P(slot) = 0;
  zval_ptr_dtor(&old);
}

void UpdateProperty(zend_object* object, const char* name, size_t len,
                    zval* value) {
  if (const zend_property_info* info =
          FindPropertyInfo(object->ce, name, len)) {
    StoreCopy(OBJ_PROP(object, info->offset), value);
    return;
  }
  HashTable* properties = zend_std_get_properties(object);
  Z_TRY_ADDREF_P(value);
  zend_hash_str_update(properties, name, len, value);
}

zval* ReadProperty(zend_object* object, const char* name, size_t len,
                   bool silent) {
  const zend_property_info* info = FindPropertyInfo(object->ce, name, len);
  zval* slot = info != nullptr ? OBJ_PROP(object, info->offset) : nullptr;
  if (slot != nullptr && !Z_ISUNDEF_P(slot)) return slot;
  if (slot == nullptr && object->properties != nullptr) {
    if (zval* value = zend_hash_str_find(object->properties, name, len)) {
      return value;
    }
  }
  if (!silent && info != nullptr && ZEND_TYPE_IS_SET(info->type)) {
    zend_throw_error(nullptr,
                     "Typed property %s::$%.*s must not be accessed before "
                     "initialization",
                     ZSTR_VAL(info->ce->name), static_cast<int>(len), name);
  } else if (!silent) {
    zend_error(E_WARNING, "Undefined property: %s::$%.*s",
               ZSTR_VAL(object->ce->name), static_cast<int>(len), name);
  }
  ZVAL_NULL(&missing_property);
  return &missing_property;
}

}  // namespace

extern "C" {

zend_result object_init_ex(zval* arg, zend_class_entry* ce) {
  // PHP would dereference the class; the mock refuses it loudly so that a
  // caller holding no class (a lookup that found none) fails, not crashes.
  if (ce == nullptr) {
    zend_throw_error(nullptr, "object_init_ex() was given no class entry");
    ZVAL_NULL(arg);
    return FAILURE;
  }
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
  zend_object* object;
  if (ce->create_object != nullptr) {
    object = ce->create_object(ce);
    if (object == nullptr) {
      ZVAL_NULL(arg);
      return FAILURE;
    }
  } else {
    object = zend_objects_new(ce);
    object_properties_init(object, ce);
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
