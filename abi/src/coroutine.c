/*
 * zend-async-ref: coroutine helpers of the ABI: the description used in
 * diagnostics and the release of a coroutine's userland entry.
 */
#include "zend_async_API.h"

ZEND_API zend_string *zend_coroutine_gen_info(zend_coroutine_t *coroutine,
                                              char *zend_coroutine_name) {
  const char *name = zend_coroutine_name != NULL ? zend_coroutine_name : "";
  const char *spawned_at =
      coroutine->filename != NULL ? ZSTR_VAL(coroutine->filename) : "";

  if (ZEND_COROUTINE_SUSPENDED(coroutine)) {
    const zend_async_waker_t *waker = coroutine->waker;
    const char *suspended_at =
        waker->filename != NULL ? ZSTR_VAL(waker->filename) : "";

    return zend_strpprintf(
        0,
        "Coroutine spawned at %s:%" PRIu32 ", suspended at %s:%" PRIu32 " (%s)",
        spawned_at, coroutine->lineno, suspended_at, waker->lineno, name);
  }

  return zend_strpprintf(0, "Coroutine spawned at %s:%" PRIu32 " (%s)",
                         spawned_at, coroutine->lineno, name);
}

ZEND_API void zend_fcall_release(zend_fcall_t *fcall) {
  if (fcall == NULL) {
    return;
  }

  if (fcall->fci.param_count != 0) {
    for (uint32_t i = 0; i < fcall->fci.param_count; i++) {
      zval_ptr_dtor(&fcall->fci.params[i]);
    }
    efree(fcall->fci.params);
  }

  /* ZEND_ASYNC_FCALL_DEFINE added a reference without owning the array. */
  if (fcall->fci.named_params != NULL) {
    GC_DELREF(fcall->fci.named_params);
  }

  if (Z_REFCOUNTED(fcall->fci.function_name)) {
    zval_ptr_dtor(&fcall->fci.function_name);
  }

  efree(fcall);
}
