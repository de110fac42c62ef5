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

BEGIN_EXTERN_C()

/* The compiler's position. The mock never compiles PHP code: nothing is
 * being compiled, so zend_is_compiling() is false, and the compiled file and
 * line are CG(compiled_filename) and CG(zend_lineno) (NULL and 0). Callers
 * check zend_is_compiling() first, then use zend_get_executed_filename()
 * and zend_get_executed_lineno() (zend_globals.h). */
ZEND_API bool zend_is_compiling(void);
ZEND_API zend_string *zend_get_compiled_filename(void);
ZEND_API int zend_get_compiled_lineno(void);

/* Cuts `path` (len bytes) in place to its directory, as PHP's dirname():
 * trailing slashes and the last component go, "." when there is no slash,
 * "/" for the root; returns the new length (0 for an empty path). */
ZEND_API size_t zend_dirname(char *path, size_t len);

END_EXTERN_C()

#endif /* ZEND_COMPILE_H */
