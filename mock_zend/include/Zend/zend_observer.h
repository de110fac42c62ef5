/*
 * zend-async-ref: mock Zend engine.
 *
 * Observers (Zend/zend_observer.h), the fiber part: extensions register,
 * during MINIT, handlers told when a fiber context is initialised, switched
 * and destroyed; whoever switches contexts (the async extension, for its
 * coroutines) calls the notify functions. Real: handlers run in
 * registration order; the list is the process's and is emptied at module
 * shutdown, as PHP's zend_observer_shutdown() does. The mock runs no
 * opcodes, so it has no observed frames: top_observed_frame is set to NULL
 * on init and left alone on a switch.
 *
 * Threading: register during startup only (as in PHP); notify from the
 * engine's thread.
 */
#ifndef ZEND_OBSERVER_H
#define ZEND_OBSERVER_H

#include "zend.h"
#include "zend_fibers.h"

BEGIN_EXTERN_C()

typedef void (*zend_observer_fiber_init_handler)(
    zend_fiber_context *initializing);
typedef void (*zend_observer_fiber_switch_handler)(zend_fiber_context *from,
                                                   zend_fiber_context *to);
typedef void (*zend_observer_fiber_destroy_handler)(
    zend_fiber_context *destroying);

ZEND_API void zend_observer_fiber_init_register(
    zend_observer_fiber_init_handler handler);
ZEND_API void zend_observer_fiber_switch_register(
    zend_observer_fiber_switch_handler handler);
ZEND_API void zend_observer_fiber_destroy_register(
    zend_observer_fiber_destroy_handler handler);

ZEND_API void ZEND_FASTCALL
zend_observer_fiber_init_notify(zend_fiber_context *initializing);
ZEND_API void ZEND_FASTCALL zend_observer_fiber_switch_notify(
    zend_fiber_context *from, zend_fiber_context *to);
ZEND_API void ZEND_FASTCALL
zend_observer_fiber_destroy_notify(zend_fiber_context *destroying);

END_EXTERN_C()

#endif /* ZEND_OBSERVER_H */
