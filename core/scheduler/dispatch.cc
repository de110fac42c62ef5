// Choosing the next coroutine and transferring control to it: the part of
// every switch the suspending coroutine, a finished fiber and the scheduler
// fiber share.

#include "core/scheduler/scheduler.h"

namespace zar::core::internal {

void FinishUnstarted(SchedulerState* s, AsyncCoroutine* coroutine) {
  zend_async_waker_t* waker = coroutine->coroutine.waker;
  zend_object* error = waker->error;
  waker->error = nullptr;
  waker->status = ZEND_ASYNC_WAKER_NO_STATUS;  // out of the queue
  if (coroutine->fiber != nullptr) {  // the stack reserved at the spawn
    ReturnFiber(s, coroutine->fiber);
    coroutine->fiber = nullptr;
  }

  zend_coroutine_t* previous = ZEND_ASYNC_CURRENT_COROUTINE;
  ZEND_ASYNC_CURRENT_COROUTINE = &coroutine->coroutine;
  FinishCoroutine(s, coroutine, error);
  ZEND_ASYNC_CURRENT_COROUTINE = previous;
  ReleaseCoroutine(coroutine);
}

void RemoveFromRunQueue(SchedulerState* s, AsyncCoroutine* coroutine) {
  if (!coroutine->queued) return;
  coroutine->queued = false;
  s->run_queue.RemoveFirst(coroutine);
}

bool AssignFiberOrFail(SchedulerState* s, AsyncCoroutine* next) {
  if (AssignFiber(s, next)) return true;
  // It cannot run: it finishes with the error.
  zend_coroutine_t* previous = ZEND_ASYNC_CURRENT_COROUTINE;
  ZEND_ASYNC_CURRENT_COROUTINE = &next->coroutine;
  FinishCoroutine(s, next, zend_mock_exception_take());
  ZEND_ASYNC_CURRENT_COROUTINE = previous;
  ReleaseCoroutine(next);
  return false;
}

void TickSlow(SchedulerState* s) {
  bool& in_scheduler_context = ZEND_ASYNC_SCHEDULER_CONTEXT;
  const bool was_in_scheduler_context = in_scheduler_context;
  in_scheduler_context = true;
  ZEND_ASYNC_SCHEDULER_HEARTBEAT;
  if (!s->microtasks.empty()) RunMicrotasks(s);
  if (s->until_poll == 0) {
    s->until_poll = kPollInterval;
    ZEND_ASYNC_REACTOR_EXECUTE(true);
    if (UNEXPECTED(EG(exception) != nullptr)) HandleUncaughtException();
  }
  in_scheduler_context = was_in_scheduler_context;
}

}  // namespace zar::core::internal
