// The reference pool registered through the pool adapter's hooks
// (zend_async_ref/conformance_pool.h): the adapter's self-test, and an
// example of what a pool's author writes. Built into
// libzend_async_ref_impl_pool_adapter.so with the reference pool's sources.

#include "core/pool/registration.h"
#include "core/scheduler/async_classes.h"

extern "C" {
#include "zend_async_ref/conformance_pool.h"
}

extern "C" zend_result zend_async_conformance_pool_startup(int type,
                                                           int module_number) {
  (void)type;
  (void)module_number;
  // Async\PoolException, then Async\Pool and the circuit breaker types,
  // then the pool's ABI functions (zend_async_pool_api_register()).
  if (!zar::core::RegisterPoolExceptionClass()) return FAILURE;
  if (!zar::core::RegisterPoolClasses()) return FAILURE;
  zar::core::RegisterPool();
  return SUCCESS;
}

extern "C" zend_result zend_async_conformance_pool_shutdown(int type,
                                                            int module_number) {
  (void)type;
  (void)module_number;
  zar::core::ForgetPoolClasses();
  return SUCCESS;
}
