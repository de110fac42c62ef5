/*
 * zend-async-ref: coroutine switch handlers.
 *
 * A coroutine's switch handlers run each time it is entered or left
 * (ZEND_COROUTINE_ENTER/LEAVE/FINISH). A handler returning false is removed
 * after its call; the vector is freed once no handler is left. While the
 * handlers run, adding or removing one is refused with an E_WARNING.
 *
 * Main-coroutine start handlers are per thread (in the async globals, in
 * persistent memory, surviving requests): they are copied into each new
 * main coroutine and called as "enter" when the scheduler launches.
 */
#include "zend_async_API.h"

ZEND_API void zend_coroutine_switch_handlers_init(zend_coroutine_t *coroutine) {
  if (coroutine->switch_handlers != NULL) {
    return;
  }

  zend_coroutine_switch_handlers_vector_t *vector =
      (zend_coroutine_switch_handlers_vector_t *)emalloc(
          sizeof(zend_coroutine_switch_handlers_vector_t));
  vector->length = 0;
  vector->capacity = 0;
  vector->data = NULL;
  vector->in_execution = false;
  coroutine->switch_handlers = vector;
}

/* Frees the vector of `coroutine` (which must not be running its handlers)
 * and clears the coroutine's pointer. */
static void switch_handlers_free(zend_coroutine_t *coroutine) {
  zend_coroutine_switch_handlers_vector_t *vector = coroutine->switch_handlers;

  coroutine->switch_handlers = NULL;
  if (vector->data != NULL) {
    efree(vector->data);
  }
  efree(vector);
}

ZEND_API void zend_coroutine_switch_handlers_destroy(
    zend_coroutine_t *coroutine) {
  if (coroutine->switch_handlers == NULL) {
    return;
  }
  switch_handlers_free(coroutine);
}

ZEND_API uint32_t zend_coroutine_add_switch_handler(
    zend_coroutine_t *coroutine, zend_coroutine_switch_handler_fn handler) {
  if (handler == NULL) {
    zend_error(E_WARNING, "Cannot add NULL switch handler");
    return 0;
  }

  if (coroutine->switch_handlers == NULL) {
    zend_coroutine_switch_handlers_init(coroutine);
  }

  zend_coroutine_switch_handlers_vector_t *vector = coroutine->switch_handlers;

  if (vector->in_execution) {
    zend_error(E_WARNING, "Cannot add switch handler during handler execution");
    return 0;
  }

  for (uint32_t i = 0; i < vector->length; i++) {
    if (vector->data[i].handler == handler) {
      return i;
    }
  }

  if (vector->length == vector->capacity) {
    vector->capacity = vector->capacity != 0 ? vector->capacity * 2 : 4;
    vector->data = (zend_coroutine_switch_handler_t *)safe_erealloc(
        vector->data, vector->capacity, sizeof(zend_coroutine_switch_handler_t),
        0);
  }

  const uint32_t index = vector->length++;
  vector->data[index].handler = handler;
  return index;
}

ZEND_API bool zend_coroutine_remove_switch_handler(zend_coroutine_t *coroutine,
                                                   uint32_t handler_index) {
  zend_coroutine_switch_handlers_vector_t *vector = coroutine->switch_handlers;

  if (vector == NULL) {
    return false;
  }

  if (vector->in_execution) {
    zend_error(E_WARNING,
               "Cannot remove switch handler during handler execution");
    return false;
  }

  if (handler_index >= vector->length) {
    return false;
  }

  /* Later handlers keep their order (and move down one index). */
  for (uint32_t i = handler_index; i + 1 < vector->length; i++) {
    vector->data[i] = vector->data[i + 1];
  }
  vector->length--;
  return true;
}

ZEND_API bool zend_coroutine_call_switch_handlers(zend_coroutine_t *coroutine,
                                                  bool is_enter,
                                                  bool is_finishing) {
  zend_coroutine_switch_handlers_vector_t *vector = coroutine->switch_handlers;

  if (vector == NULL || vector->length == 0) {
    return true;
  }

  vector->in_execution = true;

  /* Handlers returning true are compacted to the front, in order. */
  uint32_t kept = 0;
  for (uint32_t i = 0; i < vector->length; i++) {
    if (vector->data[i].handler(coroutine, is_enter, is_finishing)) {
      vector->data[kept++] = vector->data[i];
    }
  }
  vector->length = kept;

  vector->in_execution = false;

  if (vector->length == 0) {
    switch_handlers_free(coroutine);
  }

  return true;
}

ZEND_API bool zend_async_add_main_coroutine_start_handler(
    zend_coroutine_switch_handler_fn handler) {
  zend_coroutine_switch_handlers_vector_t *vector =
      &ZEND_ASYNC_G(main_coroutine_start_handlers);

  for (uint32_t i = 0; i < vector->length; i++) {
    if (vector->data[i].handler == handler) {
      return false;
    }
  }

  if (vector->length >= vector->capacity) {
    const uint32_t capacity = vector->capacity != 0 ? vector->capacity * 2 : 4;
    vector->data = (zend_coroutine_switch_handler_t *)safe_perealloc(
        vector->data, capacity, sizeof(zend_coroutine_switch_handler_t), 0, 1);
    vector->capacity = capacity;
  }

  vector->data[vector->length++].handler = handler;
  return true;
}

ZEND_API bool zend_async_call_main_coroutine_start_handlers(
    zend_coroutine_t *main_coroutine) {
  const zend_coroutine_switch_handlers_vector_t *vector =
      &ZEND_ASYNC_G(main_coroutine_start_handlers);

  if (vector->length == 0) {
    return true;
  }

  if (main_coroutine->switch_handlers == NULL) {
    zend_coroutine_switch_handlers_init(main_coroutine);
  }

  for (uint32_t i = 0; i < vector->length; i++) {
    zend_coroutine_add_switch_handler(main_coroutine, vector->data[i].handler);
  }

  zend_coroutine_call_switch_handlers(main_coroutine, true, false);

  return EG(exception) == NULL;
}
