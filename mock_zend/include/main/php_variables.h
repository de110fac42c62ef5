/*
 * zend-async-ref: mock PHP.
 *
 * Request variables ($_GET, $_POST, $_COOKIE, ...). The mock has no SAPI
 * input to parse, so it provides the names of the tracked arrays and the
 * parse targets only; the registration functions (php_register_variable
 * and friends) are not provided.
 */
#ifndef PHP_VARIABLES_H
#define PHP_VARIABLES_H

#include "php.h"

#define PARSE_POST 0
#define PARSE_GET 1
#define PARSE_COOKIE 2
#define PARSE_STRING 3
#define PARSE_ENV 4
#define PARSE_SERVER 5
#define PARSE_SESSION 6

#define TRACK_VARS_POST 0
#define TRACK_VARS_GET 1
#define TRACK_VARS_COOKIE 2
#define TRACK_VARS_SERVER 3
#define TRACK_VARS_ENV 4
#define TRACK_VARS_FILES 5
#define TRACK_VARS_REQUEST 6

BEGIN_EXTERN_C()

/* PHP's default treat_data: parses the request input `arg` (PARSE_GET,
 * PARSE_STRING, ...) into variables. The mock has no request input nor
 * PHP's variable registration (php_register_variable and its array
 * syntax), so this fails loudly; `str` (PARSE_STRING's emalloc'd string,
 * which PHP frees) is freed, and `destArray` is left as given. */
PHPAPI void php_default_treat_data(int arg, char *str, zval *destArray);

END_EXTERN_C()

#endif /* PHP_VARIABLES_H */
