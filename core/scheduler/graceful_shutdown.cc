// The exit exception and graceful shutdown.
//
// The exit exception is what the request ends with: an exception nobody
// caught (a coroutine's, a microtask's, a reactor callback's), a deadlock.
// ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN throws it in the main flow once
// everything has run. Several are chained: the newest is the exit
// exception, the older ones its previous.
//
// Graceful shutdown (once per request): every live coroutine is cancelled
// with Async\AsyncCancellation "Graceful shutdown" (protection no longer
// applies; one that has not started finishes unrun), and the scheduler runs
// them to completion.

#include <vector>

#include "core/scheduler/scheduler.h"

namespace zar::core {
namespace internal {

void SetExitException(zend_object* exception) {
  GC_ADDREF(exception);
  zend_object* previous = ZEND_ASYNC_EXIT_EXCEPTION;
  ZEND_ASYNC_EXIT_EXCEPTION = exception;
  // set_previous takes over the reference the old exit exception held.
  if (previous != nullptr) zend_exception_set_previous(exception, previous);
}

void HandleUncaughtException() {
  zend_object* exception = zend_mock_exception_take();
  if (exception == nullptr) return;
  StartGracefulShutdown(exception);
  OBJ_RELEASE(exception);
}

void StartGracefulShutdown(zend_object* reason) {
  if (reason != nullptr) SetExitException(reason);
  if (ZEND_ASYNC_GRACEFUL_SHUTDOWN) return;
  ZEND_ASYNC_GRACEFUL_SHUTDOWN = true;
  if (reason == nullptr && ZEND_ASYNC_EXIT_EXCEPTION == nullptr) {
    zend_error(E_CORE_WARNING, "Graceful shutdown mode was started");
  }

  SchedulerState* s = State();
  if (s == nullptr) return;
  const std::vector<zend_object*> coroutines = HoldRegisteredCoroutines(s);

  zend_mock_parked_exception parked = zend_mock_exception_park();
  zend_object* cancellation = zend_async_new_exception(
      ZEND_ASYNC_EXCEPTION_CANCELLATION, "Graceful shutdown");
  for (zend_object* object : coroutines) {
    zend_coroutine_t* target = &AsyncCoroutine::FromObject(object)->coroutine;
    ZEND_COROUTINE_CLR_PROTECTED(target);
    ZEND_ASYNC_CANCEL(target, cancellation, false);
    if (EG(exception) != nullptr) {
      zend_object* error = zend_mock_exception_take();
      SetExitException(error);
      OBJ_RELEASE(error);
    }
    OBJ_RELEASE(object);
  }
  OBJ_RELEASE(cancellation);
  zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_BECOMES_PREVIOUS);
}

}  // namespace internal

bool Shutdown() {
  internal::StartGracefulShutdown(nullptr);
  return true;
}

}  // namespace zar::core
