// Registering the future classes (classes.h).

#include "core/future/classes.h"

#include "core/future/object.h"

namespace zar::core {
namespace {

zend_class_entry* future_ce = nullptr;
zend_class_entry* future_state_ce = nullptr;

zend_class_entry* RegisterFinalClass(const char* name, uint32_t flags,
                                     const zend_function_entry* methods,
                                     zend_object* (*create)(zend_class_entry*),
                                     const zend_object_handlers* handlers) {
  zend_class_entry ce;
  memset(&ce, 0, sizeof(ce));
  ce.name = zend_string_init_interned(name, strlen(name), true);
  ce.ce_flags = ZEND_ACC_FINAL | flags;
  ce.info_internal_builtin_functions = methods;
  ce.create_object = create;
  ce.default_object_handlers = handlers;
  return zend_register_internal_class(&ce);
}

}  // namespace

zend_class_entry* RegisterFutureClasses(zend_class_entry* completable) {
  // As upstream's generated registration: FutureState is also closed to
  // dynamic properties and serialization; Future only final.
  future_state_ce = RegisterFinalClass(
      "Async\\FutureState",
      ZEND_ACC_NO_DYNAMIC_PROPERTIES | ZEND_ACC_NOT_SERIALIZABLE,
      FutureStateMethods(), CreateFutureStateObject,
      FutureStateObjectHandlers());
  future_ce = RegisterFinalClass("Async\\Future", 0, FutureMethods(),
                                 CreateFutureObject, FutureObjectHandlers());
  if (future_state_ce == nullptr || future_ce == nullptr) return nullptr;
  if (completable != nullptr) zend_class_implements(future_ce, 1, completable);
  return future_ce;
}

zend_class_entry* FutureClass() { return future_ce; }
zend_class_entry* FutureStateClass() { return future_state_ce; }

}  // namespace zar::core
