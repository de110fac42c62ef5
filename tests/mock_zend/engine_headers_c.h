/*
 * The headers php-async includes beyond the core ones (zend_generators.h,
 * zend_observer.h, zend_attributes.h, zend_autoload.h, zend_weakrefs.h,
 * php_config.h), used from C11. The tests of each header call these; a
 * check returns 0 on success or the line of the first failed condition.
 */
#ifndef ZAR_TESTS_MOCK_ZEND_ENGINE_HEADERS_C_H_
#define ZAR_TESTS_MOCK_ZEND_ENGINE_HEADERS_C_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sizeof/offsetof as C sees them, compared with C++'s in the tests. */
size_t surface_c_sizeof_generator(void);
size_t surface_c_offsetof_generator_flags(void);
size_t surface_c_sizeof_attribute(void);

/* An attribute table copied as php-async's thread.c copies one: each
 * attribute of ZEND_ATTRIBUTE_SIZE(argc) bytes, marked persistent. */
int surface_c_attribute_copy_check(void);

/* php_config.h leaves ZTS undefined: 1 when ZTS is defined after it. */
int surface_c_php_config_zts(void);

/* Registers a switch observer from C that counts its calls; the count. */
void surface_c_observer_register(void);
int surface_c_observer_switches(void);

#ifdef __cplusplus
}
#endif

#endif /* ZAR_TESTS_MOCK_ZEND_ENGINE_HEADERS_C_H_ */
