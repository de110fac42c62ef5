/*
 * zend-async-ref: mock Zend engine.
 *
 * Frameless functions (PHP 8.4+): the handlers the optimizer may call
 * without a call frame, listed in zend_function_entry's
 * frameless_function_infos. The mock runs no opcodes and never calls them;
 * the type exists so function entries lay out, and *_arginfo.h files
 * compile, as in PHP.
 */
#ifndef ZEND_FRAMELESS_FUNCTION_H
#define ZEND_FRAMELESS_FUNCTION_H

#include <stdint.h>

/* One frameless handler and the argument count it takes. A list ends with
 * an entry whose handler is NULL. */
typedef struct {
  void *handler;
  uint32_t num_args;
} zend_frameless_function_info;

#endif /* ZEND_FRAMELESS_FUNCTION_H */
