// zend-async-ref: mock Zend engine. Constants (zend_constants.h).
//
// EG(zend_constants) maps each constant's key (its name, the namespace part
// lowercased) to a persistent zend_constant (IS_PTR) the table owns.

#include <string>
#include <vector>

#include "engine_internal.h"

extern "C" {
#include "zend_constants.h"
}

namespace {

// The table key of `name`: the namespace (before the last '\') lowercased.
std::string ConstantKey(const char* name, size_t len) {
  std::string key(name, len);
  const size_t slash = key.rfind('\\');
  if (slash != std::string::npos) zend_str_tolower(key.data(), slash);
  return key;
}

void FreeConstant(zend_constant* c) {
  zval_ptr_dtor(&c->value);
  if (c->name != nullptr) zend_string_release(c->name);
  if (c->filename != nullptr) zend_string_release(c->filename);
  pefree(c, 1);
}

zend_constant* FindConstant(const char* name, size_t len) {
  if (EG(zend_constants) == nullptr) return nullptr;
  const std::string key = ConstantKey(name, len);
  return static_cast<zend_constant*>(
      zend_hash_str_find_ptr(EG(zend_constants), key.data(), key.size()));
}

// Registers a constant of `value` (taken over) named `name`.
void Register(const char* name, size_t name_len, zval* value, int flags,
              int module_number) {
  zend_constant c;
  ZVAL_COPY_VALUE(&c.value, value);
  ZEND_CONSTANT_SET_FLAGS(&c, flags, module_number);
  c.name = zend_string_init_interned(name, name_len, true);
  c.filename = nullptr;
  c.attributes = nullptr;
  zend_register_constant(&c);
}

}  // namespace

extern "C" {

zend_constant* zend_register_constant(zend_constant* c) {
  const std::string key = ConstantKey(ZSTR_VAL(c->name), ZSTR_LEN(c->name));
  if (EG(zend_constants) == nullptr ||
      zend_hash_str_find(EG(zend_constants), key.data(), key.size()) !=
          nullptr) {
    zend_error(E_WARNING, "Constant %s already defined", ZSTR_VAL(c->name));
    zend_string_release(c->name);
    zval_ptr_dtor(&c->value);
    return nullptr;
  }
  auto* stored = static_cast<zend_constant*>(pemalloc(sizeof(*c), 1));
  *stored = *c;
  zval ptr;
  ZVAL_PTR(&ptr, stored);
  zend_hash_str_add(EG(zend_constants), key.data(), key.size(), &ptr);
  return stored;
}

zend_constant* zend_get_constant_ptr(zend_string* name) {
  return FindConstant(ZSTR_VAL(name), ZSTR_LEN(name));
}

zval* zend_get_constant_str(const char* name, size_t name_len) {
  zend_constant* c = FindConstant(name, name_len);
  return c != nullptr ? &c->value : nullptr;
}

zval* zend_get_constant(zend_string* name) {
  return zend_get_constant_str(ZSTR_VAL(name), ZSTR_LEN(name));
}

zval* zend_get_constant_ex(zend_string* name, zend_class_entry* scope,
                           uint32_t flags) {
  (void)scope;
  (void)flags;
  return zend_get_constant(name);
}

void zend_register_null_constant(const char* name, size_t name_len, int flags,
                                 int module_number) {
  zval value;
  ZVAL_NULL(&value);
  Register(name, name_len, &value, flags, module_number);
}

void zend_register_bool_constant(const char* name, size_t name_len, bool bval,
                                 int flags, int module_number) {
  zval value;
  ZVAL_BOOL(&value, bval);
  Register(name, name_len, &value, flags, module_number);
}

void zend_register_long_constant(const char* name, size_t name_len,
                                 zend_long lval, int flags, int module_number) {
  zval value;
  ZVAL_LONG(&value, lval);
  Register(name, name_len, &value, flags, module_number);
}

void zend_register_double_constant(const char* name, size_t name_len,
                                   double dval, int flags, int module_number) {
  zval value;
  ZVAL_DOUBLE(&value, dval);
  Register(name, name_len, &value, flags, module_number);
}

void zend_register_stringl_constant(const char* name, size_t name_len,
                                    const char* strval, size_t strlen,
                                    int flags, int module_number) {
  zval value;
  ZVAL_STR(&value, zend_string_init_interned(strval, strlen, true));
  Register(name, name_len, &value, flags, module_number);
}

void zend_register_string_constant(const char* name, size_t name_len,
                                   const char* strval, int flags,
                                   int module_number) {
  zend_register_stringl_constant(name, name_len, strval, strlen(strval), flags,
                                 module_number);
}

}  // extern "C"

namespace mock_zend::internal {

void ConstantsStartup() { EG(zend_constants) = NewEngineTable(16); }

void ConstantsRequestShutdown() {
  if (EG(zend_constants) == nullptr) return;
  std::vector<zend_string*> request_keys;
  zend_string* key;
  void* ptr;
  ZEND_HASH_FOREACH_STR_KEY_PTR(EG(zend_constants), key, ptr) {
    auto* c = static_cast<zend_constant*>(ptr);
    if (!(ZEND_CONSTANT_FLAGS(c) & CONST_PERSISTENT)) {
      request_keys.push_back(key);
    }
  }
  ZEND_HASH_FOREACH_END();
  for (zend_string* request_key : request_keys) {
    FreeConstant(static_cast<zend_constant*>(
        zend_hash_find_ptr(EG(zend_constants), request_key)));
    zend_hash_del(EG(zend_constants), request_key);
  }
}

void ConstantsShutdown() {
  if (EG(zend_constants) == nullptr) return;
  void* ptr;
  ZEND_HASH_FOREACH_PTR(EG(zend_constants), ptr) {
    FreeConstant(static_cast<zend_constant*>(ptr));
  }
  ZEND_HASH_FOREACH_END();
  FreeEngineTable(EG(zend_constants));
}

}  // namespace mock_zend::internal
