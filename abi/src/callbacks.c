/*
 * zend-async-ref: event callbacks and the callbacks vector.
 *
 * An event's callbacks vector is walked by at most one notification (or
 * free) at a time: the walk registers its index as the vector's
 * current_iterator, and zend_async_callbacks_remove adjusts that index when
 * it removes an element before it, so a callback may remove itself or any
 * other callback during a notification without others being skipped or
 * repeated. Removal fills the hole from the end of the vector (order is
 * not preserved).
 *
 * Deliberate difference from upstream: upstream decrements the walk's
 * index for any removal below it but always moves the LAST element into
 * the hole, which, when a callback removes an EARLIER (already called)
 * callback, calls the current one again and skips the last one. Here the
 * hole of an already visited element is filled from the visited part (see
 * vector_remove_at); removing the current or a later callback behaves
 * exactly as upstream.
 *
 * Callback ownership: ref_count counts the vectors (and other holders)
 * of a callback; dispose(callback, event) drops one holder and frees the
 * callback at the last. ref_count 0 means "being freed", and a dispose
 * that finds it is ignored (a re-entrant free from a destructor).
 *
 * Threading: an event and its callbacks belong to one thread.
 */
#include "waker_internal.h"
#include "zend_async_API.h"

/* ===================================================================== */
/* The single walk of a vector                                            */
/* ===================================================================== */

static zend_always_inline bool iterator_register(
    zend_async_callbacks_vector_t *vector, uint32_t *index) {
  if (vector->current_iterator != NULL) {
    return false;
  }
  vector->current_iterator = index;
  return true;
}

static zend_always_inline void iterator_unregister(
    zend_async_callbacks_vector_t *vector) {
  vector->current_iterator = NULL;
}

/* Removes element `index`, keeping a running walk exact.
 *
 * Without a walk (or for an element the walk has not reached yet) the last
 * element moves into the hole. When the walk has already passed `index`,
 * the walk's next position moves back by one: the most recently visited
 * element fills the hole and the last (not yet visited) element takes its
 * place, so every remaining element is still visited exactly once. For the
 * element being called right now (index == next - 1) both rules move the
 * last element into its slot and revisit that slot next. */
static void vector_remove_at(zend_async_callbacks_vector_t *vector,
                             uint32_t index) {
  uint32_t *next = vector->current_iterator;
  const uint32_t last = --vector->length;

  if (next != NULL && *next > index) {
    const uint32_t visited_last = --(*next);
    vector->data[index] = vector->data[visited_last];
    vector->data[visited_last] = vector->data[last];
  } else {
    vector->data[index] = vector->data[last];
  }
}

/* ===================================================================== */
/* Event callbacks                                                        */
/* ===================================================================== */

ZEND_API bool zend_async_callbacks_remove(
    zend_async_event_t *event, zend_async_event_callback_t *callback) {
  zend_async_callbacks_vector_t *vector = &event->callbacks;

  for (uint32_t i = 0; i < vector->length; i++) {
    if (vector->data[i] == callback) {
      vector_remove_at(vector, i);
      callback->dispose(callback, event);
      return true;
    }
  }

  return false;
}

ZEND_API void zend_async_callbacks_notify(zend_async_event_t *event,
                                          void *result, zend_object *exception,
                                          bool from_handler) {
  /* Keeps the event alive while its callbacks run. */
  ZEND_ASYNC_EVENT_ADD_REF(event);
  ZEND_ASYNC_EVENT_CLR_EXCEPTION_HANDLED(event);

  if (!from_handler && event->notify_handler != NULL) {
    event->notify_handler(event, result, exception);
    ZEND_ASYNC_EVENT_RELEASE(event);
    return;
  }

  zend_async_callbacks_vector_t *vector = &event->callbacks;

  if (vector->data == NULL || vector->length == 0) {
    ZEND_ASYNC_EVENT_RELEASE(event);
    return;
  }

  uint32_t index = 0;

  if (!iterator_register(vector, &index)) {
    zend_error(E_CORE_WARNING,
               "Concurrent callback iteration detected - nested notify() "
               "calls are not allowed");
    ZEND_ASYNC_EVENT_RELEASE(event);
    return;
  }

  while (index < vector->length) {
    zend_async_event_callback_t *callback = vector->data[index];
    /* Advanced before the call: a removal during the call adjusts it. */
    index++;
    callback->callback(event, callback, result, exception);

    if (UNEXPECTED(EG(exception) != NULL)) {
      break;
    }
  }

  iterator_unregister(vector);
  ZEND_ASYNC_EVENT_RELEASE(event);
}

ZEND_API void zend_async_callbacks_notify_and_close(zend_async_event_t *event,
                                                    void *result,
                                                    zend_object *exception) {
  event->stop(event);
  ZEND_ASYNC_EVENT_SET_CLOSED(event);
  zend_async_callbacks_notify(event, result, exception, false);
}

ZEND_API void zend_async_callbacks_free(zend_async_event_t *event) {
  zend_async_callbacks_vector_t *vector = &event->callbacks;

  if (vector->data == NULL) {
    return;
  }

  uint32_t index = 0;

  if (!iterator_register(vector, &index)) {
    zend_error(E_CORE_WARNING,
               "Concurrent callback iteration detected - nested free() calls "
               "are not allowed");
    return;
  }

  /* A dispose may come back through del_callback and remove the callback
   * from this vector; the registered index keeps the walk exact. */
  while (index < vector->length) {
    zend_async_event_callback_t *callback = vector->data[index];
    index++;
    callback->dispose(callback, event);
  }

  efree(vector->data);
  iterator_unregister(vector);

  vector->data = NULL;
  vector->length = 0;
  vector->capacity = 0;
  vector->current_iterator = NULL;
}

/* ===================================================================== */
/* Bare callbacks vectors                                                 */
/* ===================================================================== */

ZEND_API bool zend_async_callbacks_vector_push(
    zend_async_callbacks_vector_t *vector,
    zend_async_event_callback_t *callback) {
  if (vector->data == NULL) {
    vector->data = (zend_async_event_callback_t **)safe_emalloc(
        2, sizeof(zend_async_event_callback_t *), 0);
    vector->capacity = 2;
  }

  if (vector->length == vector->capacity) {
    vector->capacity *= 2;
    vector->data = (zend_async_event_callback_t **)safe_erealloc(
        vector->data, vector->capacity, sizeof(zend_async_event_callback_t *),
        0);
  }

  callback->ref_count++;
  vector->data[vector->length++] = callback;
  return true;
}

ZEND_API void zend_async_callbacks_vector_notify(
    zend_async_callbacks_vector_t *vector, zend_async_event_t *event,
    void *result) {
  for (uint32_t i = 0; i < vector->length; i++) {
    zend_async_event_callback_t *callback = vector->data[i];
    if (callback != NULL && callback->callback != NULL) {
      callback->callback(event, callback, result, NULL);
    }
  }
}

ZEND_API void zend_async_callbacks_vector_free(
    zend_async_callbacks_vector_t *vector, zend_async_event_t *event) {
  if (vector->data == NULL) {
    return;
  }

  for (uint32_t i = 0; i < vector->length; i++) {
    zend_async_event_callback_t *callback = vector->data[i];
    if (callback != NULL && callback->dispose != NULL) {
      callback->dispose(callback, event);
    }
  }

  efree(vector->data);
  vector->data = NULL;
  vector->length = 0;
  vector->capacity = 0;
}

/* ===================================================================== */
/* Heap callbacks                                                         */
/* ===================================================================== */

/* dispose() of zend_async_event_callback_new callbacks. */
static void event_callback_dispose(zend_async_event_callback_t *callback,
                                   zend_async_event_t *event) {
  (void)event;

  if (callback->ref_count > 1) {
    callback->ref_count--;
    return;
  }

  callback->ref_count = 0;
  efree(callback);
}

ZEND_API zend_async_event_callback_t *zend_async_event_callback_new(
    zend_async_event_callback_fn callback, size_t size) {
  ZEND_ASSERT((size == 0 || size >= sizeof(zend_async_event_callback_t)) &&
              "size must be 0 or at least sizeof(zend_async_event_callback_t)");

  zend_async_event_callback_t *event_callback =
      (zend_async_event_callback_t *)ecalloc(
          1, size != 0 ? size : sizeof(zend_async_event_callback_t));

  event_callback->ref_count = 0;
  event_callback->callback = callback;
  event_callback->dispose = event_callback_dispose;
  return event_callback;
}

ZEND_API zend_coroutine_event_callback_t *zend_async_coroutine_callback_new(
    zend_coroutine_t *coroutine, zend_async_event_callback_fn callback,
    size_t size) {
  ZEND_ASSERT(
      (size == 0 || size >= sizeof(zend_coroutine_event_callback_t)) &&
      "size must be 0 or at least sizeof(zend_coroutine_event_callback_t)");

  zend_coroutine_event_callback_t *coroutine_callback =
      (zend_coroutine_event_callback_t *)ecalloc(
          1, size != 0 ? size : sizeof(zend_coroutine_event_callback_t));

  coroutine_callback->base.ref_count = 0;
  coroutine_callback->base.callback = callback;
  coroutine_callback->base.dispose = coroutine_event_callback_dispose;
  coroutine_callback->coroutine = coroutine;
  return coroutine_callback;
}

/* Drops one holder; true when this was the last one and the callback must
 * now be detached and freed. */
static zend_always_inline bool coroutine_callback_release(
    zend_async_event_callback_t *callback) {
  if (callback->ref_count > 1) {
    callback->ref_count--;
    return false;
  }

  if (callback->ref_count == 0) {
    /* Already being freed (re-entered from a destructor). */
    return false;
  }

  callback->ref_count = 0;
  return true;
}

ZEND_API void coroutine_event_callback_dispose(
    zend_async_event_callback_t *callback, zend_async_event_t *event) {
  if (!coroutine_callback_release(callback)) {
    return;
  }
  zar_coroutine_callback_detach(callback, event);
  efree(callback);
}

void zar_coroutine_inline_callback_dispose(
    zend_async_event_callback_t *callback, zend_async_event_t *event) {
  if (!coroutine_callback_release(callback)) {
    return;
  }
  zar_coroutine_callback_detach(callback, event);
  /* The slot lives in the waker: mark it free instead of freeing it. */
  callback->callback = NULL;
}
