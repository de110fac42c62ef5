/*
 * The fiber types used from C11, embedded in an extension's own structure
 * as php-async's coroutine.h does. fibers_test.cc runs the checks; each
 * returns 0 on success or the line of the first failed condition.
 */
#ifndef ZAR_TESTS_MOCK_ZEND_FIBERS_C_H_
#define ZAR_TESTS_MOCK_ZEND_FIBERS_C_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* zend_fiber_context, zend_fiber_transfer and zend_vm_stack embedded in a
 * struct; a ZEND_STACK_ALIGNED function is callable. */
int surface_c_fiber_types_check(void);

/* sizeof/offsetof as C sees them, compared with C++'s in the test. */
size_t surface_c_sizeof_fiber_context(void);
size_t surface_c_sizeof_fiber_transfer(void);
size_t surface_c_sizeof_fiber(void);
size_t surface_c_offsetof_fiber_context(void);

/* A context initialised and switched from C11 with EG(fiber_stack_size),
 * running on a VM stack page of its own as php-async's coroutines do:
 * three values out and back doubled, then its function returns; main's
 * EG(vm_stack) and EG(current_fiber_context) hold after each switch. */
int surface_c_fiber_ping_pong(void);

#ifdef __cplusplus
}
#endif

#endif /* ZAR_TESTS_MOCK_ZEND_FIBERS_C_H_ */
