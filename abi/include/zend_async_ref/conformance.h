/*
 * zend-async-ref: the entry point of an implementation the conformance
 * runner validates. Not part of the upstream ABI.
 *
 * `zend-async-conformance --impl libimpl.so` runs the conformance suite
 * against an implementation of the Zend Async ABI other than the one it was
 * built with. The shared library exports one C function,
 * zend_async_conformance_module(), that returns the implementation's module
 * entry; the runner starts that module in every test's engine (through
 * php_module_startup, with the PDO stand-in after it where a test needs
 * PDO) in place of the reference extension.
 *
 * The module's contract, the same as a TrueAsync extension's:
 *   - MINIT registers the scheduler, the reactor and the pool through
 *     zend_async_scheduler_register(), zend_async_reactor_register() and
 *     zend_async_pool_api_register(), and defines whatever classes they
 *     report through get_class_ce;
 *   - RINIT does ZEND_ASYNC_INITIALIZE (OFF -> READY);
 *   - RSHUTDOWN releases every piece of request state: the runner fails a
 *     test that leaves an emalloc block or a live object behind;
 *   - MSHUTDOWN forgets what MINIT defined. The engine starts and stops the
 *     module once per test, so every hook must work again after MSHUTDOWN.
 *
 * Linking. The runner is the engine: it defines the mock Zend engine and the
 * ABI (zend_*, executor_globals, zend_async_*) and exports them. The library
 * must leave those symbols undefined (link neither ZendAsyncRef::abi nor
 * ZendAsyncRef::mock_zend into it) so that they bind to the runner's; it
 * should export nothing but the entry point (-fvisibility=hidden,
 * -Wl,--exclude-libs,ALL). Its own dependencies (libuv, ...) are its
 * business. tools/conformance/CMakeLists.txt builds the reference extension
 * this way (libzend_async_ref_impl.so).
 *
 * The runner calls the entry point once, after dlopen and before any
 * engine starts; the returned entry must stay valid until the process
 * exits (the runner never unloads the library).
 */
#ifndef ZEND_ASYNC_REF_CONFORMANCE_H
#define ZEND_ASYNC_REF_CONFORMANCE_H

#include "Zend/zend_modules.h"

/* The entry point's name, for dlsym(). */
#define ZEND_ASYNC_CONFORMANCE_ENTRY_POINT "zend_async_conformance_module"

/* Marks the definition of the entry point as exported from a library
 * built with -fvisibility=hidden. */
#define ZEND_ASYNC_CONFORMANCE_EXPORT __attribute__((visibility("default")))

BEGIN_EXTERN_C()

/* The implementation's module entry; never NULL. Defined by the library. */
typedef zend_module_entry *(*zend_async_conformance_module_t)(void);
ZEND_ASYNC_CONFORMANCE_EXPORT zend_module_entry *zend_async_conformance_module(
    void);

END_EXTERN_C()

#endif /* ZEND_ASYNC_REF_CONFORMANCE_H */
