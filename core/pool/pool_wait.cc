// Parking acquires and waking them (pool.h: WaitForResource, WakeWaiter,
// WakeAllWaiters).
//
// A waiter lives in the frame of the acquire that waits (on the waiting
// coroutine's stack), so parking allocates nothing. Its callback's
// ref_count counts who holds it, as the ABI's callback rules say:
//   - the waiting acquire (from the start of the wait to its end);
//   - the queue (while it is queued);
//   - the pool event's callbacks vector (from resume_when until the
//     coroutine's waker lets go of the event, or close deletes it).
// The coroutine's waker also points at the callback (its trigger for the
// pool event) without a reference. When the acquire resumes it cleans the
// waker (which deletes the callback from the pool event) and leaves the
// queue, so when its frame ends nothing refers to the waiter any more;
// dispose therefore only ever counts down, it never frees.

#include <cstdio>

#include "core/pool/pool.h"
#include "core/pool/strict.h"
#include "core/pool/trace.h"

extern "C" {
#include "zend_async_ref/strict.h"
}

namespace zar::core {

using internal::PoolWaiter;

void DisposeWaiterCallback(zend_async_event_callback_t* callback,
                           zend_async_event_t* /*event*/) {
  CountDownWaiterCallback(callback);
}

namespace {

// Removes `waiter` from the queue, dropping the queue's reference.
void Unqueue(AsyncPool* pool, PoolWaiter* waiter) {
  if (pool->waiters.Remove(waiter)) {
    CountDownWaiterCallback(&waiter->callback.base);
  }
}

}  // namespace

bool WakeWaiter(AsyncPool* pool) {
  PoolWaiter* waiter = pool->waiters.ReserveOldestUnreserved();
  if (waiter == nullptr) return false;
  pool->reserved_count++;
  if (ZEND_ASYNC_REF_TRACING()) TracePoolReserve(pool, waiter);
  waiter->callback.base.callback(pool->event(), &waiter->callback.base, nullptr,
                                 nullptr);
  return true;
}

void WakeAllWaiters(AsyncPool* pool, zend_object* exception) {
  zend_async_event_t* event = pool->event();
  while (PoolWaiter* waiter = pool->waiters.PopBack()) {
    // The queue's reference now belongs to this loop.
    event->del_callback(event, &waiter->callback.base);
    if (ZEND_ASYNC_REF_TRACING()) TracePoolWake(pool, waiter, exception);
    waiter->callback.base.callback(event, &waiter->callback.base, nullptr,
                                   exception);
    CountDownWaiterCallback(&waiter->callback.base);
  }
}

namespace {

// Outside a coroutine: launches the scheduler so that the caller becomes
// the main coroutine. False (an exception thrown) when it cannot; strict
// mode reports why, and refuses to launch while async is off.
[[gnu::noinline]] bool EnterCoroutine(AsyncPool* pool) {
  constexpr char kCall[] = "ZEND_ASYNC_POOL_ACQUIRE";
  constexpr char kProblem[] = "cannot wait outside a coroutine";
  constexpr char kOutside[] =
      "Cannot wait for a pool resource outside a coroutine";
  if (ZEND_ASYNC_REF_STRICT() && ZEND_ASYNC_IS_OFF) {
    ReportOutsideCoroutine(pool, kCall, kProblem, "async is off");
    zend_throw_error(nullptr, kOutside);
    return false;
  }
  ZEND_ASYNC_SCHEDULER_LAUNCH();
  if (EG(exception) != nullptr) {
    if (ZEND_ASYNC_REF_STRICT()) {
      char error[256];
      char reason[320];
      zend_async_ref_describe_exception(EG(exception), error, sizeof(error));
      snprintf(reason, sizeof(reason), "the scheduler cannot be launched (%s)",
               error);
      ReportOutsideCoroutine(pool, kCall, kProblem, reason);
    }
    return false;
  }
  if (ZEND_ASYNC_CURRENT_COROUTINE == nullptr) {
    if (ZEND_ASYNC_REF_STRICT()) {
      ReportOutsideCoroutine(pool, kCall, kProblem,
                             "no scheduler is registered");
    }
    zend_throw_error(nullptr, kOutside);
    return false;
  }
  return true;
}

}  // namespace

bool WaitForResource(AsyncPool* pool, zend_long timeout_ms) {
  if (ZEND_ASYNC_CURRENT_COROUTINE == nullptr && !EnterCoroutine(pool)) {
    return false;
  }
  zend_coroutine_t* coroutine = ZEND_ASYNC_CURRENT_COROUTINE;
  if (ZEND_ASYNC_WAKER_NEW(coroutine) == nullptr) return false;

  PoolWaiter waiter = {};
  waiter.callback.base.ref_count = 1;  // this function's
  waiter.callback.base.callback = zend_async_waker_callback_resolve;
  waiter.callback.base.dispose = DisposeWaiterCallback;
  waiter.callback.coroutine = coroutine;
  waiter.callback.event = pool->event();
  waiter.event_slot = PoolWaiter::kNoSlot;
  pool->waiters.PushBack(&waiter);
  waiter.callback.base.ref_count++;  // the queue's
  if (ZEND_ASYNC_REF_TRACING()) TracePoolWait(pool);

  bool armed = zend_async_resume_when(coroutine, pool->event(), false,
                                      zend_async_waker_callback_resolve,
                                      &waiter.callback);
  if (armed && timeout_ms > 0) {
    zend_async_timer_event_t* timer =
        ZEND_ASYNC_NEW_TIMER_EVENT(static_cast<zend_ulong>(timeout_ms), false);
    armed = timer != nullptr &&
            zend_async_resume_when(coroutine, &timer->base, true,
                                   zend_async_waker_callback_timeout, nullptr);
  }
  if (armed) ZEND_ASYNC_SUSPEND();
  // Let go of the events now (the pool event's callback and reference, the
  // timer) rather than at the coroutine's next wait: the waiter's frame
  // ends below, and the pool must not look owned by a coroutine that got
  // going.
  if (coroutine->waker != nullptr) zend_async_waker_clean(coroutine);

  const bool reserved = waiter.reserved;
  Unqueue(pool, &waiter);
  ZEND_ASSERT(waiter.callback.base.ref_count == 1);
  ZEND_ASSERT(waiter.event_slot == PoolWaiter::kNoSlot);
  if (reserved) pool->reserved_count--;
  if (ZEND_ASYNC_REF_TRACING()) TracePoolWaitEnded(pool, reserved);
  if (reserved && EG(exception) != nullptr && !pool->closed()) {
    // It cannot use its place (cancelled, timed out): the next waiter may.
    if (ZEND_ASYNC_REF_TRACING()) TracePoolHandOn(pool);
    WakeWaiter(pool);
  }
  return reserved && EG(exception) == nullptr;
}

}  // namespace zar::core
