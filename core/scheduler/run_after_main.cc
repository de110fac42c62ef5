// ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN(is_bailout) = suspend(true,
// is_bailout): the main script has ended.
//
// Nothing launched: returns true at once. Otherwise the main coroutine
// finishes (its awaiters are notified), the scheduler fiber runs every
// coroutine to completion, and the request's scheduler state is released:
// the state goes back to READY (as the engine's lifecycle expects; the mock
// engine sets READY again itself afterwards), the main scope is disposed,
// and the exit exception, if any, is thrown (chained under an exception in
// flight).
//
// is_bailout (the main flow bailed out), or a coroutine that bailed out
// meanwhile: graceful shutdown first, then, once everything has unwound,
// the main flow bails out again (zend_bailout).

#include "core/scheduler/scheduler.h"

namespace zar::core::internal {

bool RunAfterMain(bool is_bailout) {
  SchedulerState* s = State();
  if (s == nullptr) return true;
  zend_mock_parked_exception parked = zend_mock_exception_park();
  ZEND_ASYNC_SCHEDULER_CONTEXT = false;

  if (s->main != nullptr) {
    AsyncCoroutine* main = s->main;
    ZEND_ASYNC_CURRENT_COROUTINE = &main->coroutine;
    if (is_bailout) {
      ZEND_COROUTINE_SET_BAILOUT(&main->coroutine);
      s->bailout = true;
      StartGracefulShutdown(nullptr);
    }
    s->main = nullptr;
    ZEND_ASYNC_MAIN_COROUTINE = nullptr;
    FinishCoroutine(s, main, nullptr);
    main->fiber = nullptr;
    s->thread_fiber->data = nullptr;
    ReleaseCoroutine(main);
  } else if (is_bailout) {
    s->bailout = true;
    StartGracefulShutdown(nullptr);
  }

  if (s->scheduler_fiber != nullptr) {
    if (ZEND_ASYNC_REF_TRACING()) {
      TraceSwitchFrom("main", &s->scheduler->coroutine);
    }
    ZEND_ASYNC_CURRENT_COROUTINE = &s->scheduler->coroutine;
    s->thread_fiber->SwitchTo(s->scheduler_fiber);
  }

  const bool bailout = s->bailout;
  zend_object* exit_exception = ZEND_ASYNC_EXIT_EXCEPTION;
  ZEND_ASYNC_EXIT_EXCEPTION = nullptr;
  DestroyState();
  ZEND_ASSERT(ZEND_ASYNC_ACTIVE_COROUTINE_COUNT == 0);
  ZEND_ASYNC_ACTIVE_COROUTINE_COUNT = 0;
  ZEND_ASYNC_INITIALIZE;
  zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_BECOMES_PREVIOUS);

  if (bailout) {
    if (exit_exception != nullptr) OBJ_RELEASE(exit_exception);
    zend_bailout();
  }
  if (exit_exception != nullptr) {
    if (EG(exception) != nullptr) {
      zend_exception_set_previous(EG(exception), exit_exception);
    } else {
      zend_throw_exception_internal(exit_exception);
    }
  }
  return EG(exception) == nullptr;
}

}  // namespace zar::core::internal
