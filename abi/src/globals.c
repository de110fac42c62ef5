/*
 * zend-async-ref: the async globals (state machine, counters, current
 * coroutine, start handlers), their ctor/dtor, the version and the
 * heartbeat handler.
 *
 * Non-ZTS only: one process-wide zend_async_globals_api.
 */
#include <string.h>

#include "zend_async_API.h"

/* Zero-initialised (static storage): state OFF until the ctor runs. */
ZEND_API zend_async_globals_t zend_async_globals_api;

void zend_async_globals_ctor(void) {
  memset(&zend_async_globals_api, 0, sizeof(zend_async_globals_api));
  zend_async_globals_api.state = ZEND_ASYNC_OFF;
  zend_atomic_bool_store(&zend_async_globals_api.heartbeat, false);
}

void zend_async_globals_dtor(void) {
  zend_coroutine_switch_handlers_vector_t *handlers =
      &zend_async_globals_api.main_coroutine_start_handlers;

  if (handlers->data != NULL) {
    pefree(handlers->data, 1);
    handlers->data = NULL;
  }
  /* The array is gone, so is its content: a later add must not scan it. */
  handlers->length = 0;
  handlers->capacity = 0;
}

/* ===================================================================== */
/* Version and heartbeat                                                  */
/* ===================================================================== */

ZEND_API int zend_async_get_api_version_number(void) {
  return ZEND_ASYNC_API_VERSION_NUMBER;
}

/* Declared but not defined upstream; defined here (see the header). */
ZEND_API const char *zend_async_get_api_version(void) { return ZEND_ASYNC_API; }

ZEND_API zend_async_heartbeat_handler_t
zend_async_set_heartbeat_handler(zend_async_heartbeat_handler_t handler) {
  const zend_async_heartbeat_handler_t previous =
      ZEND_ASYNC_G(heartbeat_handler);
  ZEND_ASYNC_G(heartbeat_handler) = handler;
  return previous;
}

ZEND_API zend_async_heartbeat_handler_t zend_async_get_heartbeat_handler(void) {
  return ZEND_ASYNC_G(heartbeat_handler);
}
