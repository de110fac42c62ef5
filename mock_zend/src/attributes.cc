// zend-async-ref: mock Zend engine. Attribute tables (zend_attributes.h).
//
// An attribute table is a packed HashTable of zend_attribute* whose
// destructor frees each attribute: its name, lowercase name, validation
// error, argument names and values, then the attribute itself, from the
// memory it was allocated in (persistent or request, per
// ZEND_ATTRIBUTE_PERSISTENT). Function-table functions release their table
// with themselves (FreeFunction, by zend_array_destroy).

#include "engine_internal.h"

extern "C" {
#include "zend_attributes.h"
}

namespace {

void FreeAttribute(zend_attribute* attr, bool persistent) {
  zend_string_release_ex(attr->name, persistent);
  zend_string_release_ex(attr->lcname, persistent);
  if (attr->validation_error != nullptr) {
    zend_string_release(attr->validation_error);
  }
  for (uint32_t i = 0; i < attr->argc; i++) {
    if (attr->args[i].name != nullptr) zend_string_release(attr->args[i].name);
    if (persistent) {
      zval_internal_ptr_dtor(&attr->args[i].value);
    } else {
      zval_ptr_dtor(&attr->args[i].value);
    }
  }
  pefree(attr, persistent);
}

void FreePersistentAttribute(zval* slot) {
  FreeAttribute(static_cast<zend_attribute*>(Z_PTR_P(slot)), true);
}

void FreeRequestAttribute(zval* slot) {
  FreeAttribute(static_cast<zend_attribute*>(Z_PTR_P(slot)), false);
}

// The first attribute at `offset` whose lowercase name is [str, str+len).
zend_attribute* Find(const HashTable* attributes, const char* str, size_t len,
                     uint32_t offset) {
  if (attributes == nullptr) return nullptr;
  zval* slot;
  ZEND_HASH_FOREACH_VAL(attributes, slot) {
    auto* attr = static_cast<zend_attribute*>(Z_PTR_P(slot));
    if (attr->offset == offset && ZSTR_LEN(attr->lcname) == len &&
        memcmp(ZSTR_VAL(attr->lcname), str, len) == 0) {
      return attr;
    }
  }
  ZEND_HASH_FOREACH_END();
  return nullptr;
}

}  // namespace

extern "C" {

zend_attribute* zend_add_attribute(HashTable** attributes, zend_string* name,
                                   uint32_t argc, uint32_t flags,
                                   uint32_t offset, uint32_t lineno) {
  const bool persistent = (flags & ZEND_ATTRIBUTE_PERSISTENT) != 0;
  if (*attributes == nullptr) {
    *attributes =
        static_cast<HashTable*>(pemalloc(sizeof(HashTable), persistent));
    zend_hash_init(*attributes, 8, nullptr,
                   persistent ? FreePersistentAttribute : FreeRequestAttribute,
                   persistent);
  }
  auto* attr = static_cast<zend_attribute*>(
      pemalloc(ZEND_ATTRIBUTE_SIZE(argc), persistent));
  const bool name_persistent = (GC_FLAGS(name) & IS_STR_PERSISTENT) != 0;
  attr->name = persistent == name_persistent
                   ? zend_string_copy(name)
                   : zend_string_dup(name, persistent);
  attr->lcname = zend_string_tolower_ex(attr->name, persistent);
  attr->validation_error = nullptr;
  attr->flags = flags;
  attr->lineno = lineno;
  attr->offset = offset;
  attr->argc = argc;
  for (uint32_t i = 0; i < argc; i++) {
    attr->args[i].name = nullptr;
    ZVAL_UNDEF(&attr->args[i].value);
  }
  zend_hash_next_index_insert_ptr(*attributes, attr);
  return attr;
}

zend_attribute* zend_get_attribute(const HashTable* attributes,
                                   const zend_string* lcname) {
  return Find(attributes, ZSTR_VAL(lcname), ZSTR_LEN(lcname), 0);
}

zend_attribute* zend_get_attribute_str(const HashTable* attributes,
                                       const char* str, size_t len) {
  return Find(attributes, str, len, 0);
}

zend_attribute* zend_get_parameter_attribute(const HashTable* attributes,
                                             const zend_string* lcname,
                                             uint32_t offset) {
  return Find(attributes, ZSTR_VAL(lcname), ZSTR_LEN(lcname), offset + 1);
}

zend_attribute* zend_get_parameter_attribute_str(const HashTable* attributes,
                                                 const char* str, size_t len,
                                                 uint32_t offset) {
  return Find(attributes, str, len, offset + 1);
}

}  // extern "C"
