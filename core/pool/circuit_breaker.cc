// The userland side of a pool's circuit breaker strategy
// (circuit_breaker.h).

#include "core/pool/circuit_breaker.h"

#include "core/pool/handlers.h"

extern "C" {
#include "php.h"
}

namespace zar::core {
namespace {

// A new Exception "Resource validation failed" (owned), not thrown.
zend_object* NewValidationFailure() {
  zval error;
  if (object_init_ex(&error, zend_ce_exception) != SUCCESS) return nullptr;
  zend_update_property_string(zend_ce_exception, Z_OBJ(error),
                              ZEND_STRL("message"),
                              "Resource validation failed");
  return Z_OBJ(error);
}

}  // namespace

void CallStrategyReport(AsyncPool* pool, bool success, zend_object* error) {
  zend_object* strategy = pool->base.strategy.object;
  // The strategy may replace itself (setCircuitBreakerStrategy) or drop the
  // last reference to the pool while it runs.
  GC_ADDREF(strategy);
  ZEND_ASYNC_EVENT_ADD_REF(pool->event());
  // What was in flight stays current; one raised meanwhile becomes its
  // previous.
  mock_zend::ParkedException parked(ZEND_MOCK_PARKED_STAYS_CURRENT);

  zval source;
  if (pool->base.wrapper != nullptr) {
    ZVAL_OBJ_COPY(&source, pool->base.wrapper);
  } else {
    ZVAL_NULL(&source);
  }
  zval retval;
  ZVAL_UNDEF(&retval);
  if (success) {
    zend_call_method_with_1_params(strategy, nullptr, nullptr, "reportSuccess",
                                   &retval, &source);
  } else {
    zend_object* owned = error == nullptr ? NewValidationFailure() : nullptr;
    zval error_zv;
    ZVAL_OBJ(&error_zv, error != nullptr ? error : owned);
    if (Z_OBJ(error_zv) != nullptr) {
      zend_call_method_with_2_params(strategy, nullptr, nullptr,
                                     "reportFailure", &retval, &source,
                                     &error_zv);
    }
    if (owned != nullptr) OBJ_RELEASE(owned);
  }
  zval_ptr_dtor(&retval);
  DiscardException();
  zval_ptr_dtor(&source);

  parked.Restore();
  ZEND_ASYNC_EVENT_RELEASE(pool->event());
  OBJ_RELEASE(strategy);
}

void SetUserStrategy(AsyncPool* pool, zend_object* strategy) {
  zend_async_pool_t* base = &pool->base;
  zend_object* previous =
      HasUserStrategy(pool) ? base->strategy.object : nullptr;
  base->handler_flags &= ~ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL;
  if (strategy != nullptr) GC_ADDREF(strategy);
  base->strategy.object = strategy;
  if (previous != nullptr) OBJ_RELEASE(previous);
}

void ReleaseUserStrategy(AsyncPool* pool) {
  if (HasUserStrategy(pool)) {
    zend_object* strategy = pool->base.strategy.object;
    pool->base.strategy.object = nullptr;
    OBJ_RELEASE(strategy);
  }
}

}  // namespace zar::core
