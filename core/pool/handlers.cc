// Calling the userland forms of a pool's handlers (handlers.h).

#include "core/pool/handlers.h"

namespace zar::core {
namespace {

// Calls `fcall` with `argc` arguments (0 or 1: `arg`, borrowed; the callee
// gets its own reference), writing its return value to `retval`.
zend_result CallUser(zend_fcall_t* fcall, zval* arg, uint32_t argc,
                     zval* retval) {
  zval args[1];
  if (argc > 0) ZVAL_COPY(&args[0], arg);
  zend_fcall_info fci = fcall->fci;
  fci.retval = retval;
  fci.params = argc > 0 ? args : nullptr;
  fci.param_count = argc;
  const zend_result result = zend_call_function(&fci, &fcall->fci_cache);
  if (argc > 0) zval_ptr_dtor(&args[0]);
  return result;
}

void ReleaseIfUser(uint8_t flags, uint8_t internal_bit, zend_fcall_t** fcall) {
  if (!(flags & internal_bit) && *fcall != nullptr) {
    zend_fcall_t* owned = *fcall;
    *fcall = nullptr;
    zend_fcall_release(owned);
  }
}

}  // namespace

void DiscardException() {
  zend_object* exception = EG(exception);
  if (exception != nullptr) {
    EG(exception) = nullptr;
    OBJ_RELEASE(exception);
  }
}

bool CallUserFactory(zend_fcall_t* fcall, zval* result) {
  zval retval;
  ZVAL_UNDEF(&retval);
  if (CallUser(fcall, nullptr, 0, &retval) == FAILURE ||
      EG(exception) != nullptr) {
    zval_ptr_dtor(&retval);
    return false;
  }
  if (Z_ISUNDEF(retval)) ZVAL_NULL(&retval);
  ZVAL_COPY_VALUE(result, &retval);
  return true;
}

void CallUserDestructor(zend_fcall_t* fcall, zval* resource) {
  // What was in flight stays current; one raised meanwhile becomes its
  // previous.
  mock_zend::ParkedException parked(ZEND_MOCK_PARKED_STAYS_CURRENT);
  zval retval;
  ZVAL_UNDEF(&retval);
  CallUser(fcall, resource, 1, &retval);
  zval_ptr_dtor(&retval);
}

bool CallUserCheck(zend_fcall_t* fcall, zval* resource) {
  // What was in flight stays current; one raised meanwhile becomes its
  // previous.
  mock_zend::ParkedException parked(ZEND_MOCK_PARKED_STAYS_CURRENT);
  zval retval;
  ZVAL_UNDEF(&retval);
  CallUser(fcall, resource, 1, &retval);
  bool accepted = Z_TYPE(retval) != IS_FALSE;
  if (EG(exception) != nullptr) {
    accepted = false;
    DiscardException();
  }
  zval_ptr_dtor(&retval);
  return accepted;
}

void ReleaseUserHandlers(AsyncPool* pool) {
  zend_async_pool_t* base = &pool->base;
  const uint8_t flags = base->handler_flags;
  ReleaseIfUser(flags, ZEND_ASYNC_POOL_F_FACTORY_INTERNAL,
                &base->factory.fcall);
  ReleaseIfUser(flags, ZEND_ASYNC_POOL_F_DESTRUCTOR_INTERNAL,
                &base->destructor.fcall);
  ReleaseIfUser(flags, ZEND_ASYNC_POOL_F_HEALTHCHECK_INTERNAL,
                &base->healthcheck.fcall);
  ReleaseIfUser(flags, ZEND_ASYNC_POOL_F_BEFORE_ACQUIRE_INTERNAL,
                &base->before_acquire.fcall);
  ReleaseIfUser(flags, ZEND_ASYNC_POOL_F_BEFORE_RELEASE_INTERNAL,
                &base->before_release.fcall);
}

}  // namespace zar::core
