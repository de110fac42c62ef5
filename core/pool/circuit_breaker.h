// zend-async-ref core: a pool's circuit breaker and its strategy.
//
// The breaker is the pool's circuit_state: ACTIVE (requests go through),
// INACTIVE (acquire throws ServiceUnavailableException, tryAcquire fails,
// parked waiters are not woken by it) and RECOVERING (the same as ACTIVE:
// no request limiting). States are plain setters: any state may follow any
// other, and nothing in the pool changes the state by itself.
//
// The strategy is told what releases find:
//   ReportSuccess  beforeRelease accepted the resource (or none is set);
//   ReportFailure  beforeRelease rejected it.
// A userland strategy (an Async\CircuitBreakerStrategy object) gets method
// calls reportSuccess($source) and reportFailure($source, $error), $source
// being the pool's Async\Pool object (or null without one) and $error the
// given exception or a new Exception "Resource validation failed"; what it
// throws is swallowed and an exception in flight is parked around the call.
// A C strategy (handler_flags ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL, set by
// the C user together with strategy.internal) gets report_success(pool) and
// report_failure(pool, error), error possibly NULL. should_recover /
// shouldRecover() is never called.
//
// Threading: the request's thread. The strategy's calls may suspend.

#ifndef ZAR_CORE_POOL_CIRCUIT_BREAKER_H_
#define ZAR_CORE_POOL_CIRCUIT_BREAKER_H_

#include "core/pool/pool.h"

namespace zar::core {

// Userland form (circuit_breaker.cc).
void CallStrategyReport(AsyncPool* pool, bool success, zend_object* error);

inline bool HasUserStrategy(const AsyncPool* pool) {
  return !(pool->base.handler_flags & ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL) &&
         pool->base.strategy.object != nullptr;
}

inline void ReportSuccess(AsyncPool* pool) {
  zend_async_pool_t* base = &pool->base;
  if (base->handler_flags & ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL) {
    zend_async_circuit_breaker_strategy_t* strategy = base->strategy.internal;
    if (strategy != nullptr && strategy->report_success != nullptr) {
      strategy->report_success(base);
    }
  } else if (base->strategy.object != nullptr) {
    CallStrategyReport(pool, true, nullptr);
  }
}

// `error` (borrowed) may be NULL.
inline void ReportFailure(AsyncPool* pool, zend_object* error) {
  zend_async_pool_t* base = &pool->base;
  if (base->handler_flags & ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL) {
    zend_async_circuit_breaker_strategy_t* strategy = base->strategy.internal;
    if (strategy != nullptr && strategy->report_failure != nullptr) {
      strategy->report_failure(base, error);
    }
  } else if (base->strategy.object != nullptr) {
    CallStrategyReport(pool, false, error);
  }
}

// Replaces the strategy with the userland object `strategy` (a reference is
// taken; NULL clears it), releasing a previous userland strategy and
// forgetting a C one.
void SetUserStrategy(AsyncPool* pool, zend_object* strategy);

// Releases a userland strategy (dispose).
void ReleaseUserStrategy(AsyncPool* pool);

}  // namespace zar::core

#endif  // ZAR_CORE_POOL_CIRCUIT_BREAKER_H_
