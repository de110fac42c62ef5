// zend-async-ref: mock Zend engine. Class autoloading (zend_autoload.h).
//
// The mock keeps no class loaders (it runs no PHP code that could be one):
// lookups find nothing, as PHP with none registered, and registering a
// loader fails loudly (an E_CORE_ERROR naming the function) instead of
// accepting a loader that would never run.

#include "engine_internal.h"

extern "C" {
#include "zend_autoload.h"
}

namespace {

void Unsupported(const char* function) {
  mock_zend::internal::Unsupported(function, "it keeps no class loaders");
}

}  // namespace

extern "C" {

zend_class_entry* zend_perform_class_autoload(zend_string* class_name,
                                              zend_string* lc_name) {
  (void)class_name;
  (void)lc_name;
  return nullptr;
}

zend_class_entry* zend_perform_class_map_autoload(zend_string* class_name,
                                                  zend_string* lc_name) {
  (void)class_name;
  (void)lc_name;
  return nullptr;
}

void zend_autoload_callback_zval_destroy(zval* entry) {
  (void)entry;
  Unsupported("zend_autoload_callback_zval_destroy");
}

void zend_autoload_register_class_loader(zend_fcall_info_cache* fcc,
                                         bool prepend) {
  (void)fcc;
  (void)prepend;
  Unsupported("zend_autoload_register_class_loader");
}

bool zend_autoload_unregister_class_loader(const zend_fcall_info_cache* fcc) {
  (void)fcc;
  return false;
}

void zend_autoload_fcc_map_to_callable_zval_map(zval* return_value) {
  array_init(return_value);
}

void zend_autoload_drop_autoload_map(void) {}

}  // extern "C"
