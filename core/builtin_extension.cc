// zend-async-ref core: the async extension as a built-in extension of the
// program this object is linked into (ZendAsyncRef::core_builtin).
//
// PHP compiles an extension statically into its binary with
// --enable-<ext>: the extension is then in the binary's list of built-in
// modules, which php_module_startup() registers before any other, so that
// every SAPI (the CLI, the embed library, a test harness that calls
// php_module_startup(sapi, NULL)) starts with it. Linking this object does
// the same for the reference extension: before main() it adds
// zar_async_module_entry ("true_async") to the mock engine's built-in
// extensions (php_mock_add_builtin_extension).
//
// Programs that pass the module to php_module_startup() themselves (the
// tests, the tools) link ZendAsyncRef::core alone; with both, the second
// registration fails with "Module "true_async" is already loaded".

#include "core/extension.h"

extern "C" {
#include "php_main.h"
}

namespace {

// Runs during static initialisation, before main(), on the main thread.
const bool registered =
    php_mock_add_builtin_extension(&zar_async_module_entry) == SUCCESS;

}  // namespace
