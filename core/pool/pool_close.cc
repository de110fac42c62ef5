// Closing a pool: PoolClose (pool.h).
//
// Order: park an exception in flight; mark CLOSED (so nothing re-enters:
// acquires fail, releases destroy); stop the healthcheck; wake every waiter
// with Async\PoolException "Pool is closed" (each then returns false from
// its acquire with it, even one already holding a reservation); destroy
// every idle resource, chaining destructor exceptions (the later has the
// earlier as previous) and throwing the last; put the parked exception
// back, with whatever close raised chained after it, so closing while an
// exception unwinds neither swallows nor replaces it.

#include "core/pool/handlers.h"
#include "core/pool/pool.h"
#include "core/pool/trace.h"

namespace zar::core {
namespace {

// Destroys every idle resource; the chained destructor exceptions are left
// in EG(exception).
void DestroyIdle(AsyncPool* pool) {
  zend_object* last = nullptr;
  while (!pool->idle.empty()) {
    zval resource = pool->idle.PopFront();
    DestroyResource(pool, &resource);
    if (zend_object* raised = EG(exception)) {
      EG(exception) = nullptr;
      if (last != nullptr) zend_exception_set_previous(raised, last);
      last = raised;
    }
  }
  if (last != nullptr) zend_throw_exception_internal(last);
}

}  // namespace

void PoolClose(zend_async_pool_t* base) {
  AsyncPool* pool = AsyncPool::FromAbi(base);
  if (pool->closed()) return;
  // Destructors may drop the last reference to the pool; dispose (which
  // closes an open pool) runs with no reference left and needs no guard.
  const bool guard = pool->event()->ref_count > 0;
  if (guard) ZEND_ASYNC_EVENT_ADD_REF(pool->event());
  ParkedException parked;

  if (ZEND_ASYNC_REF_TRACING()) TracePoolClose(pool);
  ZEND_ASYNC_EVENT_SET_CLOSED(pool->event());
  StopHealthcheck(pool);
  // After request shutdown began there is nobody to wake and no exception
  // may be made.
  if (!pool->waiters.empty() && EG(active)) {
    ThrowPoolException("Pool is closed");
    zend_object* closed_error = EG(exception);
    EG(exception) = nullptr;
    WakeAllWaiters(pool, closed_error);
    OBJ_RELEASE(closed_error);
  }
  DestroyIdle(pool);

  parked.Restore();
  if (guard) ZEND_ASYNC_EVENT_RELEASE(pool->event());
}

}  // namespace zar::core
