/*
 * zend-async-ref: mock PHP. What an extension gets from "php.h".
 */
#ifndef PHP_H
#define PHP_H

/* The configuration before any system header, as PHP's php.h reaches it
 * through zend.h: <limits.h> first would lock out the GNU/POSIX API. */
// clang-format off
#include "php_config.h"

#include <ctype.h>
#include <limits.h>
// clang-format on

#include "php_output.h"
#include "zend_API.h"
#include "zend_closures.h"
#include "zend_enum.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "zend_modules.h"
#ifndef MAXPATHLEN
#define MAXPATHLEN PATH_MAX
#endif

BEGIN_EXTERN_C()

#define PHPAPI ZEND_API
#define PHP_MINIT_FUNCTION ZEND_MODULE_STARTUP_D
#define PHP_MSHUTDOWN_FUNCTION ZEND_MODULE_SHUTDOWN_D
#define PHP_RINIT_FUNCTION ZEND_MODULE_ACTIVATE_D
#define PHP_RSHUTDOWN_FUNCTION ZEND_MODULE_DEACTIVATE_D
#define PHP_MINFO_FUNCTION ZEND_MODULE_INFO_D
#define PHP_MINIT ZEND_MODULE_STARTUP_N
#define PHP_MSHUTDOWN ZEND_MODULE_SHUTDOWN_N
#define PHP_RINIT ZEND_MODULE_ACTIVATE_N
#define PHP_RSHUTDOWN ZEND_MODULE_DEACTIVATE_N
#define PHP_MINFO ZEND_MODULE_INFO_N
#define PHP_GINIT_FUNCTION ZEND_GINIT_FUNCTION
#define PHP_GSHUTDOWN_FUNCTION ZEND_GSHUTDOWN_FUNCTION
#define PHP_GINIT ZEND_GINIT
#define PHP_GSHUTDOWN ZEND_GSHUTDOWN
#define PHP_MODULE_GLOBALS ZEND_MODULE_GLOBALS

/* Reports through zend_error, prefixed with the running function's name
 * ("Class::method(): message") as PHP does. `docref` is ignored. */
PHPAPI ZEND_COLD void php_error_docref(const char *docref, int type,
                                       const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 3, 4);
PHPAPI size_t php_printf(const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 1, 2);

/* PHP's output macros (php_output.h). */
#define PHPWRITE(str, str_len) php_output_write((str), (str_len))
#define PUTS(str) php_output_write((str), strlen(str))

/* PHP's php_error is zend_error. */
#define php_error zend_error

/* Registers the program's built-in extensions (php_main.h:
 * php_mock_add_builtin_extension) through php_register_extensions();
 * php_module_startup() calls it through the pointer, which a SAPI may
 * replace with its own function (that may call the original). */
PHPAPI extern int (*php_register_internal_extensions_func)(void);
PHPAPI int php_register_internal_extensions(void);

END_EXTERN_C()

/* As in PHP, php.h brings the stream API and the VCWD_* file macros, the
 * core globals and php.ini access (which PHP's php.h reaches through
 * fopen_wrappers.h) and the constants. */
#include "php_globals.h"
#include "php_ini.h"
#include "php_streams.h"
#include "zend_constants.h"
#include "zend_virtual_cwd.h"

#endif /* PHP_H */
