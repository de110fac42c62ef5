// Registering the future classes (classes.h).

#include "core/future/classes.h"

#include "core/future/object.h"
#include "core/internal/php_object.h"

namespace zar::core {
namespace {

zend_class_entry* future_ce = nullptr;
zend_class_entry* future_state_ce = nullptr;

}  // namespace

zend_class_entry* RegisterFutureClasses(zend_class_entry* completable) {
  // As upstream's generated registration: FutureState is also closed to
  // dynamic properties and serialization; Future only final.
  future_state_ce = internal::RegisterObjectClass(
      "Async\\FutureState", FutureStateMethods(), CreateFutureStateObject,
      FutureStateObjectHandlers());
  future_ce = internal::RegisterObjectClass(
      "Async\\Future", FutureMethods(), CreateFutureObject,
      FutureObjectHandlers(), ZEND_ACC_FINAL);
  if (future_state_ce == nullptr || future_ce == nullptr) return nullptr;
  if (completable != nullptr) zend_class_implements(future_ce, 1, completable);
  return future_ce;
}

zend_class_entry* FutureClass() { return future_ce; }
zend_class_entry* FutureStateClass() { return future_state_ce; }

}  // namespace zar::core
