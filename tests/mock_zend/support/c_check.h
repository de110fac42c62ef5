/*
 * zend-async-ref mock engine tests: the check of the C11 surface files
 * (fibers_c.c, module_globals_c.c). A check function returns 0 when every
 * condition held, else the line of the first that did not; the C++ test
 * calling it expects 0.
 */
#ifndef ZAR_TESTS_MOCK_ZEND_SUPPORT_C_CHECK_H_
#define ZAR_TESTS_MOCK_ZEND_SUPPORT_C_CHECK_H_

#define C_CHECK(condition) \
  do {                     \
    if (!(condition)) {    \
      return __LINE__;     \
    }                      \
  } while (0)

#endif /* ZAR_TESTS_MOCK_ZEND_SUPPORT_C_CHECK_H_ */
