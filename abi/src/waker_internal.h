/*
 * zend-async-ref: what the ABI's translation units share without exporting.
 *
 * The waker keys its events table by a rotated event pointer, and the
 * registry installs the built-in waker constructor/destructor as defaults;
 * both live in waker.c. The three waker constructors (waker.c,
 * waker_callbacks.c) resolve their coroutine alike.
 * coroutine_event_callback_dispose (callbacks.c) and the inline-slot variant
 * used by zend_async_resume_when (waker.c) share one detach routine.
 *
 * Nothing here is part of the ABI: the names carry the zar_ prefix and
 * are not ZEND_API.
 */
#ifndef ZAR_ABI_SRC_WAKER_INTERNAL_H
#define ZAR_ABI_SRC_WAKER_INTERNAL_H

#include "zend_async_API.h"

/* The key of `event` in a waker's events / triggered_events tables: the
 * pointer rotated right by 3 bits (the low bits of an aligned pointer are
 * always zero, so rotating spreads the entropy into the bucket index). */
static zend_always_inline zend_ulong zar_waker_event_key(const void *event) {
  const zend_ulong key = (zend_ulong)(uintptr_t)event;
  return (key >> 3) | (key << (sizeof(key) * 8 - 3));
}

/* The coroutine a waker is made for: `coroutine`, or the current one when
 * NULL; NULL, with E_CORE_ERROR "Cannot create waker for a coroutine that
 * is not running", when there is none. */
static zend_always_inline zend_coroutine_t *zar_waker_coroutine(
    zend_coroutine_t *coroutine) {
  if (coroutine == NULL) {
    coroutine = ZEND_ASYNC_CURRENT_COROUTINE;
  }
  if (UNEXPECTED(coroutine == NULL)) {
    zend_error(E_CORE_ERROR,
               "Cannot create waker for a coroutine that is not running");
  }
  return coroutine;
}

/* The built-in zend_async_waker_new_fn / zend_async_waker_destroy_fn. */
zend_async_waker_t *zar_waker_new_default(zend_coroutine_t *coroutine);
void zar_waker_destroy_default(zend_coroutine_t *coroutine);

/* Detaches a coroutine callback whose last holder is gone from its
 * coroutine's waker (dropping the event's trigger, stopping and forgetting
 * the event when this was its last callback), then calls the event's
 * del_callback. Does not free the callback. */
void zar_coroutine_callback_detach(zend_async_event_callback_t *callback,
                                   zend_async_event_t *event);

/* dispose() of the callback slots embedded in a waker
 * (waker->inline_callbacks): like coroutine_event_callback_dispose, but
 * the last release marks the slot free (base.callback = NULL) instead of
 * freeing it. */
void zar_coroutine_inline_callback_dispose(
    zend_async_event_callback_t *callback, zend_async_event_t *event);

#endif /* ZAR_ABI_SRC_WAKER_INTERNAL_H */
