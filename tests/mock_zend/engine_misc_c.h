/*
 * The engine names php-async and true-async/server use beyond the core
 * headers (zval and array helpers, parameter parsing, INI lookups,
 * constants, PG()/CG(), portability macros), used from C11 as their C
 * files use them. The tests call these; a check returns 0 on success or
 * the line of the first failed condition.
 */
#ifndef ZAR_TESTS_MOCK_ZEND_ENGINE_MISC_C_H_
#define ZAR_TESTS_MOCK_ZEND_ENGINE_MISC_C_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _zend_function_entry zend_function_entry;

/* Functions written in C with the macros under test:
 *   c_misc_describe(string $s, array $a, mixed ...$rest): ["s" => $s (by
 *     Z_PARAM_STRING's pointer and length), "count" => count($a) as a
 *     float, "rest" => count($rest), "named" => whether named args came];
 *   c_misc_appended(array $a): a copy of $a with 4 appended (SEPARATE_ARRAY,
 *     then RETURN_ZVAL moving the copy out);
 *   c_misc_alloca(int $size): whether do_alloca took the block from the
 *     heap, after writing all of it. */
const zend_function_entry* surface_c_misc_functions(void);

/* INI lookups, constants registered with REGISTER_*_CONSTANT, CG(), the
 * compile-time position, the portability names and the known strings. */
int surface_c_misc_check(void);

/* Z_TRY_ADDREF_P/Z_TRY_DELREF_P given a void * (an ABI callback's result);
 * 0 on success or the failing line. */
int surface_c_void_result_check(void);

/* A table's data block sized, copied and re-pointed with the HT_* layout
 * macros, and an empty table's shared slots; 0 on success or the failing
 * line. */
int surface_c_table_data_copy_check(void);

/* PG(last_error_*) after a warning reported from C. */
int surface_c_last_error_check(void);

struct _zend_module_entry;

/* A module "misc_ini" as php-async's async.c declares one: globals, a
 * PHP_INI_BEGIN list (misc.enabled, STD_PHP_INI_BOOLEAN default "1";
 * misc.limit, OnUpdateLong default "8K"; misc.label, OnUpdateString
 * default "main"), REGISTER_INI_ENTRIES in ZEND_MINIT_FUNCTION,
 * UNREGISTER_INI_ENTRIES in ZEND_MSHUTDOWN_FUNCTION and
 * DISPLAY_INI_ENTRIES in its MINFO; and the function
 * c_misc_iterable(iterable $items): the number of entries of an array, -1
 * for a Traversable. */
extern struct _zend_module_entry surface_c_ini_module_entry;

/* The module's globals as its handlers left them, and the INI lookups from
 * C. */
int surface_c_ini_globals_check(void);

#ifdef __cplusplus
}
#endif

#endif /* ZAR_TESTS_MOCK_ZEND_ENGINE_MISC_C_H_ */
