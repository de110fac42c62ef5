// zend-async-ref: mock Zend engine. Weak references (zend_weakrefs.h).
//
// PHP's final class WeakReference with its two methods, so extension code
// that looks them up in zend_ce_weakref's function table and calls them
// finds them. The mock keeps no weak references: both methods fail loudly
// (an E_CORE_ERROR naming the method) and return NULL.

#include "engine_internal.h"

extern "C" {
#include "zend_weakrefs.h"
}

namespace {

void Unsupported(const char* method) {
  mock_zend::internal::Unsupported(method, "it keeps no weak references");
}

void WeakReferenceCreate(INTERNAL_FUNCTION_PARAMETERS) {
  (void)execute_data;
  ZVAL_NULL(return_value);
  Unsupported("WeakReference::create");
}

void WeakReferenceGet(INTERNAL_FUNCTION_PARAMETERS) {
  (void)execute_data;
  ZVAL_NULL(return_value);
  Unsupported("WeakReference::get");
}

ZEND_BEGIN_ARG_INFO_EX(arginfo_weakreference_create, 0, 0, 1)
ZEND_ARG_TYPE_INFO(0, object, IS_OBJECT, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_weakreference_get, 0, 0, 0)
ZEND_END_ARG_INFO()

// clang-format off
const zend_function_entry kWeakReferenceMethods[] = {
    ZEND_RAW_FENTRY("create", WeakReferenceCreate,
                    arginfo_weakreference_create,
                    ZEND_ACC_PUBLIC | ZEND_ACC_STATIC, nullptr, nullptr)
    ZEND_RAW_FENTRY("get", WeakReferenceGet, arginfo_weakreference_get,
                    ZEND_ACC_PUBLIC, nullptr, nullptr)
    ZEND_FE_END};
// clang-format on

}  // namespace

extern "C" {

zend_class_entry* zend_ce_weakref = nullptr;

}  // extern "C"

namespace mock_zend::internal {

void RegisterWeakReferenceClass() {
  zend_ce_weakref =
      RegisterClass("WeakReference", nullptr, kWeakReferenceMethods,
                    ZEND_ACC_FINAL | ZEND_ACC_NO_DYNAMIC_PROPERTIES |
                        ZEND_ACC_NOT_SERIALIZABLE);
}

}  // namespace mock_zend::internal
