// Suspending the current coroutine: the hot path of the scheduler.
//
//   1. Park the exception in flight (EG(exception) is NULL across switches).
//   2. A cancellation requested while the coroutine ran is thrown here
//      instead of suspending.
//   3. A waker with nothing to wait for (no events, no place in the run
//      queue) ends the suspension at once: its waker is destroyed, the
//      parked exception restored, true returned, nothing switched (as
//      upstream since php-async 31490c0: events a coroutine added may have
//      fired before it suspended).
//   4. Status WAITING (unless queued), every waker event started; an event
//      that fires at once resumes without a switch.
//   5. Tick, then switch straight to the next queued coroutine (the
//      scheduler fiber only when none is queued).
//   6. Resumed: QUEUED -> RESULT, throw the waker's error, restore the
//      parked exception.
// No allocation, clock read or system call happens on this path.

#include "core/observability.h"
#include "core/scheduler/scheduler.h"

extern "C" {
#include "zend_async_ref/strict.h"
}

namespace zar::core {
namespace {

using internal::SchedulerState;

// RefusedSuspensions(): the request's thread only.
uint64_t refused_suspensions = 0;

// Fails a suspension before it switched, an exception thrown while its
// events started: the waker is cleaned and the exception stays (chained
// with the parked one).
[[gnu::noinline]] bool FailSuspend(SchedulerState* s, AsyncCoroutine* self,
                                   zend_mock_parked_exception* parked) {
  zend_coroutine_t* coroutine = &self->coroutine;
  internal::RemoveFromRunQueue(s, self);
  if (coroutine->waker != nullptr) {
    zend_object* error = zend_mock_exception_take();
    zend_async_waker_stop_events(coroutine->waker);
    zend_async_waker_clean(coroutine);
    if (error != nullptr) zend_throw_exception_internal(error);
  }
  zend_mock_exception_unpark(parked, ZEND_MOCK_PARKED_BECOMES_PREVIOUS);
  return false;
}

// A cancellation that reached the coroutine while it ran (or while it was
// protected) is delivered at its next suspension: it is thrown here.
[[gnu::noinline]] bool DeliverPendingCancellation(
    SchedulerState* s, AsyncCoroutine* self,
    zend_mock_parked_exception* parked) {
  zend_coroutine_t* coroutine = &self->coroutine;
  if (self->deferred_cancellation != nullptr &&
      !ZEND_COROUTINE_IS_PROTECTED(coroutine)) {
    if (coroutine->exception == nullptr) {
      coroutine->exception = self->deferred_cancellation;
    } else {
      OBJ_RELEASE(self->deferred_cancellation);
    }
    self->deferred_cancellation = nullptr;
  }
  if (coroutine->exception == nullptr) return false;
  zend_object* cancellation = coroutine->exception;
  coroutine->exception = nullptr;
  internal::RemoveFromRunQueue(s, self);
  if (coroutine->waker != nullptr) zend_async_waker_clean(coroutine);
  zend_throw_exception_internal(cancellation);
  zend_mock_exception_unpark(parked, ZEND_MOCK_PARKED_BECOMES_PREVIOUS);
  return true;
}

// Starts every event of the waker (in scheduler context: an event may fire
// and resume the coroutine right away).
[[gnu::always_inline]] inline void StartEvents(zend_async_waker_t* waker) {
  bool& in_scheduler_context = ZEND_ASYNC_SCHEDULER_CONTEXT;
  const bool was_in_scheduler_context = in_scheduler_context;
  in_scheduler_context = true;
  waker->events_stopped = 0;
  zval* trigger_zv;
  ZEND_HASH_FOREACH_VAL(&waker->events, trigger_zv) {
    zend_async_waker_trigger_t* trigger =
        static_cast<zend_async_waker_trigger_t*>(Z_PTR_P(trigger_zv));
    if (trigger->event != nullptr) trigger->event->start(trigger->event);
    if (waker->status == ZEND_ASYNC_WAKER_RESULT || EG(exception) != nullptr) {
      break;
    }
  }
  ZEND_HASH_FOREACH_END();
  in_scheduler_context = was_in_scheduler_context;
}

// Leaves the running coroutine `self` and runs the next one. Returns when
// `self` runs again.
[[gnu::always_inline]] inline void SwitchAway(SchedulerState* s,
                                              AsyncCoroutine* self) {
  const zend_async_waker_t* waker = self->coroutine.waker;
  internal::Tick(s);
  if (UNEXPECTED(waker->status == ZEND_ASYNC_WAKER_RESULT)) return;
  for (;;) {
    AsyncCoroutine* next = internal::TakeNext(s);
    if (next == self) return;  // it yielded and is the next to run
    if (next == nullptr) {
      if (ZEND_ASYNC_REF_TRACING()) {
        TraceSwitch(&self->coroutine, &s->scheduler->coroutine);
      }
      ZEND_ASYNC_CURRENT_COROUTINE = &s->scheduler->coroutine;
      self->fiber->SwitchTo(s->scheduler_fiber);
      return;
    }
    if (EXPECTED(internal::RunNext(s, self->fiber, next))) return;
  }
}

// Steps 5 and 6 up to the waker's error: unless the coroutine was resumed
// while its events started (then nothing switches), records where it
// suspends, leaves (switch handlers), runs others until it is resumed, and
// enters again. Returns its waker, RESULT unless it is still queued.
[[gnu::always_inline]] inline zend_async_waker_t* SwitchUntilResumed(
    SchedulerState* s, AsyncCoroutine* self, zend_async_waker_t* waker) {
  zend_coroutine_t* coroutine = &self->coroutine;
  if (UNEXPECTED(waker->status == ZEND_ASYNC_WAKER_RESULT)) {
    // Resumed while its events started: no switch.
    zend_hash_clean(&waker->events);
    return waker;
  }
  if (UNEXPECTED(coroutine->switch_handlers != nullptr)) {
    ZEND_COROUTINE_LEAVE(coroutine);
  }
  ApplyCurrentLocation(&waker->filename, &waker->lineno);
  SwitchAway(s, self);  // whoever switches back made it current
  waker = coroutine->waker;
  if (waker->status == ZEND_ASYNC_WAKER_QUEUED) {
    waker->status = ZEND_ASYNC_WAKER_RESULT;
  }
  if (UNEXPECTED(coroutine->switch_handlers != nullptr)) {
    ZEND_COROUTINE_ENTER(coroutine);
  }
  return waker;
}

// The suspension of the current coroutine: every step of the file comment,
// whatever the state. The documented path: with ZAR_FAST_PATHS off, every
// suspension takes it; with it on, SuspendFast below serves the common case
// and falls back here.
[[gnu::noinline]] bool SuspendCoroutine() {
  zend_mock_parked_exception parked = zend_mock_exception_park();
  if (internal::State() == nullptr && !Launch()) {
    zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_BECOMES_PREVIOUS);
    return false;
  }
  SchedulerState* s = internal::State();
  zend_coroutine_t* coroutine = ZEND_ASYNC_CURRENT_COROUTINE;

  if (UNEXPECTED(ZEND_ASYNC_IS_SCHEDULER_CONTEXT ||
                 coroutine == ZEND_ASYNC_SCHEDULER)) {
    refused_suspensions++;
    if (ZEND_ASYNC_REF_STRICT()) ReportSuspendInSchedulerContext(coroutine);
    zend_async_throw(
        ZEND_ASYNC_EXCEPTION_DEFAULT,
        "A coroutine cannot be stopped from the Scheduler context");
    zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_BECOMES_PREVIOUS);
    return false;
  }
  AsyncCoroutine* self = AsyncCoroutine::FromAbi(coroutine);
  if (UNEXPECTED(coroutine->exception != nullptr ||
                 self->deferred_cancellation != nullptr) &&
      DeliverPendingCancellation(s, self, &parked)) {
    return false;
  }

  zend_async_waker_t* waker = coroutine->waker;
  if (UNEXPECTED(waker == nullptr ||
                 (ZEND_ASYNC_WAKER_NOT_IN_QUEUE(waker) &&
                  zend_hash_num_elements(&waker->events) == 0))) {
    // Step 3: nothing to wait for.
    ZEND_ASYNC_WAKER_DESTROY(coroutine);
    zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_BECOMES_PREVIOUS);
    return true;
  }
  const bool not_in_queue = ZEND_ASYNC_WAKER_NOT_IN_QUEUE(waker);
  if (not_in_queue) waker->status = ZEND_ASYNC_WAKER_WAITING;

  if (zend_hash_num_elements(&waker->events) != 0) {
    StartEvents(waker);
    if (UNEXPECTED(EG(exception) != nullptr)) {
      return FailSuspend(s, self, &parked);
    }
  }

  waker = SwitchUntilResumed(s, self, waker);

  if (UNEXPECTED(s->bailout && self == s->main)) {
    // A coroutine bailed out: the main flow bails out too, after which
    // ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN(true) shuts down gracefully.
    if (parked.exception != nullptr) OBJ_RELEASE(parked.exception);
    if (parked.prev_exception != nullptr) OBJ_RELEASE(parked.prev_exception);
    zend_clear_exception();
    zend_bailout();
  }

  if (waker->error != nullptr) {
    zend_object* error = waker->error;
    waker->error = nullptr;
    zend_throw_exception_internal(error);
  }
  zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_BECOMES_PREVIOUS);
  return EG(exception) == nullptr;
}

// The suspension's fast path (ZAR_FAST_PATHS), for almost every call:
// launched, nothing in flight, not in scheduler context, no pending
// cancellation, no switch handlers, and a waker that is queued (a yield) or
// has events. It does what SuspendCoroutine does in that state, minus the steps
// with nothing to do (parking and restoring an empty exception slot, the
// handlers), and falls back to it before any side effect when the state is
// anything else.
[[maybe_unused]] bool SuspendFast() {
  SchedulerState* s = internal::State();
  zend_coroutine_t* coroutine = ZEND_ASYNC_CURRENT_COROUTINE;
  if (UNEXPECTED(s == nullptr || EG(exception) != nullptr ||
                 EG(prev_exception) != nullptr ||
                 ZEND_ASYNC_IS_SCHEDULER_CONTEXT ||
                 coroutine == ZEND_ASYNC_SCHEDULER)) {
    return SuspendCoroutine();
  }
  AsyncCoroutine* self = AsyncCoroutine::FromAbi(coroutine);
  zend_async_waker_t* waker = coroutine->waker;
  if (UNEXPECTED(waker == nullptr || coroutine->exception != nullptr ||
                 self->deferred_cancellation != nullptr ||
                 coroutine->switch_handlers != nullptr)) {
    return SuspendCoroutine();
  }
  const bool has_events = zend_hash_num_elements(&waker->events) != 0;
  if (ZEND_ASYNC_WAKER_NOT_IN_QUEUE(waker)) {
    if (UNEXPECTED(!has_events)) return SuspendCoroutine();  // step 3
    waker->status = ZEND_ASYNC_WAKER_WAITING;
  }

  if (has_events) {
    StartEvents(waker);
    if (UNEXPECTED(EG(exception) != nullptr)) {
      zend_mock_parked_exception nothing_parked{nullptr, nullptr};
      return FailSuspend(s, self, &nothing_parked);
    }
  }

  waker = SwitchUntilResumed(s, self, waker);

  if (UNEXPECTED(s->bailout && self == s->main)) {
    // As in SuspendCoroutine (nothing was parked).
    zend_clear_exception();
    zend_bailout();
  }
  if (UNEXPECTED(waker->error != nullptr)) {
    zend_object* error = waker->error;
    waker->error = nullptr;
    zend_throw_exception_internal(error);
  }
  return EG(exception) == nullptr;
}

}  // namespace

uint64_t RefusedSuspensions() { return refused_suspensions; }

bool Suspend(bool from_main, bool is_bailout) {
  if (UNEXPECTED(from_main)) return internal::RunAfterMain(is_bailout);
  if (ZEND_ASYNC_REF_TRACING()) TraceSuspend();
  if constexpr (kFastPaths) return SuspendFast();
  return SuspendCoroutine();
}

}  // namespace zar::core
