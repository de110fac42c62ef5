/*
 * Compiled code (zend_compile.h, zend_ast.h, zend_map_ptr.h, zend_vm.h,
 * zend_execute.h) used from C11, as php-async's thread.c and coroutine.c
 * use it. A check returns 0 on success or the line of the first failed
 * condition.
 */
#ifndef ZAR_TESTS_MOCK_ZEND_COMPILED_CODE_C_H_
#define ZAR_TESTS_MOCK_ZEND_COMPILED_CODE_C_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sizeof/offsetof as C sees them, compared with C++'s in the tests. */
size_t compiled_c_sizeof_op_array(void);
size_t compiled_c_offsetof_op_array_reserved(void);
size_t compiled_c_sizeof_function(void);

/* An op array built and copied by hand: map pointers (plain and slot),
 * user-code and call-info macros, opcode numbers. */
int compiled_c_op_array_check(void);

/* A constant expression held in an IS_CONSTANT_AST zval: copied with
 * zend_ast_copy, walked through GC_AST and the node accessors, released by
 * zval_ptr_dtor. */
int compiled_c_ast_check(void);

#ifdef __cplusplus
}
#endif

#endif /* ZAR_TESTS_MOCK_ZEND_COMPILED_CODE_C_H_ */
