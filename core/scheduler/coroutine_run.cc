// Running coroutines on worker fibers, and finishing them.
//
// A worker fiber runs one coroutine after another. When its coroutine
// finishes it looks at the run queue: a coroutine that never started is
// adopted in place (no switch; the fiber reserved for it at its spawn is
// given back to the pool); one that runs on another fiber is switched
// to, this fiber parking in the pool (or exiting when the pool is full);
// with nothing queued it parks and switches to the scheduler fiber. A
// parked fiber is resumed by RunNext with a new coroutine assigned.
//
// Each coroutine body runs inside its own zend_try: a bailout (a fatal
// error) in a coroutine lands here, releases the frames it abandoned, and
// turns into a graceful shutdown of the whole request after which the main
// flow bails out again.

#include "core/internal/release.h"
#include "core/scheduler/scheduler.h"
#include "core/scheduler/scope.h"

namespace zar::core::internal {
namespace {

// Marks a bailed-out coroutine finished and takes it out of the scheduler
// and its scope. Its awaiters are not notified: the graceful shutdown that
// follows cancels them.
void AbandonCoroutine(SchedulerState* s, AsyncCoroutine* self) {
  zend_coroutine_t* coroutine = &self->coroutine;
  ZEND_COROUTINE_SET_BAILOUT(coroutine);
  ZEND_COROUTINE_SET_FINISHED(coroutine);
  RemoveFromRunQueue(s, self);
  ZEND_ASYNC_WAKER_DESTROY(coroutine);
  if (coroutine->internal_context != nullptr) {
    zend_async_coroutine_internal_context_dispose(coroutine);
  }
  UnregisterCoroutine(s, self);
  ScopeRemoveCoroutine(self);
}

// Runs the body of `self` on the current fiber, finishes the coroutine and
// lets go of it.
void RunCoroutine(SchedulerState* s, AsyncCoroutine* self) {
  zend_coroutine_t* coroutine = &self->coroutine;
  ZEND_COROUTINE_SET_STARTED(coroutine);
  // Whatever reached the waker before the start (a resume of the queued
  // coroutine) is stale: the body starts with a clean waker.
  if (coroutine->waker != nullptr) zend_async_waker_clean(coroutine);

  zend_try {
    if (coroutine->fcall != nullptr) {
      zend_fcall_t* fcall = coroutine->fcall;
      fcall->fci.retval = &coroutine->result;
      zend_call_function(&fcall->fci, &fcall->fci_cache);
      fcall->fci.retval = nullptr;
      // The callable is not needed any more; dropping it now breaks
      // cycles through closures that captured the coroutine.
      zval_ptr_dtor(&fcall->fci.function_name);
      ZVAL_UNDEF(&fcall->fci.function_name);
    } else if (coroutine->internal_entry != nullptr) {
      coroutine->internal_entry();
    }
    FinishCoroutine(s, self, zend_mock_exception_take());
  }
  zend_catch {
    zend_mock_release_bailout_frames();
    EG(current_execute_data) = nullptr;
    ZEND_ASYNC_SCHEDULER_CONTEXT = false;
    zend_clear_exception();
    AbandonCoroutine(s, self);
    OnBailout(s);
  }
  zend_end_try();

  self->fiber = nullptr;
  ReleaseCoroutine(self);
}

}  // namespace

void WorkerFiberBody(Fiber* self) {
  SchedulerState* s = State();
  // The name of the coroutine that ran last, for the trace's switch line
  // (it is gone by then); empty when tracing was off as it started.
  char finished[ZEND_ASYNC_REF_NAME_SIZE];
  for (;;) {
    auto* coroutine = static_cast<AsyncCoroutine*>(self->data);
    finished[0] = '\0';
    if (ZEND_ASYNC_REF_TRACING()) {
      zend_async_ref_coroutine_name(&coroutine->coroutine, finished);
    }
    RunCoroutine(s, coroutine);
    self->data = nullptr;
    ZEND_ASYNC_CURRENT_COROUTINE = &s->scheduler->coroutine;

    Tick(s);
    AsyncCoroutine* next = TakeNext(s);
    if (ZEND_ASYNC_REF_TRACING()) {
      TraceSwitchFrom(
          finished[0] != '\0' ? finished : "scheduler",
          next != nullptr ? &next->coroutine : &s->scheduler->coroutine);
    }
    if (next != nullptr && !ZEND_COROUTINE_IS_STARTED(&next->coroutine)) {
      // Adopt a coroutine that never ran: no switch. The stack reserved
      // for it at its spawn goes back to the pool.
      if (next->fiber != nullptr) ReturnFiber(s, next->fiber);
      self->data = next;
      next->fiber = self;
      ZEND_ASYNC_CURRENT_COROUTINE = &next->coroutine;
      continue;
    }
    Fiber* target;
    if (next != nullptr) {
      target = next->fiber;
      ZEND_ASYNC_CURRENT_COROUTINE = &next->coroutine;
    } else {
      target = s->scheduler_fiber;
      ZEND_ASYNC_CURRENT_COROUTINE = &s->scheduler->coroutine;
    }
    if (!ParkFiber(s, self)) self->ExitTo(target);
    // Parked; RunNext resumes this fiber with a new coroutine in data.
    self->SwitchTo(target);
  }
}

void FinishCoroutine(SchedulerState* s, AsyncCoroutine* self,
                     zend_object* exception) {
  zend_coroutine_t* coroutine = &self->coroutine;
  zend_async_event_t* event = &coroutine->event;

  // A cancellation that reached the running coroutine and was never
  // delivered at a suspension is its outcome when it ended without error.
  if (coroutine->exception != nullptr) {
    if (exception == nullptr) {
      exception = coroutine->exception;
    } else {
      OBJ_RELEASE(coroutine->exception);
    }
    coroutine->exception = nullptr;
  }
  core::internal::ReleaseAndClear(self->deferred_cancellation);
  RemoveFromRunQueue(s, self);
  if (ZEND_ASYNC_REF_TRACING()) TraceFinish(exception);

  ZEND_COROUTINE_SET_FINISHED(coroutine);
  if (exception != nullptr && IsCancellation(exception)) {
    ZEND_COROUTINE_SET_CANCELLED(coroutine);
  }
  coroutine->exception = exception;
  if (coroutine->switch_handlers != nullptr) {
    ZEND_COROUTINE_FINISH(coroutine);
  }

  // The awaiters get &result (a zval*) and the exception. Finish callbacks
  // may suspend this coroutine while they run (see `finalizing`).
  ZEND_ASYNC_EVENT_SET_ZVAL_RESULT(event);
  self->finalizing = true;
  ZEND_ASYNC_CALLBACKS_NOTIFY(event, &coroutine->result, exception);
  self->finalizing = false;
  zend_object* callback_error = zend_mock_exception_take();
  zend_async_callbacks_free(event);
  const bool handled = exception == nullptr ||
                       ZEND_ASYNC_EVENT_IS_EXCEPTION_HANDLED(event) ||
                       IsCancellation(exception);

  if (coroutine->internal_context != nullptr) {
    zend_async_coroutine_internal_context_dispose(coroutine);
  }
  ZEND_ASYNC_WAKER_DESTROY(coroutine);
  UnregisterCoroutine(s, self);

  if (!handled) {
    // Nobody awaited it: its scope decides; unhandled, it ends the request.
    zend_async_scope_t* scope = coroutine->scope;
    const bool caught = scope != nullptr &&
                        scope->catch_or_cancel(
                            scope, coroutine, nullptr, exception, false,
                            ZEND_ASYNC_SCOPE_IS_DISPOSE_SAFELY(scope), false);
    if (EG(exception) != nullptr) HandleUncaughtException();
    if (!caught) StartGracefulShutdown(exception);
  }
  if (callback_error != nullptr) {
    StartGracefulShutdown(callback_error);
    OBJ_RELEASE(callback_error);
  }
  ScopeRemoveCoroutine(self);
}

void OnBailout(SchedulerState* s) {
  s->bailout = true;
  StartGracefulShutdown(nullptr);
}

}  // namespace zar::core::internal
