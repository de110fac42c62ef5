// Making coroutines runnable: enqueue and resume.

#include "core/scheduler/scheduler.h"

namespace zar::core {
namespace {

using internal::SchedulerState;

// A coroutine made with new_coroutine and queued for the first time joins
// its scope and the scheduler (which takes over its creation reference).
bool AdoptNewCoroutine(SchedulerState* s, AsyncCoroutine* self) {
  zend_coroutine_t* coroutine = &self->coroutine;
  zend_async_scope_t* scope = coroutine->scope;
  if (UNEXPECTED(scope == nullptr)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "The coroutine has no scope assigned");
    return false;
  }
  ApplyCurrentLocation(&coroutine->filename, &coroutine->lineno);
  if (!self->scope_member) {
    zval options;
    ZVAL_UNDEF(&options);
    const bool accepted =
        scope->before_coroutine_enqueue(coroutine, scope, &options);
    zval_ptr_dtor(&options);
    if (!accepted || EG(exception) != nullptr) return false;
  }
  internal::RegisterCoroutine(s, self);
  scope->after_coroutine_enqueue(coroutine, scope);
  return EG(exception) == nullptr;
}

// Everything but the common case: launching, the current coroutine by
// NULL, refusals, a missing waker, a coroutine queued for the first time.
// Out of line, so that the fast paths below need no stack frame.
[[gnu::noinline]] bool EnqueueSlow(zend_coroutine_t* coroutine) {
  SchedulerState* s = internal::State();
  if (s == nullptr) {
    if (!Launch()) return false;
    s = internal::State();
  }
  if (coroutine == nullptr) coroutine = ZEND_ASYNC_CURRENT_COROUTINE;
  if (UNEXPECTED(coroutine == nullptr || coroutine == ZEND_ASYNC_SCHEDULER)) {
    // Upstream only asserts this; refused with its class for the
    // scheduler's refusals.
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "The scheduler coroutine cannot be enqueued");
    return false;
  }
  AsyncCoroutine* self = AsyncCoroutine::FromAbi(coroutine);
  if (UNEXPECTED(ZEND_COROUTINE_IS_FINISHED(coroutine) && !self->finalizing)) {
    return false;
  }

  zend_async_waker_t* waker = coroutine->waker;
  if (waker == nullptr) {
    waker = ZEND_ASYNC_WAKER_NEW(coroutine);
  } else if (ZEND_ASYNC_WAKER_IN_QUEUE(waker)) {
    return true;
  }
  if (!self->registered && !ZEND_COROUTINE_IS_STARTED(coroutine) &&
      !AdoptNewCoroutine(s, self)) {
    waker->status = ZEND_ASYNC_WAKER_NO_STATUS;
    return false;
  }
  internal::PushRunnable(s, self);
  waker->status = ZEND_ASYNC_WAKER_QUEUED;
  if (!waker->events_stopped) zend_async_waker_stop_events(waker);
  return true;
}

// Ends an enqueue whose waker's events were not stopped yet: a coroutine
// ready to run needs none of them to fire any more.
[[gnu::noinline]] bool StopEventsOfQueued(zend_async_waker_t* waker) {
  zend_async_waker_stop_events(waker);
  return true;
}

// The common case of Enqueue: a live, registered coroutine with a waker,
// in a launched scheduler, and room in the run queue. False (nothing done)
// when the slow path must decide. It makes no call but a tail call, so it
// needs no stack frame where it is inlined.
inline bool TryEnqueueFast(zend_coroutine_t* coroutine) {
  SchedulerState* s = internal::State();
  if (UNEXPECTED(s == nullptr || coroutine == nullptr)) return false;
  AsyncCoroutine* self = AsyncCoroutine::FromAbi(coroutine);
  zend_async_waker_t* waker = coroutine->waker;
  // A finished coroutine is refused by the slow path unless it is still
  // finalizing.
  if (UNEXPECTED(waker == nullptr || !self->registered ||
                 ZEND_COROUTINE_IS_FINISHED(coroutine))) {
    return false;
  }
  if (ZEND_ASYNC_WAKER_IN_QUEUE(waker)) return true;
  // PushRunnable, leaving a full ring to the slow path (which grows it).
  if (!self->queued) {
    if (UNEXPECTED(!s->run_queue.TryPushBack(self))) return false;
    self->queued = true;
  }
  waker->status = ZEND_ASYNC_WAKER_QUEUED;
  if (!waker->events_stopped) return StopEventsOfQueued(waker);
  return true;
}

// Everything Resume does but the common case (see Resume).
[[gnu::noinline]] bool ResumeSlow(zend_coroutine_t* coroutine,
                                  zend_object* error, bool transfer_error) {
  zend_async_waker_t* waker = coroutine->waker;
  if (UNEXPECTED(waker == nullptr ||
                 (waker->status == ZEND_ASYNC_WAKER_NO_STATUS &&
                  !ZEND_ASYNC_IS_SCHEDULER_CONTEXT))) {
    if (transfer_error && error != nullptr) OBJ_RELEASE(error);
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Cannot resume a coroutine that has not been suspended");
    return false;
  }

  if (error != nullptr) {
    if (waker->error != nullptr && IsCancellation(error)) {
      // A cancellation does not replace an error already on its way.
      if (transfer_error) OBJ_RELEASE(error);
    } else {
      ZEND_ASYNC_WAKER_APPLY_ERROR(waker, error, transfer_error);
    }
  }

  if (ZEND_ASYNC_WAKER_IN_QUEUE(waker)) return true;

  if (ZEND_ASYNC_IS_SCHEDULER_CONTEXT &&
      coroutine == ZEND_ASYNC_CURRENT_COROUTINE) {
    // Woken while it is suspending (an event fired as it started): it
    // does not switch at all.
    waker->status = ZEND_ASYNC_WAKER_RESULT;
    zend_async_waker_stop_events(waker);
    return true;
  }
  return internal::MakeRunnable(coroutine);
}

}  // namespace

bool Enqueue(zend_coroutine_t* coroutine) {
  if (ZEND_ASYNC_REF_TRACING()) TraceEnqueue(coroutine);
  return internal::MakeRunnable(coroutine);
}

bool internal::MakeRunnable(zend_coroutine_t* coroutine) {
  if (kFastPaths && EXPECTED(TryEnqueueFast(coroutine))) return true;
  return EnqueueSlow(coroutine);
}

bool Resume(zend_coroutine_t* coroutine, zend_object* error,
            bool transfer_error) {
  if (ZEND_ASYNC_REF_TRACING()) TraceResume(coroutine, error);
  // The common case: a waiting coroutine woken without an error, outside
  // scheduler context, is queued (what the general path below does too).
  const zend_async_waker_t* waker = coroutine->waker;
  if (kFastPaths &&
      EXPECTED(waker != nullptr && error == nullptr &&
               waker->status == ZEND_ASYNC_WAKER_WAITING &&
               !ZEND_ASYNC_IS_SCHEDULER_CONTEXT) &&
      EXPECTED(TryEnqueueFast(coroutine))) {
    return true;
  }
  return ResumeSlow(coroutine, error, transfer_error);
}

}  // namespace zar::core
