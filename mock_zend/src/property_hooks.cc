// zend-async-ref: mock Zend engine. Property hooks (zend_property_hooks.h).
//
// No class in the mock has hooked properties, so building the property
// table is reading the declared slots and the dynamic properties; by-name
// iteration of an object's properties is not provided.

#include "engine_internal.h"

extern "C" {
#include "zend_property_hooks.h"
}

extern "C" {

zend_object_iterator* zend_hooked_object_get_iterator(zend_class_entry* ce,
                                                      zval* object,
                                                      int by_ref) {
  (void)ce;
  (void)object;
  (void)by_ref;
  mock_zend::internal::Unsupported("zend_hooked_object_get_iterator",
                                   "it has no property iterators");
  return nullptr;
}

// Declared properties in slot order (those not unset), then the dynamic
// ones; each value gains a reference held by the new array.
zend_array* zend_hooked_object_build_properties(zend_object* zobj) {
  const zend_class_entry* ce = zobj->ce;
  zend_array* out =
      zend_new_array(static_cast<uint32_t>(ce->default_properties_count));
  for (int i = 0; i < ce->default_properties_count; i++) {
    zval* value = &zobj->properties_table[i];
    if (Z_TYPE_P(value) == IS_UNDEF) continue;
    Z_TRY_ADDREF_P(value);
    zend_hash_update(out, ce->properties_info_table[i]->name, value);
  }
  if (zobj->properties != nullptr) {
    zend_string* key;
    zend_ulong index;
    zval* value;
    ZEND_HASH_FOREACH_KEY_VAL(zobj->properties, index, key, value) {
      Z_TRY_ADDREF_P(value);
      if (key != nullptr) {
        zend_hash_update(out, key, value);
      } else {
        zend_hash_index_update(out, index, value);
      }
    }
    ZEND_HASH_FOREACH_END();
  }
  return out;
}

}  // extern "C"
