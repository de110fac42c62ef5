// zend-async-ref core: the async extension's module entry.
//
// Loading this module into the mock engine (php_module_startup) installs the
// reference scheduler, reactor and pool through the ABI register functions,
// exactly as the TrueAsync extension does from its MINIT; its RINIT moves the
// async state to READY (ZEND_ASYNC_INITIALIZE) and its RSHUTDOWN releases the
// request's async state.

#ifndef ZAR_CORE_EXTENSION_H_
#define ZAR_CORE_EXTENSION_H_

extern "C" {
#include "php.h"
}

namespace zar::core {

// The module name the scheduler (and pool) register under.
extern char kSchedulerModuleName[];

}  // namespace zar::core

extern "C" {
// The module entry ("true_async"). Pass it to php_module_startup(sapi,
// &zar_async_module_entry) (php_mock_module_startup() for several modules),
// or link ZendAsyncRef::core_builtin to make it a built-in extension that
// every startup loads. Its globals are in ext/async/php_async.h.
extern zend_module_entry zar_async_module_entry;
}

#endif  // ZAR_CORE_EXTENSION_H_
