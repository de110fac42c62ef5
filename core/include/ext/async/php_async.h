/*
 * zend-async-ref core: the async extension's public header, at upstream's
 * path (ext/async/php_async.h) so that code written against the TrueAsync
 * extension's globals (a test harness driving the reactor's loop) compiles
 * unchanged against the reference.
 *
 * Of upstream's module globals the reference implements the reactor's:
 *
 *   ASYNC_G(uvloop)           the libuv loop of the current request. It is
 *                             initialised at request startup (the
 *                             extension's RINIT), so it is live whenever a
 *                             request is active, and closed at request end,
 *                             after every event's close callback ran;
 *                             between requests it is not initialised. An
 *                             explicit ZEND_ASYNC_REACTOR_SHUTDOWN() closes
 *                             it early; the next use initialises it again.
 *   ASYNC_G(reactor_started)  true while uvloop is initialised.
 *
 * Driving the loop from outside (uv_run(&ASYNC_G(uvloop), UV_RUN_NOWAIT))
 * is allowed between scheduler runs on the request's thread; it runs the
 * same callbacks ZEND_ASYNC_REACTOR_EXECUTE would. Reading either member
 * before the module is loaded gives a zeroed struct.
 *
 * Threading: the globals belong to the engine's thread (non-ZTS build).
 */
#ifndef PHP_ASYNC_H
#define PHP_ASYNC_H

#include <uv.h>

#include "php.h"

BEGIN_EXTERN_C()

/* The module entry ("true_async"), defined in core/extension.cc. */
extern zend_module_entry zar_async_module_entry;
#define phpext_async_ptr &zar_async_module_entry

#define PHP_ASYNC_NAME "true_async"

/* The members of upstream's globals that the reference implements. Zeroed
 * by the module's globals constructor when php_module_startup() registers
 * it. */
/* clang-format off */
ZEND_BEGIN_MODULE_GLOBALS(async)
  uv_loop_t uvloop;
  bool reactor_started;
ZEND_END_MODULE_GLOBALS(async)
/* clang-format on */

ZEND_EXTERN_MODULE_GLOBALS(async)

#define ASYNC_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(async, v)
#define ASYNC_GLOBALS ZEND_MODULE_GLOBALS_BULK(async)

END_EXTERN_C()

#endif /* PHP_ASYNC_H */
