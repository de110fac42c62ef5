// zend-async-ref: mock PHP. php.ini lookups (main/php_ini.h): the mock
// reads no php.ini, so nothing is ever set.

#include "engine_internal.h"

extern "C" {
#include "main/php_ini.h"
}

extern "C" {

zval* cfg_get_entry_ex(zend_string* name) {
  (void)name;
  return nullptr;
}

zval* cfg_get_entry(const char* name, size_t name_length) {
  (void)name;
  (void)name_length;
  return nullptr;
}

int cfg_get_long(const char* varname, zend_long* result) {
  (void)varname;
  *result = 0;
  return FAILURE;
}

int cfg_get_double(const char* varname, double* result) {
  (void)varname;
  *result = 0.0;
  return FAILURE;
}

int cfg_get_string(const char* varname, char** result) {
  (void)varname;
  *result = nullptr;
  return FAILURE;
}

// No INI directive is registered: every name is unknown.
zend_long zend_ini_long(const char* name, size_t name_length, bool orig) {
  (void)name;
  (void)name_length;
  (void)orig;
  return 0;
}

double zend_ini_double(const char* name, size_t name_length, bool orig) {
  (void)name;
  (void)name_length;
  (void)orig;
  return 0.0;
}

char* zend_ini_string(const char* name, size_t name_length, bool orig) {
  return zend_ini_string_ex(name, name_length, orig, nullptr);
}

zend_string* zend_ini_str_ex(const char* name, size_t name_length, bool orig,
                             bool* exists) {
  (void)name;
  (void)name_length;
  (void)orig;
  if (exists != nullptr) *exists = false;
  return nullptr;
}

char* zend_ini_string_ex(const char* name, size_t name_length, bool orig,
                         bool* exists) {
  zend_string* value = zend_ini_str_ex(name, name_length, orig, exists);
  return value != nullptr ? ZSTR_VAL(value) : nullptr;
}

zend_string* zend_ini_str(const char* name, size_t name_length, bool orig) {
  return zend_ini_str_ex(name, name_length, orig, nullptr);
}

zend_string* zend_ini_get_value(zend_string* name) {
  (void)name;
  return nullptr;
}

}  // extern "C"
