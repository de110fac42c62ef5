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

}  // extern "C"
