/*
 * zend-async-ref: the refusals of zend_async_ref_park
 * (zend_async_ref/park.h); the protocol itself is inline in the header.
 */
#include "zend_async_ref/park.h"

/* Releases what the park owns of an entry resume_when never saw: a
 * callback record nobody holds (ref_count 0) is disposed the way
 * resume_when disposes one it owns, a transferred event loses the
 * caller's reference. */
static void release_unarmed(const zend_async_ref_park_event_t *wait) {
  if (wait->event == NULL) {
    return;
  }
  zend_coroutine_event_callback_t *callback = wait->event_callback;
  if (callback != NULL && callback->base.ref_count == 0) {
    if (callback->base.dispose == NULL) {
      callback->base.dispose = coroutine_event_callback_dispose;
    }
    callback->base.ref_count = 1;
    callback->base.dispose(&callback->base, NULL);
  }
  if (wait->trans_event) {
    ZEND_ASYNC_EVENT_RELEASE(wait->event);
  }
}

ZEND_API ZEND_COLD bool zend_async_ref_park_refuse(
    zend_coroutine_t *coroutine, const zend_async_ref_park_t *park, int stage,
    const char *why) {
  if (EG(exception) == NULL && why != NULL) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "%s", why);
  }
  /* A timer refusal (stage NO_TIMER) comes after every event was armed.
   * resume_when refuses a closed event before it takes anything over, and
   * releases what it took on any other refusal. */
  int first = stage;
  if (stage == ZEND_ASYNC_REF_PARK_NO_WAKER) {
    first = 0;
  } else if (stage == ZEND_ASYNC_REF_PARK_NO_TIMER) {
    first = ZEND_ASYNC_REF_PARK_EVENTS;
  } else if (!ZEND_ASYNC_EVENT_IS_CLOSED(park->events[stage].event)) {
    first = stage + 1;
  }
  for (int i = first; i < ZEND_ASYNC_REF_PARK_EVENTS; i++) {
    release_unarmed(&park->events[i]);
  }
  if (coroutine != NULL && coroutine->waker != NULL) {
    zend_async_waker_clean(coroutine);
  }
  if (park->result != NULL) {
    ZVAL_UNDEF(park->result);
  }
  return false;
}
