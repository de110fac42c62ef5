/*
 * zend-async-ref: mock PHP. PHP's output layer, reduced to what reaches the
 * SAPI: there are no output buffers (ob_*), so every write goes straight to
 * sapi_module.ub_write, or to stdout when the SAPI has none.
 */
#ifndef PHP_OUTPUT_H
#define PHP_OUTPUT_H

#include <stddef.h>

#include "zend_portability.h"

BEGIN_EXTERN_C()

/* Writes `len` bytes of `str`; returns the number written. */
ZEND_API size_t php_output_write(const char *str, size_t len);
/* The number of active output buffers: always 0 here. */
ZEND_API int php_output_get_level(void);

END_EXTERN_C()

/* As true-async/php-src's php_output.h: output on behalf of a coroutine.
 * The fork keeps an output context per coroutine; the mock has no output
 * buffers, so every coroutine's output reaches the SAPI as
 * php_output_write's does. */
#include "Zend/zend_async_API.h"

BEGIN_EXTERN_C()

ZEND_API size_t php_output_write_with_coroutine(const char *str, size_t len,
                                                zend_coroutine_t *coro);
#define PHPWRITE_CORO(str, str_len, coro) \
  php_output_write_with_coroutine((str), (str_len), (coro))

END_EXTERN_C()

#endif /* PHP_OUTPUT_H */
