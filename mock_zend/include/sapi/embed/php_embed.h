/*
 * zend-async-ref: mock PHP. The embed SAPI (PHP's sapi/embed/php_embed.h):
 * the whole process and request lifecycle for a program that embeds the
 * engine.
 *
 *   PHP_EMBED_START_BLOCK(argc, argv)
 *     ... the program's work inside one request ...
 *   PHP_EMBED_END_BLOCK()
 *
 * php_embed_init():     sapi_startup(&php_embed_module), then
 *                       php_embed_module.startup (php_module_startup with
 *                       the program's built-in extensions, see
 *                       php_mock_add_builtin_extension in php_main.h),
 *                       SG(request_info).argc/argv, php_request_startup().
 *                       FAILURE, with everything started undone, if the
 *                       module or the request cannot start.
 * php_embed_shutdown(): php_request_shutdown(), php_module_shutdown(),
 *                       sapi_shutdown(). Does nothing before a successful
 *                       php_embed_init().
 *
 * Extensions: as in PHP, php_embed_init() loads the built-in extensions
 * only. A program adds its own with php_mock_add_builtin_extension() before
 * php_embed_init(); linking ZendAsyncRef::core_builtin makes the async
 * extension ("true_async") one of them.
 *
 * The module writes output (php_printf) to stdout and the error log
 * ("PHP Warning:  ...") to stderr, as PHP's embed SAPI does.
 *
 * Threading: one embedded engine per process, on the calling thread.
 */
#ifndef PHP_EMBED_H
#define PHP_EMBED_H

#include "SAPI.h"
#include "php.h"
#include "php_main.h"

#define PHP_EMBED_START_BLOCK(x, y) \
  {                                 \
    php_embed_init(x, y);           \
    zend_first_try {
#define PHP_EMBED_END_BLOCK() \
  }                           \
  zend_catch {}               \
  zend_end_try();             \
  php_embed_shutdown();       \
  }

#define EMBED_SAPI_API SAPI_API

BEGIN_EXTERN_C()
EMBED_SAPI_API int php_embed_init(int argc, char **argv);
EMBED_SAPI_API void php_embed_shutdown(void);
extern EMBED_SAPI_API sapi_module_struct php_embed_module;
END_EXTERN_C()

#endif /* PHP_EMBED_H */
