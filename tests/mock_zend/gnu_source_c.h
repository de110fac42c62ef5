/*
 * php.h from a C file compiled without -D_GNU_SOURCE (gnu_source_c.c).
 */
#ifndef ZAR_TESTS_MOCK_ZEND_GNU_SOURCE_C_H_
#define ZAR_TESTS_MOCK_ZEND_GNU_SOURCE_C_H_

#ifdef __cplusplus
extern "C" {
#endif

/* Uses sigjmp_buf, realpath() and gmtime_r() as declared after php.h;
 * 0 on success or the line of the first failed condition. */
int surface_c_gnu_api_check(void);

#ifdef __cplusplus
}
#endif

#endif  // ZAR_TESTS_MOCK_ZEND_GNU_SOURCE_C_H_
