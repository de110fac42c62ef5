// The healthcheck: a periodic, HIDDEN timer (it never keeps the request
// alive nor hides a deadlock) that checks the idle resources.
//
// Tick: for exactly the resources idle when it starts, oldest first: take
// it out of idle (counted as active while the check runs), check it;
// healthy ones go back to idle (or are destroyed if the pool closed
// meanwhile, which ends the tick); unhealthy ones (false or an exception,
// swallowed) are destroyed, and if the pool then has fewer than min_size
// resources the factory makes a replacement. A destructor or factory
// exception ends the tick (it stays pending for the reactor). Afterwards
// one waiter is woken if a place is free.

#include "core/pool/handlers.h"
#include "core/pool/pool.h"
#include "core/pool/trace.h"

namespace zar::core {
namespace {

AsyncPool* PoolOfCallback(zend_async_event_callback_t* callback) {
  return reinterpret_cast<AsyncPool*>(
      reinterpret_cast<char*>(callback) -
      offsetof(AsyncPool, healthcheck_callback));
}

// Makes a replacement for a destroyed resource; false when a factory
// exception must end the tick.
bool Refill(AsyncPool* pool) {
  zval resource;
  ZVAL_UNDEF(&resource);
  pool->active_count++;
  const bool made = CallFactory(pool, &resource);
  pool->active_count--;
  if (made) {
    pool->idle.PushBack(resource);
    return true;
  }
  return EG(exception) == nullptr;
}

void Tick(AsyncPool* pool) {
  const uint32_t count = pool->idle.size();
  for (uint32_t i = 0; i < count && !pool->idle.empty(); i++) {
    zval resource = pool->idle.PopFront();
    pool->active_count++;
    const bool healthy = CallHealthcheck(pool, &resource);
    pool->active_count--;
    if (healthy) {
      if (pool->closed()) {
        DestroyResource(pool, &resource);
        break;
      }
      pool->idle.PushBack(resource);
      continue;
    }
    if (ZEND_ASYNC_REF_TRACING()) {
      TracePoolReject(pool, &resource, "healthcheck");
    }
    DestroyResource(pool, &resource);
    if (EG(exception) != nullptr) break;
    if (pool->total() < pool->base.min_size && !pool->closed() &&
        !Refill(pool)) {
      break;
    }
  }
  if (pool->unreserved() > 0) WakeWaiter(pool);
}

void OnTick(zend_async_event_t* /*event*/,
            zend_async_event_callback_t* callback, void* /*result*/,
            zend_object* /*exception*/) {
  AsyncPool* pool = PoolOfCallback(callback);
  if (pool->closed() || !HasHealthcheck(pool)) return;
  // A check may drop the last reference to the pool.
  ZEND_ASYNC_EVENT_ADD_REF(pool->event());
  Tick(pool);
  ZEND_ASYNC_EVENT_RELEASE(pool->event());
}

// The callback is embedded in the pool: nothing to free.
void DisposeEmbedded(zend_async_event_callback_t*, zend_async_event_t*) {}

}  // namespace

void StartHealthcheck(AsyncPool* pool) {
  if (pool->healthcheck_interval_ms == 0 || !HasHealthcheck(pool) ||
      pool->healthcheck_timer != nullptr) {
    return;
  }
  zend_async_timer_event_t* timer =
      ZEND_ASYNC_NEW_TIMER_EVENT(pool->healthcheck_interval_ms, true);
  if (timer == nullptr) return;
  ZEND_ASYNC_EVENT_SET_HIDDEN(&timer->base);
  pool->healthcheck_callback.ref_count = 0;
  pool->healthcheck_callback.callback = OnTick;
  pool->healthcheck_callback.dispose = DisposeEmbedded;
  timer->base.add_callback(&timer->base, &pool->healthcheck_callback);
  pool->healthcheck_timer = timer;
  timer->base.start(&timer->base);
}

void StopHealthcheck(AsyncPool* pool) {
  zend_async_timer_event_t* timer = pool->healthcheck_timer;
  if (timer == nullptr) return;
  pool->healthcheck_timer = nullptr;
  timer->base.stop(&timer->base);
  timer->base.del_callback(&timer->base, &pool->healthcheck_callback);
  ZEND_ASYNC_EVENT_RELEASE(&timer->base);
}

}  // namespace zar::core
