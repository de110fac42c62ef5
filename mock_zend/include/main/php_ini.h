/*
 * zend-async-ref: mock PHP.
 *
 * php.ini access. The mock reads no php.ini: the configuration is empty,
 * so every cfg_get_* lookup answers "not set" (FAILURE, *result set to 0,
 * 0.0 or NULL as in PHP)
 * and cfg_get_entry returns NULL. The INI-entry declaration machinery
 * (PHP_INI_BEGIN, STD_PHP_INI_ENTRY, REGISTER_INI_ENTRIES) is not provided.
 */
#ifndef PHP_INI_H
#define PHP_INI_H

#include "php.h"
#include "zend_ini.h"

#define PHP_INI_USER ZEND_INI_USER
#define PHP_INI_PERDIR ZEND_INI_PERDIR
#define PHP_INI_SYSTEM ZEND_INI_SYSTEM
#define PHP_INI_ALL ZEND_INI_ALL

BEGIN_EXTERN_C()

PHPAPI zval *cfg_get_entry_ex(zend_string *name);
PHPAPI zval *cfg_get_entry(const char *name, size_t name_length);
PHPAPI int cfg_get_long(const char *varname, zend_long *result);
PHPAPI int cfg_get_double(const char *varname, double *result);
PHPAPI int cfg_get_string(const char *varname, char **result);

END_EXTERN_C()

#endif /* PHP_INI_H */
