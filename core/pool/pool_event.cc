// The pool's event vtable.
//
// The pool event is never started, stopped or notified: its callbacks
// vector only holds the callbacks of parked waiters (registered by
// zend_async_resume_when), which the pool invokes itself, in its own order.
// add_callback appends; del_callback removes a waiter's callback in O(1)
// through the slot recorded in the waiter (swap with the last, fixing the
// moved waiter's slot) and anything else with zend_async_callbacks_remove.
// The vector's order does not matter: service order is the waiter queue's.

#include <string>

#include "core/pool/circuit_breaker.h"
#include "core/pool/handlers.h"
#include "core/pool/pool.h"
#include "core/pool/strict.h"
#include "core/pool/trace.h"

extern "C" {
#include "zend_async_ref/strict.h"
}

namespace zar::core {
namespace {

using internal::PoolWaiter;

bool AddCallback(zend_async_event_t* event,
                 zend_async_event_callback_t* callback) {
  zend_async_callbacks_push(event, callback);
  if (IsWaiterCallback(callback)) {
    PoolWaiter::FromCallback(callback)->event_slot =
        event->callbacks.length - 1;
  }
  return true;
}

bool DelCallback(zend_async_event_t* event,
                 zend_async_event_callback_t* callback) {
  zend_async_callbacks_vector_t* vector = &event->callbacks;
  if (IsWaiterCallback(callback) && vector->current_iterator == nullptr) {
    PoolWaiter* waiter = PoolWaiter::FromCallback(callback);
    const uint32_t slot = waiter->event_slot;
    if (slot < vector->length && vector->data[slot] == callback) {
      zend_async_event_callback_t* last = vector->data[--vector->length];
      if (slot != vector->length) {
        vector->data[slot] = last;
        if (IsWaiterCallback(last)) {
          PoolWaiter::FromCallback(last)->event_slot = slot;
        }
      }
      waiter->event_slot = PoolWaiter::kNoSlot;
      CountDownWaiterCallback(callback);  // its dispose
      return true;
    }
  }
  if (IsWaiterCallback(callback)) {
    PoolWaiter::FromCallback(callback)->event_slot = PoolWaiter::kNoSlot;
  }
  return zend_async_callbacks_remove(event, callback);
}

bool Start(zend_async_event_t*) { return true; }
bool Stop(zend_async_event_t*) { return true; }

bool Dispose(zend_async_event_t* event) {
  AsyncPool* pool = AsyncPool::FromEvent(event);
  if (ZEND_ASYNC_REF_TRACING()) TracePoolDispose(pool);
  if (!pool->closed()) PoolClose(&pool->base);
  StopHealthcheck(pool);
  zend_async_callbacks_free(event);
  // Normally empty after close; a waiter never outlives its reference.
  while (pool->waiters.PopBack() != nullptr) {
  }
  while (!pool->idle.empty()) {
    zval resource = pool->idle.PopFront();
    zval_ptr_dtor(&resource);
  }
  ReleaseUserHandlers(pool);
  ReleaseUserStrategy(pool);
  // Strict mode keeps the memory for a while, to catch a release of the
  // disposed pool (zend_async_ref/strict.h).
  std::string name;
  if (ZEND_ASYNC_REF_STRICT()) name = PoolName(pool);
  DestroyPoolLedger(pool);
  pool->~AsyncPool();
  if (name.empty() ||
      !zend_async_ref_strict_quarantine(event, sizeof(AsyncPool), name.c_str(),
                                        event->ref_count)) {
    efree(pool);
  }
  return true;
}

zend_string* Info(zend_async_event_t* event) {
  const AsyncPool* pool = AsyncPool::FromEvent(event);
  return zend_strpprintf(0, "Pool(idle=%zu, active=%u, reserved=%u, max=%u)",
                         static_cast<size_t>(pool->idle.size()),
                         pool->active_count, pool->reserved_count,
                         pool->base.max_size);
}

}  // namespace

void InitPoolEvent(AsyncPool* pool) {
  zend_async_event_t* event = pool->event();
  memset(event, 0, sizeof(*event));
  event->ref_count = 1;
  event->add_callback = AddCallback;
  event->del_callback = DelCallback;
  event->start = Start;
  event->stop = Stop;
  event->dispose = Dispose;
  event->info = Info;
}

}  // namespace zar::core
