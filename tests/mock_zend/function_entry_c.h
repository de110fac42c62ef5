/*
 * Function entries written from C11 as PHP 8.4+'s gen_stub.php writes them
 * in an *_arginfo.h file (six-argument ZEND_RAW_FENTRY, namespaced names,
 * ZEND_FE/ZEND_ME on top of it). function_entry_test.cc registers and
 * inspects them; each check returns 0 on success or the line of the first
 * failed condition.
 */
#ifndef ZAR_TESTS_MOCK_ZEND_FUNCTION_ENTRY_C_H_
#define ZAR_TESTS_MOCK_ZEND_FUNCTION_ENTRY_C_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct _zend_function_entry;

/* "Vendor\\c_entry_sum" (ZEND_RAW_FENTRY with ZEND_NS_NAME, a frameless
 * info and a doc comment), "c_entry_plain" (ZEND_FE), then ZEND_FE_END. */
const struct _zend_function_entry* surface_c_function_entries(void);

/* The entries' fields as C reads them. */
int surface_c_function_entry_check(void);

size_t surface_c_sizeof_function_entry(void);
size_t surface_c_offsetof_function_entry_doc_comment(void);

#ifdef __cplusplus
}
#endif

#endif /* ZAR_TESTS_MOCK_ZEND_FUNCTION_ENTRY_C_H_ */
