/*
 * zend-async-ref: mock PHP. Thread Safe Resource Manager (PHP's TSRM/TSRM.h)
 * as a non-ZTS build sees it.
 *
 * The mock engine is never built with ZTS: one engine per process, one
 * request at a time. This header therefore provides only what PHP defines
 * when ZTS is off (macros that expand to nothing, the BC parameter macros)
 * so that code written for both builds compiles unchanged. The tsrm_*
 * functions a SAPI calls under #ifdef ZTS (tsrm_startup, tsrm_shutdown,
 * ts_resource, ...) are not provided.
 */
#ifndef TSRM_H
#define TSRM_H

#if defined(__GNUC__) && __GNUC__ >= 4
#define TSRM_API __attribute__((visibility("default")))
#else
#define TSRM_API
#endif

#ifdef ZTS
#error "zend-async-ref's mock engine is a non-ZTS build; undefine ZTS"
#endif

#define tsrm_env_lock()
#define tsrm_env_unlock()

#define TSRMLS_FETCH()
#define TSRMLS_FETCH_FROM_CTX(ctx)
#define TSRMLS_SET_CTX(ctx)

#define TSRMG_STATIC(id, type, element)
#define TSRMLS_CACHE_EXTERN()
#define TSRMLS_CACHE_DEFINE()
#define TSRMLS_CACHE_UPDATE()
#define TSRMLS_CACHE

#define TSRM_TLS

/* BC only */
#define TSRMLS_D void
#define TSRMLS_DC
#define TSRMLS_C
#define TSRMLS_CC

#endif /* TSRM_H */
