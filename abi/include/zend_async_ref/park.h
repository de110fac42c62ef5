/*
 * zend-async-ref: parking the current coroutine until an event wakes it.
 * Not part of the upstream ABI.
 *
 * Every call that waits speaks the ABI's park protocol:
 *
 *   ZEND_ASYNC_WAKER_NEW(coroutine)                 a fresh waker
 *   zend_async_resume_when(coroutine, event, ...)   once per awaited event
 *   ZEND_ASYNC_NEW_TIMER_EVENT(timeout_ms, false)   a timeout, if any,
 *                                                   handed to the waker
 *   ZEND_ASYNC_SUSPEND()
 *   zend_async_waker_clean(coroutine)               the events let go
 *
 * zend_async_ref_park() is that protocol written once, for the reference
 * extension (the pool, channels, futures, task groups, scopes, exec, a
 * worker pool's full queue), the PDO drivers' reactor sleeps, its testing
 * library and any C extension. It speaks only the ABI, so it works
 * over any implementation that registered itself.
 *
 *   zend_async_ref_park_t park = {0};
 *   park.events[0].event = &my_event->base;       the resolve callback
 *   park.events[1].event = cancellation;          ends the wait with
 *   park.events[1].callback = zend_async_waker_callback_cancel;
 *   park.timeout_ms = 500;                        Async\TimeoutException
 *   if (!zend_async_ref_park(ZEND_ASYNC_CURRENT_COROUTINE, &park)) {
 *     return FAILURE;                             EG(exception) says why
 *   }
 *
 * The rule for errors, the same for every caller:
 *
 *   Returns true when the coroutine was resumed and no exception is in
 *   flight. Returns false otherwise, and then EG(exception) always holds
 *   one:
 *     - the exception already in flight when park was called (nothing is
 *       armed, nothing suspends, the waker is not touched);
 *     - a refusal to arm (nothing suspends): no coroutine
 *       (Async\AsyncException "Cannot park outside a coroutine"), no waker
 *       ("Cannot park the coroutine: no waker"), an event resume_when
 *       refused (its exception, e.g. Error "The event cannot be used after
 *       it has been terminated"; "Cannot park the coroutine: an event was
 *       refused" when the refusal threw nothing), a timeout timer that could
 *       not be made (its exception, or "Cannot park the coroutine: no
 *       timer");
 *     - the error the coroutine was resumed with (a timeout's
 *       Async\TimeoutException "Operation has been cancelled by timeout", a
 *       cancellation, an event's exception).
 *
 *   The waker: ZEND_ASYNC_WAKER_NEW makes the coroutine's waker ready, and
 *   on every return after that the park has cleaned it
 *   (zend_async_waker_clean: no events, every callback deleted from its
 *   event, no result, no error). It stays the coroutine's; park never
 *   destroys it. Before the clean, `result` (when set) receives a copy of
 *   the waker's result: IS_UNDEF when there is none or park returns false.
 *
 *   Ownership follows zend_async_resume_when: an event given with
 *   trans_event, and a callback record whose ref_count is 0, belong to the
 *   park from the call on (the waker releases them; when a refusal came
 *   before their turn they are released at once). Everything else stays
 *   the caller's; a caller's own callback record (ref_count > 0, e.g. one
 *   it also keeps in a queue) has been deleted from its event by the clean
 *   when park returns.
 *
 * The timeout (timeout_ms > 0): a one-shot ZEND_ASYNC_NEW_TIMER_EVENT
 * (without ZEND_ASYNC_TIMER_F_REFRESH_CLOCK) armed after the events, whose
 * callback is `timeout_callback`, or zend_async_waker_callback_timeout
 * (Async\TimeoutException) when NULL.
 *
 * Cost: the protocol is a static inline function, so a park compiles to
 * the calls it stands for at each site (a wake-up path parks on every
 * message); the refusals are out of line (abi/src/park.c).
 *
 * Threading: the coroutine's thread. `coroutine` is the running coroutine
 * (ZEND_ASYNC_SUSPEND suspends the current one).
 */
#ifndef ZEND_ASYNC_REF_PARK_H
#define ZEND_ASYNC_REF_PARK_H

#include "Zend/zend_async_API.h"

BEGIN_EXTERN_C()

/* The most events one park waits for (besides its timeout). */
#define ZEND_ASYNC_REF_PARK_EVENTS 3

/* One awaited event: resume_when(coroutine, event, trans_event, callback,
 * event_callback). An entry whose event is NULL is skipped. */
typedef struct {
  zend_async_event_t *event;
  /* The resume callback of the record resume_when makes; NULL:
   * zend_async_waker_callback_resolve. */
  zend_async_event_callback_fn callback;
  /* The caller's callback record (its own callback runs), or NULL (resume_when
   * makes one with `callback`). */
  zend_coroutine_event_callback_t *event_callback;
  /* The park takes over the caller's reference to `event`. */
  bool trans_event;
} zend_async_ref_park_event_t;

typedef struct {
  /* Registered in this order. */
  zend_async_ref_park_event_t events[ZEND_ASYNC_REF_PARK_EVENTS];
  /* > 0: a one-shot timer of this many milliseconds ends the wait. */
  zend_ulong timeout_ms;
  /* The timer's callback; NULL: zend_async_waker_callback_timeout. */
  zend_async_event_callback_fn timeout_callback;
  /* NULL, or where the waker's result is copied (see above). */
  zval *result;
} zend_async_ref_park_t;

/* Out of line: releases what a park owns of an entry it never armed (a
 * callback record nobody holds, ref_count 0, is disposed as resume_when
 * disposes one it owns; a transferred event loses the caller's reference).
 * Nothing for a NULL event. */
ZEND_API ZEND_COLD void zend_async_ref_park_release(
    zend_async_event_t *event, zend_coroutine_event_callback_t *event_callback,
    bool trans_event);

/* Out of line: the end of every refusal. Makes sure an exception is in
 * flight (throwing Async\AsyncException `why` when none is and `why` is not
 * NULL), cleans the waker of `coroutine` (NULL: not touched), sets
 * `result` (when not NULL) IS_UNDEF. Returns false. */
ZEND_API ZEND_COLD bool zend_async_ref_park_refuse(zend_coroutine_t *coroutine,
                                                   zval *result,
                                                   const char *why);

/* The inline parts below read the descriptor only at constant places and
 * never pass its address on, so at a site that builds it on its stack the
 * compiler keeps it in registers: a park costs the calls it stands for. */

static zend_always_inline void zend_async_ref_park_release_entry(
    const zend_async_ref_park_event_t *wait) {
  if (wait->event != NULL) {
    zend_async_ref_park_release(wait->event, wait->event_callback,
                                wait->trans_event);
  }
}

/* A refusal before events[from] was armed: releases events[from..]. */
static zend_always_inline bool zend_async_ref_park_refused(
    zend_coroutine_t *coroutine, const zend_async_ref_park_t *park, int from,
    const char *why) {
  if (from <= 0) {
    zend_async_ref_park_release_entry(&park->events[0]);
  }
  if (from <= 1) {
    zend_async_ref_park_release_entry(&park->events[1]);
  }
  if (from <= 2) {
    zend_async_ref_park_release_entry(&park->events[2]);
  }
  return zend_async_ref_park_refuse(coroutine, park->result, why);
}

/* Arms park->events[index] (nothing for a NULL event); false when
 * resume_when refused it, with the refusal done. resume_when refuses a
 * closed event before it takes anything over, and releases what it took on
 * any other refusal. */
static zend_always_inline bool zend_async_ref_park_arm(
    zend_coroutine_t *coroutine, const zend_async_ref_park_t *park, int index) {
  const zend_async_ref_park_event_t *wait = &park->events[index];
  if (wait->event == NULL ||
      EXPECTED(zend_async_resume_when(coroutine, wait->event, wait->trans_event,
                                      wait->callback != NULL
                                          ? wait->callback
                                          : zend_async_waker_callback_resolve,
                                      wait->event_callback))) {
    return true;
  }
  zend_async_ref_park_refused(
      coroutine, park,
      ZEND_ASYNC_EVENT_IS_CLOSED(wait->event) ? index : index + 1,
      "Cannot park the coroutine: an event was refused");
  return false;
}

/* Parks `coroutine` (the running one) until one of park's events, or its
 * timeout, resumes it. The rule for errors is above. */
static zend_always_inline bool zend_async_ref_park(
    zend_coroutine_t *coroutine, const zend_async_ref_park_t *park) {
  if (UNEXPECTED(EG(exception) != NULL)) {
    return zend_async_ref_park_refused(NULL, park, 0, NULL);
  }
  if (UNEXPECTED(coroutine == NULL)) {
    return zend_async_ref_park_refused(NULL, park, 0,
                                       "Cannot park outside a coroutine");
  }
  if (UNEXPECTED(ZEND_ASYNC_WAKER_NEW(coroutine) == NULL)) {
    return zend_async_ref_park_refused(coroutine, park, 0,
                                       "Cannot park the coroutine: no waker");
  }
  /* ZEND_ASYNC_REF_PARK_EVENTS of them, in order. */
  if (UNEXPECTED(!zend_async_ref_park_arm(coroutine, park, 0) ||
                 !zend_async_ref_park_arm(coroutine, park, 1) ||
                 !zend_async_ref_park_arm(coroutine, park, 2))) {
    return false;
  }
  if (park->timeout_ms > 0) {
    zend_async_timer_event_t *timer =
        ZEND_ASYNC_NEW_TIMER_EVENT(park->timeout_ms, false);
    if (UNEXPECTED(timer == NULL || !zend_async_resume_when(
                                        coroutine, &timer->base, true,
                                        park->timeout_callback != NULL
                                            ? park->timeout_callback
                                            : zend_async_waker_callback_timeout,
                                        NULL))) {
      return zend_async_ref_park_refuse(coroutine, park->result,
                                        "Cannot park the coroutine: no timer");
    }
  }
  ZEND_ASYNC_SUSPEND();
  zend_async_waker_t *waker = coroutine->waker;
  if (park->result != NULL) {
    if (waker != NULL && EG(exception) == NULL) {
      ZVAL_COPY(park->result, &waker->result);
    } else {
      ZVAL_UNDEF(park->result);
    }
  }
  if (EXPECTED(waker != NULL)) {
    zend_async_waker_clean(coroutine);
  }
  return EG(exception) == NULL;
}

END_EXTERN_C()

#endif /* ZEND_ASYNC_REF_PARK_H */
