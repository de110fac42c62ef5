/*
 * zend-async-ref: mock Zend engine.
 *
 * The compiler's public constants extensions use. The mock compiles no
 * PHP code; zend_function, zend_op_array and the ZEND_ACC_* flags live in
 * zend.h, which this header includes, so code including zend_compile.h for
 * them compiles as with PHP.
 */
#ifndef ZEND_COMPILE_H
#define ZEND_COMPILE_H

#include "zend.h"

/* Slots an extension can reserve in op arrays and fiber contexts
 * (zend_get_resource_handle() in PHP). */
#define ZEND_MAX_RESERVED_RESOURCES 6

/* Call frames on the VM stack (zend_execute.h): the zval slots a
 * zend_execute_data takes at the bottom of a frame, as in PHP. */
#define ZEND_CALL_FRAME_SLOT                                \
  ((int)((ZEND_MM_ALIGNED_SIZE(sizeof(zend_execute_data)) + \
          ZEND_MM_ALIGNED_SIZE(sizeof(zval)) - 1) /         \
         ZEND_MM_ALIGNED_SIZE(sizeof(zval))))

#endif /* ZEND_COMPILE_H */
