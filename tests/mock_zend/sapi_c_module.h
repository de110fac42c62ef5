/* The C SAPI of sapi_c_module.c. */
#ifndef ZAR_TESTS_MOCK_ZEND_SAPI_C_MODULE_H_
#define ZAR_TESTS_MOCK_ZEND_SAPI_C_MODULE_H_

#ifdef __cplusplus
extern "C" {
#endif

/* What the SAPI's callbacks saw, in order ("startup;activate;...").
 * "request;" is noted between php_request_startup() and its shutdown. */
extern char c_sapi_events[256];
/* sapi_startup, startup (php_module_startup(sapi, NULL)), a request,
 * shutdown (php_module_shutdown_wrapper), sapi_shutdown. SUCCESS or
 * FAILURE. */
int c_sapi_run(void);
/* ZEND_ULONG_MAX as C sees it. */
unsigned long long c_zend_ulong_max(void);

#ifdef __cplusplus
}
#endif

#endif /* ZAR_TESTS_MOCK_ZEND_SAPI_C_MODULE_H_ */
