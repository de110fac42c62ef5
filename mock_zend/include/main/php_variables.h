/*
 * zend-async-ref: mock PHP. Request variables (PHP's main/php_variables.h).
 *
 * The mock has no superglobals ($_GET, $_SERVER, ...) and parses no
 * request data; it provides the registration of one variable into an
 * array the caller owns.
 */
#ifndef PHP_VARIABLES_H
#define PHP_VARIABLES_H

#include "SAPI.h"
#include "php.h"

#define PARSE_POST 0
#define PARSE_GET 1
#define PARSE_COOKIE 2
#define PARSE_STRING 3
#define PARSE_ENV 4
#define PARSE_SERVER 5
#define PARSE_SESSION 6

BEGIN_EXTERN_C()
/* Sets track_vars_array[var] = val (a copy of the string). var and val
 * must not be NULL. With a NULL track_vars_array PHP registers into
 * $_SERVER; the mock has none, so the call does nothing. A
 * track_vars_array that is not an array is left alone. */
PHPAPI void php_register_variable(const char *var, const char *val,
                                  zval *track_vars_array);
END_EXTERN_C()

#endif /* PHP_VARIABLES_H */
