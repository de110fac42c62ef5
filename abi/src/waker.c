/*
 * zend-async-ref: wakers, the record of what a suspended coroutine waits
 * for.
 *
 * A waker's `events` table maps each awaited event (key: the rotated event
 * pointer, see zar_waker_event_key) to a trigger listing the callbacks the
 * coroutine registered on that event. The table holds one reference to each
 * event; its value destructor unregisters the trigger's callbacks from the
 * event (del_callback), releases that reference and frees the trigger.
 *
 * Trigger storage: the first triggers live inline in the waker
 * (inline_triggers, capacity 0 = "inline", free when length 0 and event
 * NULL) and hold one callback; a second callback on the same event promotes
 * the trigger to the heap with capacity 2, and heap triggers double. The
 * first callbacks zend_async_resume_when allocates also live inline
 * (inline_callbacks, free when base.callback is NULL).
 *
 * Lifecycle: zend_async_waker_init -> resume_when(...) per awaited event ->
 * the coroutine suspends -> an event fires, its callback resumes the
 * coroutine -> zend_async_waker_clean (reuse) or ZEND_ASYNC_WAKER_DESTROY
 * (the default destroy does not free the waker's memory: its owner does).
 *
 * The standard resume callbacks, zend_async_waker_new_with_timeout and the
 * error merge rules are in waker_callbacks.c.
 *
 * Threading: the waker belongs to its coroutine's thread.
 */
#include "waker_internal.h"
#include "zend_async_API.h"

/* ===================================================================== */
/* Triggers                                                               */
/* ===================================================================== */

/* Bytes of a heap trigger with room for `capacity` callbacks. Computed from
 * the offset of data[] so that it is right whether sizeof() counts data[]
 * (C++: data[1]) or not (C: flexible array). */
static zend_always_inline size_t trigger_size(uint32_t capacity) {
  return offsetof(zend_async_waker_trigger_t, data) +
         (size_t)capacity * sizeof(zend_async_event_callback_t *);
}

static zend_always_inline bool trigger_is_inline(
    const zend_async_waker_trigger_t *trigger) {
  return trigger->capacity == 0;
}

/* A trigger for `event`: a free inline slot when one callback is expected,
 * otherwise a heap trigger with at least 2 slots. */
static zend_async_waker_trigger_t *trigger_create(zend_async_waker_t *waker,
                                                  zend_async_event_t *event,
                                                  uint32_t capacity) {
  if (capacity <= 1) {
    for (uint32_t i = 0; i < ZEND_ASYNC_WAKER_INLINE_SLOTS; i++) {
      zend_async_waker_inline_trigger_t *slot = &waker->inline_triggers[i];
      if (slot->length == 0 && slot->event == NULL) {
        slot->capacity = 0;
        slot->event = event;
        return (zend_async_waker_trigger_t *)slot;
      }
    }
  }

  if (capacity < 2) {
    capacity = 2;
  }

  zend_async_waker_trigger_t *trigger =
      (zend_async_waker_trigger_t *)emalloc(trigger_size(capacity));
  trigger->length = 0;
  trigger->capacity = capacity;
  trigger->event = event;
  return trigger;
}

/* Appends a callback; returns the trigger's (possibly new) address, which
 * the caller must store back into the events table. */
static zend_async_waker_trigger_t *trigger_add_callback(
    zend_async_waker_trigger_t *trigger,
    zend_async_event_callback_t *callback) {
  if (trigger_is_inline(trigger)) {
    if (trigger->length == 0) {
      trigger->data[0] = callback;
      trigger->length = 1;
      return trigger;
    }

    /* Second callback: move to the heap and free the inline slot. */
    zend_async_waker_trigger_t *heap =
        (zend_async_waker_trigger_t *)emalloc(trigger_size(2));
    heap->length = 1;
    heap->capacity = 2;
    heap->event = trigger->event;
    heap->data[0] = trigger->data[0];

    trigger->length = 0;
    trigger->event = NULL;
    trigger = heap;
  }

  if (trigger->length >= trigger->capacity) {
    const uint32_t capacity = trigger->capacity * 2;
    trigger =
        (zend_async_waker_trigger_t *)erealloc(trigger, trigger_size(capacity));
    trigger->capacity = capacity;
  }

  trigger->data[trigger->length++] = callback;
  return trigger;
}

/* Returns a trigger's storage: frees a heap trigger, frees an inline slot. */
static void trigger_free(zend_async_waker_trigger_t *trigger) {
  if (trigger_is_inline(trigger)) {
    trigger->length = 0;
    trigger->event = NULL;
  } else {
    efree(trigger);
  }
}

/* Value destructor of waker->events. A trigger whose event is NULL is
 * already being destroyed (a nested delete from a callback's dispose) and
 * is left alone. */
static void waker_events_dtor(zval *item) {
  zend_async_waker_trigger_t *trigger =
      (zend_async_waker_trigger_t *)Z_PTR_P(item);
  zend_async_event_t *event = trigger->event;

  if (event == NULL) {
    return;
  }

  /* Detach the callbacks before unregistering them: a callback's dispose
   * (reached through del_callback) looks the trigger up again and must find
   * it empty and ownerless instead of editing the array walked here. */
  const uint32_t count = trigger->length;
  trigger->event = NULL;
  trigger->length = 0;

  for (uint32_t i = 0; i < count; i++) {
    if (trigger->data[i] != NULL) {
      event->del_callback(event, trigger->data[i]);
    }
  }

  /* Stopping is the explicit flow's job (zend_async_waker_stop_events). */
  ZEND_ASYNC_EVENT_RELEASE(event);

  trigger_free(trigger);
}

/* Value destructor of waker->triggered_events (values are events). */
static void waker_triggered_events_dtor(zval *item) {
  zend_async_event_t *event = (zend_async_event_t *)Z_PTR_P(item);
  ZEND_ASYNC_EVENT_RELEASE(event);
}

void zar_coroutine_callback_detach(zend_async_event_callback_t *callback,
                                   zend_async_event_t *event) {
  zend_coroutine_event_callback_t *coroutine_callback =
      (zend_coroutine_event_callback_t *)callback;
  const zend_coroutine_t *coroutine = coroutine_callback->coroutine;

  if (coroutine != NULL) {
    zend_async_waker_t *waker = coroutine->waker;

    if (event == NULL) {
      event = coroutine_callback->event;
    }

    if (event != NULL && waker != NULL) {
      /* Never detach twice. */
      coroutine_callback->event = NULL;

      const zend_ulong key = zar_waker_event_key(event);
      zend_async_waker_trigger_t *trigger =
          (zend_async_waker_trigger_t *)zend_hash_index_find_ptr(&waker->events,
                                                                 key);

      /* event == NULL: the events destructor is tearing the trigger down
       * and takes care of everything. */
      if (trigger != NULL && trigger->event != NULL) {
        for (uint32_t i = 0; i < trigger->length; i++) {
          if (trigger->data[i] == callback) {
            trigger->data[i] = trigger->data[--trigger->length];
            break;
          }
        }

        if (trigger->length == 0) {
          if (!waker->events_stopped) {
            event->stop(event);
          }
          zend_hash_index_del(&waker->events, key);
          if (waker->triggered_events != NULL) {
            zend_hash_index_del(waker->triggered_events, key);
          }
        }
      }
    }
  }

  if (event != NULL && event->del_callback != NULL) {
    event->del_callback(event, callback);
  }
}

/* ===================================================================== */
/* Waker life cycle                                                       */
/* ===================================================================== */

ZEND_API void zend_async_waker_init(zend_async_waker_t *waker) {
  waker->status = ZEND_ASYNC_WAKER_NO_STATUS;
  waker->events_stopped = 0;
  waker->triggered_events = NULL;
  waker->error = NULL;
  waker->dtor = NULL;
  ZVAL_UNDEF(&waker->result);
  zend_hash_init(&waker->events, 2, NULL, waker_events_dtor, 0);

  for (uint32_t i = 0; i < ZEND_ASYNC_WAKER_INLINE_SLOTS; i++) {
    waker->inline_triggers[i].length = 0;
    waker->inline_triggers[i].capacity = 0;
    waker->inline_triggers[i].event = NULL;
    waker->inline_callbacks[i].base.callback = NULL;
  }
}

ZEND_API void zend_async_waker_stop_events(zend_async_waker_t *waker) {
  zend_async_waker_trigger_t *trigger;

  if (waker->events_stopped) {
    return;
  }
  waker->events_stopped = 1;

  ZEND_HASH_FOREACH_PTR(&waker->events, trigger) {
    if (trigger->event != NULL) {
      trigger->event->stop(trigger->event);
    }
  }
  ZEND_HASH_FOREACH_END();
}

ZEND_API zend_async_waker_t *zend_async_waker_define(
    zend_coroutine_t *coroutine) {
  coroutine = zar_waker_coroutine(coroutine);
  if (UNEXPECTED(coroutine == NULL)) {
    return NULL;
  }

  if (coroutine->waker != NULL) {
    return coroutine->waker;
  }

  return ZEND_ASYNC_WAKER_NEW(coroutine);
}

zend_async_waker_t *zar_waker_new_default(zend_coroutine_t *coroutine) {
  coroutine = zar_waker_coroutine(coroutine);
  if (UNEXPECTED(coroutine == NULL)) {
    return NULL;
  }

  zend_async_waker_t *waker = coroutine->waker;

  /* A waker is reused for every suspension of its coroutine. */
  if (waker != NULL) {
    if (waker->status != ZEND_ASYNC_WAKER_NO_STATUS) {
      zend_async_waker_clean(coroutine);
    }
    return waker;
  }

  waker = (zend_async_waker_t *)ecalloc(1, sizeof(zend_async_waker_t));
  coroutine->waker = waker;
  zend_async_waker_init(waker);
  return waker;
}

/* Releases what a wait produced or recorded: the pending error, the
 * suspension site and the result (left UNDEF). */
static zend_always_inline void waker_release_outcome(
    zend_async_waker_t *waker) {
  if (UNEXPECTED(waker->error != NULL)) {
    zend_object_release(waker->error);
    waker->error = NULL;
  }

  if (waker->filename != NULL) {
    zend_string_release(waker->filename);
    waker->filename = NULL;
    waker->lineno = 0;
  }

  if (UNEXPECTED(Z_TYPE(waker->result) != IS_UNDEF)) {
    zval_ptr_dtor(&waker->result);
    ZVAL_UNDEF(&waker->result);
  }
}

/* Runs and clears the waker's dtor hook. */
static zend_always_inline void waker_run_dtor(zend_coroutine_t *coroutine) {
  zend_async_waker_t *waker = coroutine->waker;

  if (UNEXPECTED(waker->dtor != NULL)) {
    const zend_async_waker_dtor dtor = waker->dtor;
    waker->dtor = NULL;
    dtor(coroutine);
  }
}

ZEND_API void zend_async_waker_clean(zend_coroutine_t *coroutine) {
  zend_async_waker_t *waker = coroutine->waker;

  if (UNEXPECTED(waker == NULL)) {
    return;
  }

  waker_run_dtor(coroutine);
  waker->status = ZEND_ASYNC_WAKER_NO_STATUS;
  waker_release_outcome(waker);

  if (UNEXPECTED(waker->triggered_events != NULL)) {
    zend_hash_clean(waker->triggered_events);
  }

  /* ZEND_ASYNC_WAKER_CLEAN_EVENTS, skipping the calls that would do
   * nothing: a bulk stop that already ran, and the clean of a table nothing
   * was added to since it was last cleaned (every waker is cleaned at least
   * once per suspension, most often with an empty table). */
  if (!waker->events_stopped) {
    zend_async_waker_stop_events(waker);
  }
  if (waker->events.nNumUsed != 0) {
    zend_hash_clean(&waker->events);
  }

  for (uint32_t i = 0; i < ZEND_ASYNC_WAKER_INLINE_SLOTS; i++) {
    waker->inline_callbacks[i].base.callback = NULL;
  }
}

void zar_waker_destroy_default(zend_coroutine_t *coroutine) {
  zend_async_waker_t *waker = coroutine->waker;

  if (UNEXPECTED(waker == NULL)) {
    return;
  }

  waker_run_dtor(coroutine);

  /* From here on the waker's content is being torn down; nothing may reach
   * it through the coroutine. */
  coroutine->waker = NULL;
  waker->status = ZEND_ASYNC_WAKER_NO_STATUS;
  waker_release_outcome(waker);

  if (waker->triggered_events != NULL) {
    zend_hash_destroy(waker->triggered_events);
    efree(waker->triggered_events);
    waker->triggered_events = NULL;
  }

  zend_async_waker_stop_events(waker);
  zend_hash_destroy(&waker->events);
}

ZEND_API void zend_async_waker_add_triggered_event(zend_coroutine_t *coroutine,
                                                   zend_async_event_t *event) {
  zend_async_waker_t *waker = coroutine->waker;

  if (UNEXPECTED(waker == NULL)) {
    return;
  }

  if (waker->triggered_events == NULL) {
    waker->triggered_events = (HashTable *)emalloc(sizeof(HashTable));
    zend_hash_init(waker->triggered_events, 2, NULL,
                   waker_triggered_events_dtor, 0);
  }

  if (zend_hash_index_add_ptr(waker->triggered_events,
                              zar_waker_event_key(event), event) != NULL) {
    ZEND_ASYNC_EVENT_ADD_REF(event);
  }
}

ZEND_API bool zend_async_waker_is_event_exists(zend_coroutine_t *coroutine,
                                               zend_async_event_t *event) {
  if (coroutine->waker == NULL) {
    return false;
  }
  return zend_hash_index_find(&coroutine->waker->events,
                              zar_waker_event_key(event)) != NULL;
}

/* ===================================================================== */
/* Waiting                                                                */
/* ===================================================================== */

/* Disposes a callback resume_when owns (ref_count forced to 1 so the
 * dispose really frees it) after a failure. */
static void dispose_owned_callback(zend_coroutine_event_callback_t *callback,
                                   zend_async_event_t *event) {
  callback->base.ref_count = 1;
  callback->base.dispose(&callback->base, event);
}

ZEND_API bool zend_async_resume_when(
    zend_coroutine_t *coroutine, zend_async_event_t *event,
    const bool trans_event, zend_async_event_callback_fn callback,
    zend_coroutine_event_callback_t *event_callback) {
  bool owns_callback = false;

  if (UNEXPECTED(ZEND_ASYNC_EVENT_IS_CLOSED(event))) {
    zend_throw_error(NULL,
                     "The event cannot be used after it has been terminated");
    return false;
  }

  if (UNEXPECTED(callback == NULL && event_callback == NULL)) {
    zend_error(E_WARNING, "Callback cannot be NULL");
    if (trans_event) {
      event->dispose(event);
    }
    return false;
  }

  if (event_callback == NULL) {
    zend_async_waker_t *waker = coroutine->waker;

    if (waker != NULL) {
      for (uint32_t i = 0; i < ZEND_ASYNC_WAKER_INLINE_SLOTS; i++) {
        if (waker->inline_callbacks[i].base.callback == NULL) {
          event_callback = &waker->inline_callbacks[i];
          event_callback->base.dispose = zar_coroutine_inline_callback_dispose;
          break;
        }
      }
    }

    if (event_callback == NULL) {
      event_callback = (zend_coroutine_event_callback_t *)emalloc(
          sizeof(zend_coroutine_event_callback_t));
      event_callback->base.dispose = coroutine_event_callback_dispose;
    }

    event_callback->base.ref_count = 0;
    event_callback->base.callback = callback;
    event_callback->event = event;
    owns_callback = true;
  } else if (event_callback->base.ref_count == 0) {
    /* Nobody holds it yet: ownership is handed to us. */
    owns_callback = true;
  }

  if (event_callback->base.dispose == NULL) {
    event_callback->base.dispose = coroutine_event_callback_dispose;
  }

  if (event_callback->event == NULL) {
    event_callback->event = event;
  }

  event_callback->coroutine = coroutine;
  event->add_callback(event, &event_callback->base);

  if (UNEXPECTED(EG(exception) != NULL)) {
    if (owns_callback) {
      dispose_owned_callback(event_callback, event);
    }
    if (trans_event) {
      event->dispose(event);
    }
    return false;
  }

  zend_async_waker_t *waker = coroutine->waker;
  if (waker == NULL) {
    return true;
  }

  /* Most events are new to the waker: their trigger is made (a free inline
   * slot, usually) and added with a single table operation, which fails
   * when the event is already there; only then is the existing trigger
   * looked up and the new one given back. */
  const zend_ulong key = zar_waker_event_key(event);
  zend_async_waker_trigger_t *trigger = trigger_create(waker, event, 1);
  zval trigger_ptr;
  ZVAL_PTR(&trigger_ptr, trigger);

  if (UNEXPECTED(zend_hash_index_add(&waker->events, key, &trigger_ptr) ==
                 NULL)) {
    trigger_free(trigger);
    zval *trigger_zv = zend_hash_index_find(&waker->events, key);
    Z_PTR_P(trigger_zv) =
        trigger_add_callback((zend_async_waker_trigger_t *)Z_PTR_P(trigger_zv),
                             &event_callback->base);
    return true;
  }

  /* A new trigger (inline, or on the heap with room for two) takes its
   * first callback in place. */
  trigger->data[0] = &event_callback->base;
  trigger->length = 1;

  /* The events table holds one reference to each event: the caller's
   * (trans_event) or a new one. */
  if (!trans_event) {
    ZEND_ASYNC_EVENT_ADD_REF(event);
  }

  return true;
}
