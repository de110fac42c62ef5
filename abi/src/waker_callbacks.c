/*
 * zend-async-ref: the waker's standard resume callbacks, the waker with a
 * timeout and/or a cancellation event, and the rules that merge errors
 * into a waker.
 *
 * The callbacks run as event callbacks (zend_coroutine_event_callback_t)
 * and resume their coroutine through ZEND_ASYNC_RESUME_WITH_ERROR, i.e.
 * through the registered scheduler.
 */
#include "waker_internal.h"
#include "zend_async_API.h"

ZEND_API zend_async_waker_t *zend_async_waker_new_with_timeout(
    zend_coroutine_t *coroutine, const zend_ulong timeout,
    zend_async_event_t *cancellation) {
  coroutine = zar_waker_coroutine(coroutine);
  if (UNEXPECTED(coroutine == NULL)) {
    return NULL;
  }

  zend_async_waker_t *waker = ZEND_ASYNC_WAKER_NEW(coroutine);

  if (timeout > 0) {
    /* The timer resolves (not times out): the caller decides what a fired
     * timer means. A relative timeout from userland: the reactor refreshes
     * its cached clock before arming it, so time spent in synchronous work
     * before the wait does not count against it. */
    zend_async_timer_event_t *timer =
        ZEND_ASYNC_NEW_TIMER_EVENT(timeout, false);
    if (UNEXPECTED(timer == NULL)) {
      return waker;
    }
    ZEND_ASYNC_TIMER_SET_REFRESH_CLOCK(timer);
    zend_async_resume_when(coroutine, &timer->base, true,
                           zend_async_waker_callback_resolve, NULL);
  }

  if (cancellation != NULL) {
    zend_async_resume_when(coroutine, cancellation, false,
                           zend_async_waker_callback_cancel, NULL);
  }

  return waker;
}

/* ===================================================================== */
/* Standard resume callbacks                                              */
/* ===================================================================== */

ZEND_API void zend_async_waker_callback_resolve(
    zend_async_event_t *event, zend_async_event_callback_t *callback,
    void *result, zend_object *exception) {
  zend_coroutine_t *coroutine =
      ((zend_coroutine_event_callback_t *)callback)->coroutine;

  if (exception == NULL && coroutine->waker != NULL &&
      ZEND_ASYNC_EVENT_WILL_ZVAL_RESULT(event) && result != NULL) {
    ZVAL_COPY(&coroutine->waker->result, (zval *)result);
  }

  if (exception != NULL) {
    /* The exception goes to the coroutine, so it counts as handled. */
    ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
  }

  ZEND_ASYNC_RESUME_WITH_ERROR(coroutine, exception, false);
}

ZEND_API void zend_async_waker_callback_cancel(
    zend_async_event_t *event, zend_async_event_callback_t *callback,
    void *result, zend_object *exception) {
  (void)event;
  (void)result;
  zend_coroutine_t *coroutine =
      ((zend_coroutine_event_callback_t *)callback)->coroutine;

  zend_object *error = zend_async_new_exception(
      ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED, "Operation has been cancelled");

  if (UNEXPECTED(exception != NULL)) {
    /* set_previous takes over the reference added here. */
    GC_ADDREF(exception);
    zend_exception_set_previous(error, exception);
  }

  ZEND_ASYNC_RESUME_WITH_ERROR(coroutine, error, true);
}

ZEND_API void zend_async_waker_callback_timeout(
    zend_async_event_t *event, zend_async_event_callback_t *callback,
    void *result, zend_object *exception) {
  (void)event;
  (void)result;
  zend_coroutine_t *coroutine =
      ((zend_coroutine_event_callback_t *)callback)->coroutine;

  if (UNEXPECTED(exception != NULL)) {
    ZEND_ASYNC_RESUME_WITH_ERROR(coroutine, exception, false);
    return;
  }

  zend_object *error = zend_async_new_exception(
      ZEND_ASYNC_EXCEPTION_TIMEOUT, "Operation has been cancelled by timeout");
  ZEND_ASYNC_RESUME_WITH_ERROR(coroutine, error, true);
}

/* ===================================================================== */
/* Errors                                                                 */
/* ===================================================================== */

/* Merge rules: no waker -> drop (released when transferred), false; no
 * error yet -> store, true; for_cancellation over an existing Cancellation
 * -> keep the existing one, false; override -> the new error becomes
 * current with the old one as its previous; otherwise the new error is
 * chained under the current one. The waker (or the chain) always ends up
 * holding exactly one reference to `error`: the caller's when transfer_error,
 * a new one otherwise. */
ZEND_API bool zend_async_waker_apply_error(zend_async_waker_t *waker,
                                           zend_object *error,
                                           bool transfer_error, bool override,
                                           bool for_cancellation) {
  if (UNEXPECTED(waker == NULL)) {
    if (transfer_error) {
      OBJ_RELEASE(error);
    }
    return false;
  }

  if (waker->error == NULL) {
    waker->error = error;
    if (!transfer_error) {
      GC_ADDREF(error);
    }
    return true;
  }

  if (for_cancellation) {
    const zend_class_entry *cancellation_ce =
        ZEND_ASYNC_GET_EXCEPTION_CE(ZEND_ASYNC_EXCEPTION_CANCELLATION);
    if (cancellation_ce != NULL &&
        instanceof_function(waker->error->ce, cancellation_ce)) {
      if (transfer_error) {
        OBJ_RELEASE(error);
      }
      return false;
    }
  }

  /* zend_exception_set_previous takes over one reference of its second
   * argument: the waker's reference to the old error (override) or the
   * one the chain keeps to the new error. */
  if (override) {
    zend_exception_set_previous(error, waker->error);
    waker->error = error;
  } else {
    zend_exception_set_previous(waker->error, error);
  }

  if (!transfer_error) {
    GC_ADDREF(error);
  }

  return true;
}
