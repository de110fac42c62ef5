/*
 * zend-async-ref tests: the check of the C11 files that use the engine's and
 * the ABI's names from C (tests/abi/header_c_test.c, tests/mock_zend's
 * *_c.c). A check function returns 0 when every condition held, else the
 * line of the first that did not; the C++ test calling it expects 0.
 */
#ifndef ZAR_TESTS_SUPPORT_C_CHECK_H_
#define ZAR_TESTS_SUPPORT_C_CHECK_H_

#define C_CHECK(condition) \
  do {                     \
    if (!(condition)) {    \
      return __LINE__;     \
    }                      \
  } while (0)

#endif /* ZAR_TESTS_SUPPORT_C_CHECK_H_ */
