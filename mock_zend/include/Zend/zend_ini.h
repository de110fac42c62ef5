/*
 * zend-async-ref: mock Zend engine. INI settings (PHP's zend_ini.h).
 *
 * The mock reads no php.ini and registers no INI directives (the INI-entry
 * machinery, ZEND_INI_BEGIN and REGISTER_INI_ENTRIES, is not provided), so
 * every setting is unknown, as an unregistered name is in PHP:
 * zend_ini_long and zend_ini_double answer 0, zend_ini_string,
 * zend_ini_str and zend_ini_get_value NULL, and the *_ex forms set
 * *exists to false.
 */
#ifndef ZEND_INI_H
#define ZEND_INI_H

#include "zend_types.h"

/* Where a setting may be changed. */
#define ZEND_INI_USER (1 << 0)
#define ZEND_INI_PERDIR (1 << 1)
#define ZEND_INI_SYSTEM (1 << 2)
#define ZEND_INI_ALL (ZEND_INI_USER | ZEND_INI_PERDIR | ZEND_INI_SYSTEM)

BEGIN_EXTERN_C()

ZEND_API zend_long zend_ini_long(const char *name, size_t name_length,
                                 bool orig);
ZEND_API double zend_ini_double(const char *name, size_t name_length,
                                bool orig);
ZEND_API char *zend_ini_string(const char *name, size_t name_length, bool orig);
ZEND_API char *zend_ini_string_ex(const char *name, size_t name_length,
                                  bool orig, bool *exists);
ZEND_API zend_string *zend_ini_str(const char *name, size_t name_length,
                                   bool orig);
ZEND_API zend_string *zend_ini_str_ex(const char *name, size_t name_length,
                                      bool orig, bool *exists);
ZEND_API zend_string *zend_ini_get_value(zend_string *name);

END_EXTERN_C()

/* The lookups by a string literal's name (PHP 8.6). */
#define zend_ini_long_literal(name) \
  zend_ini_long((name), sizeof("" name) - 1, 0)
#define zend_ini_double_literal(name) \
  zend_ini_double((name), sizeof("" name) - 1, 0)
#define zend_ini_str_literal(name) zend_ini_str((name), sizeof("" name) - 1, 0)
#define zend_ini_string_literal(name) \
  zend_ini_string((name), sizeof("" name) - 1, 0)

#define INI_INT(name) zend_ini_long((name), sizeof(name) - 1, 0)
#define INI_FLT(name) zend_ini_double((name), sizeof(name) - 1, 0)
#define INI_STR(name) zend_ini_string_ex((name), sizeof(name) - 1, 0, NULL)
#define INI_BOOL(name) ((bool)INI_INT(name))
#define INI_ORIG_INT(name) zend_ini_long((name), sizeof(name) - 1, 1)
#define INI_ORIG_FLT(name) zend_ini_double((name), sizeof(name) - 1, 1)
#define INI_ORIG_STR(name) zend_ini_string((name), sizeof(name) - 1, 1)
#define INI_ORIG_BOOL(name) ((bool)INI_ORIG_INT(name))

#endif /* ZEND_INI_H */
