/*
 * zend-async-ref: mock PHP.
 *
 * The phpinfo() table helpers a module's MINFO uses. The mock prints them
 * through php_printf as PHP's CLI (text) phpinfo does: a table starts with
 * an empty line, a header or row prints its columns joined by " => " and a
 * newline (an empty or NULL column prints as "no value"), a table ends with
 * nothing.
 */
#ifndef INFO_H
#define INFO_H

#include "php.h"

BEGIN_EXTERN_C()

PHPAPI ZEND_COLD void php_info_print_table_start(void);
PHPAPI ZEND_COLD void php_info_print_table_end(void);
PHPAPI ZEND_COLD void php_info_print_table_header(int num_cols, ...);
PHPAPI ZEND_COLD void php_info_print_table_row(int num_cols, ...);
PHPAPI ZEND_COLD void php_info_print_table_colspan_header(int num_cols,
                                                          const char *header);
PHPAPI ZEND_COLD void php_info_print_hr(void);
/* Runs the module's MINFO (info_func), if it has one. */
PHPAPI ZEND_COLD void php_info_print_module(zend_module_entry *module);

END_EXTERN_C()

#endif /* INFO_H */
