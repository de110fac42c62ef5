/*
 * Exception parking called from C11 (mock_zend/exception_park.h), as
 * pdo_sim's C code calls it. exception_park_test.cc runs it.
 */
#ifndef ZAR_TESTS_MOCK_ZEND_EXCEPTION_PARK_C_H_
#define ZAR_TESTS_MOCK_ZEND_EXCEPTION_PARK_C_H_

#ifdef __cplusplus
extern "C" {
#endif

/* Parks the exception in flight, throws an Error "raised in C" while it
 * is parked, and unparks with ZEND_MOCK_PARKED_STAYS_CURRENT. */
void exception_park_c_throw_while_parked(void);

#ifdef __cplusplus
}
#endif

#endif /* ZAR_TESTS_MOCK_ZEND_EXCEPTION_PARK_C_H_ */
