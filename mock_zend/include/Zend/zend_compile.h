/*
 * zend-async-ref: mock Zend engine.
 *
 * The compiler's public surface. The mock compiles no PHP code:
 * zend_function, zend_op_array, zend_op and the ZEND_ACC_* flags live in
 * zend.h (PHP 8.6's layouts), which this header includes, so code that
 * reads or copies compiled code compiles and lays out as against PHP.
 * What would compile or destroy compiled code fails loudly (an
 * E_CORE_ERROR naming the function, see docs/engine_surface.md).
 */
#ifndef ZEND_COMPILE_H
#define ZEND_COMPILE_H

#include "zend.h"
#include "zend_ast.h"
#include "zend_vm_opcodes.h"

BEGIN_EXTERN_C()

/* Operand types of an opline. */
#define IS_UNUSED 0
#define IS_CONST (1 << 0)
#define IS_TMP_VAR (1 << 1)
#define IS_VAR (1 << 2)
#define IS_CV (1 << 3)

/* A call frame's kind and flags: the top 16 bits of Z_TYPE_INFO(EX(This)),
 * whose low bits hold IS_OBJECT_EX when the frame has $this. */
#define ZEND_CALL_HAS_THIS IS_OBJECT_EX
#define ZEND_CALL_FUNCTION (0u << 16u)
#define ZEND_CALL_CODE (1u << 16u)
#define ZEND_CALL_NESTED (0u << 17u)
#define ZEND_CALL_TOP (1u << 17u)
#define ZEND_CALL_ALLOCATED (1u << 18u)
#define ZEND_CALL_FREE_EXTRA_ARGS (1u << 19u)
#define ZEND_CALL_HAS_SYMBOL_TABLE (1u << 20u)
#define ZEND_CALL_RELEASE_THIS (1u << 21u)
#define ZEND_CALL_CLOSURE (1u << 22u)
#define ZEND_CALL_FAKE_CLOSURE (1u << 23u)
#define ZEND_CALL_GENERATOR (1u << 24u)
#define ZEND_CALL_DYNAMIC (1u << 25u)
#define ZEND_CALL_MAY_HAVE_UNDEF (1u << 26u)
#define ZEND_CALL_HAS_EXTRA_NAMED_PARAMS (1u << 27u)
#define ZEND_CALL_OBSERVED (1u << 28u)
#define ZEND_CALL_JIT_RESERVED (1u << 29u)
#define ZEND_CALL_NEEDS_REATTACH (1u << 30u)
#define ZEND_CALL_SEND_ARG_BY_REF (1u << 31u)

#define ZEND_CALL_NESTED_FUNCTION (ZEND_CALL_FUNCTION | ZEND_CALL_NESTED)
#define ZEND_CALL_NESTED_CODE (ZEND_CALL_CODE | ZEND_CALL_NESTED)
#define ZEND_CALL_TOP_FUNCTION (ZEND_CALL_TOP | ZEND_CALL_FUNCTION)
#define ZEND_CALL_TOP_CODE (ZEND_CALL_CODE | ZEND_CALL_TOP)

#define ZEND_CALL_INFO(call) Z_TYPE_INFO((call)->This)
#define ZEND_CALL_KIND_EX(call_info) \
  (call_info & (ZEND_CALL_CODE | ZEND_CALL_TOP))
#define ZEND_CALL_KIND(call) ZEND_CALL_KIND_EX(ZEND_CALL_INFO(call))
#define ZEND_ADD_CALL_FLAG_EX(call_info, flag) \
  do {                                         \
    call_info |= (flag);                       \
  } while (0)
#define ZEND_DEL_CALL_FLAG_EX(call_info, flag) \
  do {                                         \
    call_info &= ~(flag);                      \
  } while (0)
#define ZEND_ADD_CALL_FLAG(call, flag)                      \
  do {                                                      \
    ZEND_ADD_CALL_FLAG_EX(Z_TYPE_INFO((call)->This), flag); \
  } while (0)
#define ZEND_DEL_CALL_FLAG(call, flag)                      \
  do {                                                      \
    ZEND_DEL_CALL_FLAG_EX(Z_TYPE_INFO((call)->This), flag); \
  } while (0)
#define EX_CALL_INFO() ZEND_CALL_INFO(execute_data)
#define EX_CALL_KIND() ZEND_CALL_KIND(execute_data)

/* ZEND_CATCH's extended_value: the last catch of its try (no jump). */
#define ZEND_LAST_CATCH (1 << 0)

/* The literal an opline's operand names: on 64-bit systems a byte offset
 * from the opline itself (so a copied op array whose opcodes and literals
 * move together keeps its constants), on 32-bit ones an address. */
#if ZEND_USE_ABS_CONST_ADDR
#define RT_CONSTANT(opline, node) (node).zv
#else
#define RT_CONSTANT(opline, node) \
  ((zval *)(((char *)(opline)) + (int32_t)(node).constant))
#endif

/* An op array's run-time cache and an extension's slot in it. */
#define RUN_TIME_CACHE(op_array) ZEND_MAP_PTR_GET((op_array)->run_time_cache)
#define ZEND_OP_ARRAY_EXTENSION(op_array, handle) \
  ((void **)RUN_TIME_CACHE(op_array))[handle]

/* zend_fetch_class / zend_lookup_class_ex flags. */
#define ZEND_FETCH_CLASS_DEFAULT 0
#define ZEND_FETCH_CLASS_SELF 1
#define ZEND_FETCH_CLASS_PARENT 2
#define ZEND_FETCH_CLASS_STATIC 3
#define ZEND_FETCH_CLASS_AUTO 4
#define ZEND_FETCH_CLASS_INTERFACE 5
#define ZEND_FETCH_CLASS_TRAIT 6
#define ZEND_FETCH_CLASS_MASK 0x0f
#define ZEND_FETCH_CLASS_NO_AUTOLOAD 0x80
#define ZEND_FETCH_CLASS_SILENT 0x0100
#define ZEND_FETCH_CLASS_EXCEPTION 0x0200
#define ZEND_FETCH_CLASS_ALLOW_UNLINKED 0x0400
#define ZEND_FETCH_CLASS_ALLOW_NEARLY_LINKED 0x0800

/* Compiling PHP code: fail loudly and return NULL (the mock has no
 * compiler). zend_compile_string points at compile_string, as in PHP. */
typedef enum {
  ZEND_COMPILE_POSITION_AT_SHEBANG = 0,
  ZEND_COMPILE_POSITION_AT_OPEN_TAG,
  ZEND_COMPILE_POSITION_AFTER_OPEN_TAG
} zend_compile_position;

ZEND_API extern zend_op_array *(*zend_compile_string)(
    zend_string *source_string, const char *filename,
    zend_compile_position position);
ZEND_API zend_op_array *compile_string(zend_string *source_string,
                                       const char *filename,
                                       zend_compile_position position);

/* Releasing compiled code: destroy_op_array frees what an op array owns in
 * PHP's arena layout, which the mock never allocates, so it fails loudly
 * and leaves the op array as it is. zend_destroy_static_vars releases an
 * op array's static variables (real: the table in static_variables_ptr, if
 * it differs from static_variables, is destroyed and the slot cleared). */
ZEND_API void destroy_op_array(zend_op_array *op_array);
ZEND_API void zend_destroy_static_vars(zend_op_array *op_array);
/* Adds a reference to a user function's refcount (real; an internal
 * function has none). */
ZEND_API void function_add_ref(zend_function *function);

END_EXTERN_C()

/* Call frames on the VM stack (zend_execute.h): the zval slots a
 * zend_execute_data takes at the bottom of a frame, as in PHP. */
#define ZEND_CALL_FRAME_SLOT                                \
  ((int)((ZEND_MM_ALIGNED_SIZE(sizeof(zend_execute_data)) + \
          ZEND_MM_ALIGNED_SIZE(sizeof(zval)) - 1) /         \
         ZEND_MM_ALIGNED_SIZE(sizeof(zval))))

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
