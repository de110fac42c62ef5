/*
 * zend-async-ref: mock PHP.
 *
 * php.ini access. The mock reads no php.ini: the configuration is empty,
 * so every cfg_get_* lookup answers "not set" (FAILURE, *result set to 0,
 * 0.0 or NULL as in PHP)
 * and cfg_get_entry returns NULL. The INI-entry machinery under its
 * PHP_INI_* names (PHP_INI_BEGIN, STD_PHP_INI_ENTRY, REGISTER_INI_ENTRIES)
 * is Zend/zend_ini.h's: modules' directives keep their default values.
 */
#ifndef PHP_INI_H
#define PHP_INI_H

#include "php.h"
#include "zend_ini.h"

#define PHP_INI_USER ZEND_INI_USER
#define PHP_INI_PERDIR ZEND_INI_PERDIR
#define PHP_INI_SYSTEM ZEND_INI_SYSTEM
#define PHP_INI_ALL ZEND_INI_ALL

/* PHP's names of the INI-entry machinery (zend_ini.h). */
#define PHP_INI_MH ZEND_INI_MH
#define PHP_INI_DISP ZEND_INI_DISP
#define PHP_INI_BEGIN ZEND_INI_BEGIN
#define PHP_INI_END ZEND_INI_END
#define PHP_INI_ENTRY3_EX ZEND_INI_ENTRY3_EX
#define PHP_INI_ENTRY3 ZEND_INI_ENTRY3
#define PHP_INI_ENTRY2_EX ZEND_INI_ENTRY2_EX
#define PHP_INI_ENTRY2 ZEND_INI_ENTRY2
#define PHP_INI_ENTRY1_EX ZEND_INI_ENTRY1_EX
#define PHP_INI_ENTRY1 ZEND_INI_ENTRY1
#define PHP_INI_ENTRY_EX ZEND_INI_ENTRY_EX
#define PHP_INI_ENTRY ZEND_INI_ENTRY
#define STD_PHP_INI_ENTRY STD_ZEND_INI_ENTRY
#define STD_PHP_INI_ENTRY_EX STD_ZEND_INI_ENTRY_EX
#define STD_PHP_INI_BOOLEAN STD_ZEND_INI_BOOLEAN
#define PHP_INI_STAGE_STARTUP ZEND_INI_STAGE_STARTUP
#define PHP_INI_STAGE_SHUTDOWN ZEND_INI_STAGE_SHUTDOWN
#define PHP_INI_STAGE_ACTIVATE ZEND_INI_STAGE_ACTIVATE
#define PHP_INI_STAGE_DEACTIVATE ZEND_INI_STAGE_DEACTIVATE
#define PHP_INI_STAGE_RUNTIME ZEND_INI_STAGE_RUNTIME
#define PHP_INI_STAGE_HTACCESS ZEND_INI_STAGE_HTACCESS
#define DISPLAY_INI_ENTRIES() display_ini_entries(zend_module)

BEGIN_EXTERN_C()

/* phpinfo()'s table of `module`'s directives (ext/standard/info.h's text
 * form): "Directive => Local Value => Master Value", one row each. */
PHPAPI ZEND_COLD void display_ini_entries(zend_module_entry *module);

PHPAPI zval *cfg_get_entry_ex(zend_string *name);
PHPAPI zval *cfg_get_entry(const char *name, size_t name_length);
PHPAPI int cfg_get_long(const char *varname, zend_long *result);
PHPAPI int cfg_get_double(const char *varname, double *result);
PHPAPI int cfg_get_string(const char *varname, char **result);

END_EXTERN_C()

#endif /* PHP_INI_H */
