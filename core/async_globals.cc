// zend-async-ref core: the extension's module globals
// (ext/async/php_async.h), ZEND_DECLARE_MODULE_GLOBALS(async) in a non-ZTS
// build. With the reactor's sources, whose loop (ASYNC_G(uvloop)) lives
// here; the module entry (extension.cc) points at them and zeroes them at
// registration.

extern "C" {
#include "ext/async/php_async.h"
}

extern "C" {

ZEND_DECLARE_MODULE_GLOBALS(async)

}  // extern "C"
