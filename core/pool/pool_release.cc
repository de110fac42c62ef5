// Giving a resource back: PoolRelease (pool.h).
//
// Order: beforeRelease (which may suspend; the resource still counts as
// active meanwhile), then exactly one active_count decrement, then the
// strategy report, then the resource's fate. The caller's zval is borrowed
// throughout: a destroyed resource is destroyed through a copy holding its
// own reference, and a kept one gets a new reference in the idle ring.

#include "core/pool/circuit_breaker.h"
#include "core/pool/handlers.h"
#include "core/pool/pool.h"
#include "core/pool/strict.h"
#include "core/pool/trace.h"

namespace zar::core {
namespace {

// Destroys a resource the caller keeps a reference to.
void DestroyCopy(AsyncPool* pool, zval* resource) {
  zval copy;
  ZVAL_COPY(&copy, resource);
  DestroyResource(pool, &copy);
}

// The rejected path of Release: beforeRelease said no.
[[gnu::noinline]] void ReleaseRejected(AsyncPool* pool, zval* resource) {
  if (ZEND_ASYNC_REF_TRACING()) {
    TracePoolReject(pool, resource, "beforeRelease");
    TracePoolRelease(pool, resource, "rejected");
  }
  ReportFailure(pool, nullptr);
  DestroyCopy(pool, resource);
  // The capacity it held lets a waiter create a fresh one.
  WakeWaiter(pool);
}

void Release(AsyncPool* pool, zval* resource, const char* call) {
  // Strict mode: a resource the pool did not lend (or lent and got back
  // already) is refused before anything changes.
  if (UNEXPECTED(pool->ledger != nullptr) &&
      !LedgerAcceptRelease(pool, resource, call)) {
    return;
  }
  const bool reusable = CallBeforeRelease(pool, resource);
  // Saturating: a double release must not wrap the counter around.
  if (EXPECTED(pool->active_count > 0)) pool->active_count--;

  if (!reusable) {
    ReleaseRejected(pool, resource);
    return;
  }
  ReportSuccess(pool);
  if (UNEXPECTED(pool->closed())) {
    if (ZEND_ASYNC_REF_TRACING()) TracePoolRelease(pool, resource, "closed");
    DestroyCopy(pool, resource);
    return;
  }
  Z_TRY_ADDREF_P(resource);
  pool->idle.PushBack(*resource);
  if (ZEND_ASYNC_REF_TRACING()) TracePoolRelease(pool, resource, "idle");
  if (pool->waiters.HasUnreserved()) WakeWaiter(pool);
}

}  // namespace

void PoolReleaseFrom(zend_async_pool_t* base, zval* resource,
                     const char* call) {
  AsyncPool* pool = AsyncPool::FromAbi(base);
  // beforeRelease and the strategy may suspend (or drop the last owner's
  // reference): the pool must outlive this call.
  ZEND_ASYNC_EVENT_ADD_REF(pool->event());
  Release(pool, resource, call);
  ZEND_ASYNC_EVENT_RELEASE(pool->event());
}

void PoolRelease(zend_async_pool_t* base, zval* resource) {
  PoolReleaseFrom(base, resource, "ZEND_ASYNC_POOL_RELEASE");
}

}  // namespace zar::core
