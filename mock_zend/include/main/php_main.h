/*
 * zend-async-ref: mock PHP. The process and request lifecycle (PHP's
 * main/php_main.h), with the async hooks at upstream's call points:
 *
 *   sapi_startup(&sapi)    (main/SAPI.h) the SAPI module struct.
 *   php_module_startup(&sapi, additional_module)
 *                          sapi_module = sapi; interned strings, class and
 *                          function tables, builtin classes, async globals
 *                          ctor, internal-context key table; then the
 *                          modules are registered (their globals_ctor run)
 *                          in this order: the program's built-in
 *                          extensions (php_register_internal_extensions_func,
 *                          see php.h), additional_module; then each one's
 *                          functions and MINIT, in registration order (where
 *                          an async extension registers itself); then
 *                          sapi.additional_functions.
 *   php_request_startup()  request allocator, executor globals,
 *                          sapi_activate() (sapi.activate), each module's
 *                          RINIT (where the async extension does
 *                          ZEND_ASYNC_INITIALIZE: OFF -> READY).
 *   php_execute_main()     (mock) runs the "script" inside zend_try; then
 *                          ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN(false) and
 *                          ZEND_ASYNC_INITIALIZE. An uncaught exception is
 *                          reported as "Uncaught ..." (E_ERROR), which bails
 *                          out; on bailout, ZEND_ASYNC_RUN_SCHEDULER_AFTER_
 *                          MAIN(true) runs in the zend_catch.
 *   php_request_shutdown() request shutdown functions (object destructors),
 *                          ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN(false),
 *                          ZEND_ASYNC_DEACTIVATE (-> OFF), each module's
 *                          RSHUTDOWN (reverse order), then the object store
 *                          is freed, sapi_deactivate() (sapi.deactivate),
 *                          and the allocator reports every leaked block.
 *   php_module_shutdown()  each module's MSHUTDOWN (reverse order) and
 *                          globals_dtor, zend_async_api_shutdown(), builtin
 *                          classes and interned strings freed.
 *   sapi_shutdown()        (main/SAPI.h)
 *
 * sapi/embed/php_embed.h wraps the whole sequence for an embedding program.
 *
 * Threading: one engine per process, one request at a time, all on the
 * thread that started the module (non-ZTS).
 */
#ifndef PHP_MAIN_H
#define PHP_MAIN_H

#include "SAPI.h"
#include "php.h"
#include "zend_modules.h"

BEGIN_EXTERN_C()

/* Starts the engine for the SAPI `sf` (copied into sapi_module) with the
 * program's built-in extensions and, if not NULL, `additional_module`.
 * Returns FAILURE, leaving an engine for php_module_shutdown() to tear
 * down, if `sf` is NULL, a module cannot be registered (NULL, or a module
 * of that name is already loaded: E_CORE_WARNING "Module \"%s\" is already
 * loaded") or a module's MINIT fails (E_CORE_WARNING "Unable to start
 * \"%s\" module"). Called again while started: SUCCESS and nothing is done,
 * as in PHP. */
PHPAPI zend_result php_module_startup(sapi_module_struct *sf,
                                      zend_module_entry *additional_module);
/* Shuts the request down if one is active, then the modules. A no-op when
 * the engine is not started. */
PHPAPI void php_module_shutdown(void);
/* The usual sapi_module_struct.shutdown: php_module_shutdown(); SUCCESS. */
PHPAPI int php_module_shutdown_wrapper(sapi_module_struct *sapi_globals);

/* Registers `count` modules (NULL entries skipped) for the running
 * startup; only valid while php_module_startup() registers modules (from
 * php_register_internal_extensions_func). FAILURE for a module that
 * cannot be registered. */
PHPAPI zend_result php_register_extensions(zend_module_entry *const *ptr,
                                           int count);

/* FAILURE before php_module_startup() or while a request is active. A
 * failed RINIT also returns FAILURE; the request is then active and must
 * be shut down. */
PHPAPI zend_result php_request_startup(void);
/* Does nothing when no request is active. */
PHPAPI void php_request_shutdown(void *dummy);

/* ---- mock extensions ---------------------------------------------------- */

PHPAPI bool php_module_started(void);

/* The mock's own SAPI for tests and tools (name "mock", pretty name
 * "zend-async-ref mock SAPI"): startup is php_module_startup(sapi, NULL),
 * shutdown php_module_shutdown_wrapper; no other callback, so output goes
 * to stdout and errors only to the engine's error log. */
PHPAPI extern sapi_module_struct php_mock_sapi_module;

/* php_module_startup() with `count` additional modules instead of one, in
 * this order after the built-in extensions (the mock's equivalent of
 * loading several extensions from php.ini). A NULL `modules` with
 * count 0 loads none. */
PHPAPI zend_result php_mock_module_startup(sapi_module_struct *sf,
                                           zend_module_entry *const *modules,
                                           uint32_t count);

/* Adds `module` to the program's built-in extensions, which
 * php_register_internal_extensions() registers at every
 * php_module_startup(), like an extension compiled statically into PHP.
 * The list is process-wide and kept across engine restarts; a module
 * already in it is not added twice. FAILURE for NULL or while the engine
 * is started. ZendAsyncRef::core_builtin adds the async extension this
 * way when linked into a program. */
PHPAPI zend_result php_mock_add_builtin_extension(zend_module_entry *module);
/* Empties the built-in list (tests). FAILURE while the engine is started. */
PHPAPI zend_result php_mock_clear_builtin_extensions(void);

/* Runs `main_fn(arg)` as the request's main script. Returns false when the
 * script bailed out (fatal error or uncaught exception). */
PHPAPI bool php_execute_main(void (*main_fn)(void *arg), void *arg);

/* What the last php_request_shutdown() found. Objects still alive when the
 * object store is torn down are freed by the engine, as PHP does, but
 * counted here: in a well-behaved request every object has been released
 * by then. */
typedef struct _php_mock_request_report {
  size_t leaked_blocks; /* emalloc blocks never freed */
  size_t leaked_bytes;
  uint32_t objects_alive_at_shutdown;
  bool bailed_out;       /* php_execute_main() (or the scheduler's last run at
                            shutdown) bailed out */
  uint32_t fatal_errors; /* php_mock_request_fatal_error() */
} php_mock_request_report;

PHPAPI php_mock_request_report php_mock_last_request_report(void);

/* The fatal errors (E_ERROR, E_CORE_ERROR, E_COMPILE_ERROR, E_USER_ERROR,
 * E_RECOVERABLE_ERROR, E_PARSE) reported while the current or last request
 * was active, oldest first: an exception nobody caught is reported as PHP
 * reports it, "Uncaught Class: message". NULL past the end. Kept apart from
 * the error log (zend_mock_errors_clear() does not clear them); emptied
 * when a request starts. */
PHPAPI const char *php_mock_request_fatal_error(uint32_t index);

/* Registers a callback run at the start of php_request_shutdown, before
 * the scheduler's last run: the mock's equivalent of releasing the global
 * symbol table (destructors of objects the script left in globals). */
PHPAPI void php_mock_register_shutdown_callback(void (*fn)(void *arg),
                                                void *arg);

END_EXTERN_C()

#endif /* PHP_MAIN_H */
