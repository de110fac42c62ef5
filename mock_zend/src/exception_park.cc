// zend-async-ref: mock Zend engine - parking the exception in flight
// (mock_zend/exception_park.h).

extern "C" {
#include "mock_zend/exception_park.h"
}

namespace {

// Puts `*parked` back into `*slot` by `order`; `*parked` is NULL after.
void UnparkSlot(zend_object** slot, zend_object** parked,
                zend_mock_exception_order order) {
  if (*parked == nullptr) return;
  if (order == ZEND_MOCK_PARKED_STAYS_CURRENT) {
    zend_object* raised = *slot;
    *slot = *parked;
    *parked = nullptr;
    if (raised != nullptr) zend_exception_set_previous(*slot, raised);
    return;
  }
  // PHP's zend_exception_restore() on our own slots.
  zend_exception_restore_fast(slot, parked);
}

}  // namespace

void zend_mock_exception_unpark_slots(zend_mock_parked_exception* parked,
                                      zend_mock_exception_order order) {
  UnparkSlot(&EG(prev_exception), &parked->prev_exception, order);
  UnparkSlot(&EG(exception), &parked->exception, order);
}

zend_object* zend_mock_exception_take(void) {
  zend_object* exception = EG(exception);
  if (exception == nullptr) return nullptr;
  EG(exception) = nullptr;
  if (EG(prev_exception) != nullptr) {
    zend_exception_set_previous(exception, EG(prev_exception));
    EG(prev_exception) = nullptr;
  }
  return exception;
}
