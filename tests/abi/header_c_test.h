/* Checks compiled as C11 (header_c_test.c), run from header_c_test.cc. */
#ifndef ZAR_TESTS_ABI_HEADER_C_TEST_H_
#define ZAR_TESTS_ABI_HEADER_C_TEST_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 0 on success, else the source line of the failed check. */
int zar_c_check_version(void);
int zar_c_check_event_flags(void);
int zar_c_check_event_refcount(void);
int zar_c_check_callbacks_push(void);
int zar_c_check_waker_macros(void);
int zar_c_check_microtask(void);
int zar_c_check_globals(void);
int zar_c_check_v026_additions(void);

/* Sizes as C sees them. */
size_t zar_c_sizeof_waker_trigger(void);
size_t zar_c_sizeof_waker(void);
size_t zar_c_sizeof_coroutine(void);

#ifdef __cplusplus
}
#endif

#endif /* ZAR_TESTS_ABI_HEADER_C_TEST_H_ */
