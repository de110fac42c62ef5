/*
 * zend-async-ref: mock PHP. The process and request lifecycle, with the
 * async hooks at upstream's call points:
 *
 *   php_module_startup()   interned strings, class and function tables,
 *                          builtin classes, async globals ctor,
 *                          internal-context key table, then each module's
 *                          functions and MINIT (where an async extension
 *                          registers itself).
 *   php_request_startup()  request allocator, executor globals, each
 *                          module's RINIT (where the async extension does
 *                          ZEND_ASYNC_INITIALIZE: OFF -> READY).
 *   php_execute_main()     runs the "script" inside zend_try; then
 *                          ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN(false) and
 *                          ZEND_ASYNC_INITIALIZE. An uncaught exception is
 *                          reported as "Uncaught ..." (E_ERROR), which bails
 *                          out; on bailout, ZEND_ASYNC_RUN_SCHEDULER_AFTER_
 *                          MAIN(true) runs in the zend_catch.
 *   php_request_shutdown() request shutdown functions (object destructors),
 *                          ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN(false),
 *                          ZEND_ASYNC_DEACTIVATE (-> OFF), each module's
 *                          RSHUTDOWN, then the object store is freed and the
 *                          allocator reports every leaked block.
 *   php_module_shutdown()  each module's MSHUTDOWN, zend_async_api_shutdown(),
 *                          builtin classes and interned strings freed.
 *
 * Threading: one request at a time, on the thread that started the module.
 */
#ifndef PHP_MAIN_H
#define PHP_MAIN_H

#include "php.h"

BEGIN_EXTERN_C()

/* Starts the engine with `count` modules (MINIT in order). Returns FAILURE
 * if a module's MINIT fails. */
PHPAPI zend_result php_module_startup(zend_module_entry *const *modules,
                                      uint32_t count);
PHPAPI void php_module_shutdown(void);
PHPAPI bool php_module_started(void);

PHPAPI zend_result php_request_startup(void);
/* Runs `main_fn(arg)` as the request's main script. Returns false when the
 * script bailed out (fatal error or uncaught exception). */
PHPAPI bool php_execute_main(void (*main_fn)(void *arg), void *arg);
PHPAPI void php_request_shutdown(void *dummy);

/* What the last php_request_shutdown() found (mock extension). Objects
 * still alive when the object store is torn down are freed by the engine,
 * as PHP does, but counted here: in a well-behaved request every object has
 * been released by then. */
typedef struct _php_mock_request_report {
  size_t leaked_blocks; /* emalloc blocks never freed */
  size_t leaked_bytes;
  uint32_t objects_alive_at_shutdown;
  bool bailed_out; /* php_execute_main() bailed out */
} php_mock_request_report;

PHPAPI php_mock_request_report php_mock_last_request_report(void);

/* Registers a callback run at the start of php_request_shutdown, before
 * the scheduler's last run: the mock's equivalent of releasing the global
 * symbol table (destructors of objects the script left in globals). */
PHPAPI void php_mock_register_shutdown_callback(void (*fn)(void *arg),
                                                void *arg);

END_EXTERN_C()

#endif /* PHP_MAIN_H */
