/*
 * zend-async-ref: validating another pool over the reference scheduler and
 * reactor. Not part of the upstream ABI.
 *
 * An implementation of the pool API alone (zend_async_pool_api_register()
 * and the Async\Pool class) cannot be loaded by the conformance runner by
 * itself: the runner loads a whole async extension. The pool adapter is that
 * extension for a pool brought by its author: a module entry of the
 * reference's ("true_async") whose MINIT registers the reference scheduler
 * with its classes and the reference libuv reactor, then calls the hook
 * below, which the pool's author implements to register the pool.
 *
 * Build the library with the CMake function the package installs:
 *
 *   find_package(ZendAsyncRef REQUIRED)
 *   zend_async_ref_add_conformance_impl(my_pool_impl
 *     SOURCES my_pool.c my_pool_hook.c)
 *
 * and run zend-async-conformance --impl libmy_pool_impl.so
 * (docs/conformance.md, "Validating a pool").
 *
 * What the reference scheduler defines before the hook runs: every class of
 * the ABI's zend_async_class table except Async\Pool, reachable through
 * ZEND_ASYNC_GET_CE() / ZEND_ASYNC_GET_EXCEPTION_CE() (Async\AsyncException is
 * ZEND_ASYNC_EXCEPTION_DEFAULT, Async\ServiceUnavailableException is
 * ZEND_ASYNC_EXCEPTION_SERVICE_UNAVAILABLE, ...). What the pool defines
 * itself: Async\PoolException, the circuit breaker types
 * (Async\CircuitBreakerState, Async\CircuitBreaker,
 * Async\CircuitBreakerStrategy) and Async\Pool. RINIT (ZEND_ASYNC_INITIALIZE)
 * and RSHUTDOWN are the reference's.
 */
#ifndef ZEND_ASYNC_REF_CONFORMANCE_POOL_H
#define ZEND_ASYNC_REF_CONFORMANCE_POOL_H

#include "Zend/zend_modules.h"

BEGIN_EXTERN_C()

/* Implemented by the pool's author; called from the adapter's MINIT after
 * the scheduler and the reactor are registered. Registers the pool through
 * zend_async_pool_api_register() and defines the pool's classes (above).
 * `type` and `module_number` are MINIT's. Returns SUCCESS, or FAILURE (an
 * error reported), which fails the module's startup and so every test. */
zend_result zend_async_conformance_pool_startup(int type, int module_number);

/* Optional: called from the adapter's MSHUTDOWN, before the scheduler's
 * own shutdown; forgets what the startup hook defined (the engine frees the
 * class entries itself). The adapter's weak default does nothing. The
 * module is started and stopped once per test, so both hooks must work
 * again after a shutdown. */
zend_result zend_async_conformance_pool_shutdown(int type, int module_number);

END_EXTERN_C()

#endif /* ZEND_ASYNC_REF_CONFORMANCE_POOL_H */
