/*
 * Module globals declared from C11 with PHP's macros, as an extension's
 * php_<ext>.h and <ext>.c do. module_globals_test.cc runs the checks; each
 * returns 0 on success or the line of the first failed condition.
 */
#ifndef ZAR_TESTS_MOCK_ZEND_MODULE_GLOBALS_C_H_
#define ZAR_TESTS_MOCK_ZEND_MODULE_GLOBALS_C_H_

#ifdef __cplusplus
extern "C" {
#endif

struct _zend_module_entry;

/* A module entry whose globals are declared with ZEND_BEGIN_MODULE_GLOBALS,
 * ZEND_DECLARE_MODULE_GLOBALS and PHP_MODULE_GLOBALS/PHP_GINIT. */
extern struct _zend_module_entry surface_c_module_entry;

/* Runs the module's GINIT with ZEND_INIT_MODULE_GLOBALS, then writes and
 * reads through ZEND_MODULE_GLOBALS_ACCESSOR and ZEND_MODULE_GLOBALS_BULK. */
int surface_c_module_globals_check(void);
/* The module entry records the globals' size, address and constructor. */
int surface_c_module_entry_check(void);

#ifdef __cplusplus
}
#endif

#endif /* ZAR_TESTS_MOCK_ZEND_MODULE_GLOBALS_C_H_ */
