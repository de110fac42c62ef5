// Deadlock resolution.
//
// Called by the scheduler fiber when nothing is queued, no microtask is
// pending, the reactor has no counted active event (HIDDEN events are not
// counted) or its loop is dead, and coroutines are still alive: they all
// wait for something nothing can deliver. The exit exception becomes
// Async\DeadlockError "Deadlock detected: no active coroutines, N
// coroutines in waiting" (any earlier exit exception chained as its
// previous), and every one of them is cancelled with Async\AsyncCancellation
// "Deadlock detected" (protection no longer applies), so each unwinds
// instead of hanging.

#include "core/scheduler/scheduler.h"

namespace zar::core::internal {

void ResolveDeadlock(SchedulerState* s) {
  const uint32_t waiting = zend_hash_num_elements(&s->coroutines);
  zend_object* deadlock = zend_async_new_exception(
      ZEND_ASYNC_EXCEPTION_DEADLOCK,
      "Deadlock detected: no active coroutines, %u coroutines in waiting",
      waiting);
  SetExitException(deadlock);
  OBJ_RELEASE(deadlock);

  for (zend_object* object : HoldRegisteredCoroutines(s)) {
    zend_coroutine_t* target = &AsyncCoroutine::FromObject(object)->coroutine;
    ZEND_COROUTINE_CLR_PROTECTED(target);
    ZEND_ASYNC_CANCEL(
        target,
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION,
                                 "Deadlock detected"),
        true);
    if (EG(exception) != nullptr) HandleUncaughtException();
    OBJ_RELEASE(object);
  }
}

}  // namespace zar::core::internal
