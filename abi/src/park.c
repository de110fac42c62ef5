/*
 * zend-async-ref: the out-of-line parts of zend_async_ref_park
 * (zend_async_ref/park.h), its refusals; the protocol itself is inline in
 * the header.
 */
#include "zend_async_ref/park.h"

ZEND_API ZEND_COLD void zend_async_ref_park_release(
    zend_async_event_t *event, zend_coroutine_event_callback_t *event_callback,
    bool trans_event) {
  if (event == NULL) {
    return;
  }
  if (event_callback != NULL && event_callback->base.ref_count == 0) {
    if (event_callback->base.dispose == NULL) {
      event_callback->base.dispose = coroutine_event_callback_dispose;
    }
    event_callback->base.ref_count = 1;
    event_callback->base.dispose(&event_callback->base, NULL);
  }
  if (trans_event) {
    ZEND_ASYNC_EVENT_RELEASE(event);
  }
}

ZEND_API ZEND_COLD bool zend_async_ref_park_refuse(zend_coroutine_t *coroutine,
                                                   zval *result,
                                                   const char *why) {
  if (EG(exception) == NULL && why != NULL) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "%s", why);
  }
  if (coroutine != NULL && coroutine->waker != NULL) {
    zend_async_waker_clean(coroutine);
  }
  if (result != NULL) {
    ZVAL_UNDEF(result);
  }
  return false;
}
