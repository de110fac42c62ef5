/*
 * zend-async-ref: mock PHP. PHP's core globals, PG() (main/php_globals.h).
 *
 * The fields extensions read, in the order of PHP's struct
 * _php_core_globals. The mock reads no php.ini, so the settings keep their
 * unset values (upload_tmp_dir and sys_temp_dir NULL, expose_php and
 * auto_globals_jit false). The last error is PHP's: every error reported
 * through zend_error()/php_error_docref() records its level, message, file
 * and line in last_error_* (the file is the executing script's, "Unknown"
 * without one); the strings are persistent and the engine owns them, and
 * they are cleared at request shutdown, as PHP frees its request globals.
 */
#ifndef PHP_GLOBALS_H
#define PHP_GLOBALS_H

#include "zend_globals.h"

BEGIN_EXTERN_C()

typedef struct _php_core_globals php_core_globals;

struct _php_core_globals {
  zend_long memory_limit;
  char *sys_temp_dir;
  char *upload_tmp_dir;
  zend_long upload_max_filesize;
  bool expose_php;
  bool auto_globals_jit;
  bool during_request_startup;
  int last_error_type;
  int last_error_lineno;
  zend_string *last_error_message;
  zend_string *last_error_file;
};

ZEND_API extern php_core_globals core_globals;
#define PG(v) (core_globals.v)

END_EXTERN_C()

#endif /* PHP_GLOBALS_H */
