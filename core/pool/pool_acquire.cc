// Acquiring a resource: PoolAcquire (waits) and PoolTryAcquire (does not).
//
// Both try, in order, the oldest idle resource (checked by beforeAcquire;
// a rejected one is destroyed and the next tried) and then a new one from
// the factory (not checked), each only if the caller may take a place: a
// woken waiter holding a reservation may, anybody else only while
// unreserved places remain. A resource is counted as active from the
// moment it is taken out of idle or the factory is called, so hooks and
// factories that suspend cannot let the pool grow past max_size.

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstddef>

#include "core/async_classes.h"
#include "core/pool/circuit_breaker.h"
#include "core/pool/handlers.h"
#include "core/pool/pool.h"
#include "core/pool/strict.h"
#include "core/pool/trace.h"

namespace zar::core {
namespace {

enum class Outcome {
  kAcquired,  // `result` holds the resource
  kFailed,    // give up: an exception is pending (or, for tryAcquire, none)
  kRetry,     // a rejected idle resource was destroyed: try again
  kNoPlace,   // nothing this caller may take
};

// Writes `resource` to the caller's zval as ZVAL_COPY_VALUE does (the
// caller's u2 is kept), but with one 16-byte store built in a register: a
// release that reads the zval back whole (the ring copies zvals whole) is
// then served from the store buffer instead of stalling on partial stores.
inline void MoveOut(zval* result, const zval* resource) {
#if defined(__SSE2__)
  static_assert(sizeof(zval) == 16 && offsetof(zval, u2) == 12);
  const __m128i u2_lane = _mm_set_epi32(-1, 0, 0, 0);
  const __m128i value =
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(resource));
  const __m128i u2 =
      _mm_slli_si128(_mm_cvtsi32_si128(static_cast<int>(result->u2.extra)), 12);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(result),
                   _mm_or_si128(_mm_andnot_si128(u2_lane, value), u2));
#else
  ZVAL_COPY_VALUE(result, resource);
#endif
}

// beforeAcquire rejected `resource` (owned): it is destroyed.
[[gnu::noinline]] Outcome RejectIdle(AsyncPool* pool, zval* resource) {
  if (ZEND_ASYNC_REF_TRACING()) {
    TracePoolReject(pool, resource, "beforeAcquire");
  }
  pool->active_count--;
  DestroyResource(pool, resource);
  if (EG(exception) != nullptr) {
    // The destructor failed; the place it freed goes to a waiter.
    WakeWaiter(pool);
    return Outcome::kFailed;
  }
  return Outcome::kRetry;
}

// Takes the oldest idle resource; beforeAcquire decides. `try_acquire`
// only tells the trace which operation took it.
inline Outcome TakeIdle(AsyncPool* pool, zval* result, bool try_acquire) {
  zval resource = pool->idle.PopFront();
  pool->active_count++;
  if (EXPECTED(CallBeforeAcquire(pool, &resource))) {
    MoveOut(result, &resource);
    if (ZEND_ASYNC_REF_TRACING()) {
      TracePoolAcquired(pool, try_acquire, /*fresh=*/false, result);
    }
    return Outcome::kAcquired;
  }
  return RejectIdle(pool, &resource);
}

// Makes a new resource. On failure the place is freed (and offered to a
// waiter).
[[gnu::noinline]] Outcome Create(AsyncPool* pool, zval* result,
                                 bool try_acquire) {
  pool->active_count++;
  if (CallFactory(pool, result)) {
    if (ZEND_ASYNC_REF_TRACING()) {
      TracePoolAcquired(pool, try_acquire, /*fresh=*/true, result);
    }
    return Outcome::kAcquired;
  }
  pool->active_count--;
  WakeWaiter(pool);
  return Outcome::kFailed;
}

// One attempt without waiting. `may_serve_self`: the caller may take a place.
inline Outcome TryTake(AsyncPool* pool, zval* result, bool may_serve_self,
                       bool try_acquire) {
  if (!may_serve_self) return Outcome::kNoPlace;
  if (!pool->idle.empty()) return TakeIdle(pool, result, try_acquire);
  if (pool->total() < pool->base.max_size) {
    return Create(pool, result, try_acquire);
  }
  return Outcome::kNoPlace;
}

void ThrowServiceUnavailable() {
  zend_async_throw(ZEND_ASYNC_EXCEPTION_SERVICE_UNAVAILABLE,
                   "Service is unavailable (circuit breaker is open)");
}

bool Acquire(AsyncPool* pool, zval* result, zend_long timeout_ms) {
  zend_async_pool_t* base = &pool->base;
  bool has_reservation = false;
  for (;;) {
    if (UNEXPECTED(pool->closed())) {
      ThrowPoolException("Pool is closed");
      break;
    }
    if (UNEXPECTED(base->circuit_state == ZEND_ASYNC_CIRCUIT_STATE_INACTIVE)) {
      ThrowServiceUnavailable();
      break;
    }
    const bool may_serve_self = has_reservation || pool->unreserved() > 0;
    const Outcome outcome =
        TryTake(pool, result, may_serve_self, /*try_acquire=*/false);
    if (outcome != Outcome::kNoPlace) has_reservation = false;
    switch (outcome) {
      case Outcome::kAcquired:
        return true;
      case Outcome::kRetry:
        continue;
      case Outcome::kFailed:
        // Only a failed factory gets here without an exception.
        if (EG(exception) == nullptr) {
          ThrowPoolException("Failed to create pool resource");
        }
        if (ZEND_ASYNC_REF_TRACING()) TracePoolAcquireFailed(pool);
        return false;
      case Outcome::kNoPlace:
        break;
    }
    has_reservation = WaitForResource(pool, timeout_ms);
    if (EG(exception) != nullptr) {
      if (ZEND_ASYNC_REF_TRACING()) TracePoolAcquireFailed(pool);
      return false;
    }
  }
  if (ZEND_ASYNC_REF_TRACING()) TracePoolAcquireFailed(pool);
  // Leaving through an error with an unspent reservation: hand it on.
  if (has_reservation) {
    if (ZEND_ASYNC_REF_TRACING()) TracePoolHandOn(pool);
    WakeWaiter(pool);
  }
  return false;
}

bool TryAcquire(AsyncPool* pool, zval* result) {
  zend_async_pool_t* base = &pool->base;
  for (;;) {
    if (pool->closed() ||
        base->circuit_state == ZEND_ASYNC_CIRCUIT_STATE_INACTIVE) {
      if (ZEND_ASYNC_REF_TRACING()) TracePoolTryAcquireNone(pool);
      return false;
    }
    switch (TryTake(pool, result, pool->unreserved() > 0,
                    /*try_acquire=*/true)) {
      case Outcome::kAcquired:
        return true;
      case Outcome::kRetry:
        continue;
      case Outcome::kFailed:
      case Outcome::kNoPlace:
        if (ZEND_ASYNC_REF_TRACING()) TracePoolTryAcquireNone(pool);
        return false;
    }
  }
}

}  // namespace

bool PoolAcquire(zend_async_pool_t* base, zval* result, zend_long timeout_ms) {
  AsyncPool* pool = AsyncPool::FromAbi(base);
  // Hooks, the factory and waiting may suspend; meanwhile the last owner
  // may let go of the pool (even the waiter's own waker does, when it
  // cleans up): it must outlive this call.
  ZEND_ASYNC_EVENT_ADD_REF(pool->event());
  const bool acquired = Acquire(pool, result, timeout_ms);
  if (UNEXPECTED(pool->ledger != nullptr) && acquired) {
    LedgerLend(pool, result);
  }
  ZEND_ASYNC_EVENT_RELEASE(pool->event());
  return acquired;
}

bool PoolTryAcquire(zend_async_pool_t* base, zval* result) {
  AsyncPool* pool = AsyncPool::FromAbi(base);
  ZEND_ASYNC_EVENT_ADD_REF(pool->event());
  const bool acquired = TryAcquire(pool, result);
  if (UNEXPECTED(pool->ledger != nullptr) && acquired) {
    LedgerLend(pool, result);
  }
  ZEND_ASYNC_EVENT_RELEASE(pool->event());
  return acquired;
}

}  // namespace zar::core
