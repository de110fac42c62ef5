/*
 * zend-async-ref: mock Zend engine.
 *
 * Call frames of internal functions. The mock executes no bytecode: a
 * frame exists while an internal function, method or closure body runs,
 * and holds the callee, $this and the arguments, so handlers written
 * against PHP's macros (ZEND_NUM_ARGS, ZEND_CALL_ARG, ZEND_THIS, EX) work.
 */
#ifndef ZEND_EXECUTE_H
#define ZEND_EXECUTE_H

#include "zend_compile.h"
#include "zend_gc.h"
#include "zend_globals.h"

BEGIN_EXTERN_C()

struct _zend_execute_data {
  const void *opline;
  zend_execute_data *call;
  zval *return_value;
  zend_function *func;
  zval This; /* $this (IS_OBJECT) or UNDEF; This.u2.num_args = argc */
  zend_execute_data *prev_execute_data;
  zend_array *symbol_table;
  void **run_time_cache;
  zend_array *extra_named_params;
  zval *args; /* the arguments, args[0..num_args) */
};

/* A VM stack page, as in PHP: [top, end) is free, prev the page below. */
struct _zend_vm_stack {
  zval *top;
  zval *end;
  zend_vm_stack prev;
};

/* ---- The VM stack, as PHP's zend_execute.h lays it out. A page starts
 * with its struct _zend_vm_stack header (ZEND_VM_STACK_HEADER_SLOTS zval
 * slots); its elements follow. The mock executes no bytecode and places
 * its own internal frames elsewhere: the request's page is real memory
 * that extensions may push frames on or replace with their own (a fiber
 * context's page), and zend_fiber_switch_context saves and restores it
 * (EG(vm_stack), EG(vm_stack_top), EG(vm_stack_end),
 * EG(vm_stack_page_size)). ---- */
#define ZEND_VM_STACK_PAGE_SLOTS (16 * 1024)
#define ZEND_VM_STACK_PAGE_SIZE (ZEND_VM_STACK_PAGE_SLOTS * sizeof(zval))
#define ZEND_VM_STACK_HEADER_SLOTS                        \
  ((ZEND_MM_ALIGNED_SIZE(sizeof(struct _zend_vm_stack)) + \
    ZEND_MM_ALIGNED_SIZE(sizeof(zval)) - 1) /             \
   ZEND_MM_ALIGNED_SIZE(sizeof(zval)))
#define ZEND_VM_STACK_ELEMENTS(stack) \
  (((zval *)(stack)) + ZEND_VM_STACK_HEADER_SLOTS)

/* Allocates the request's first page (ZEND_VM_STACK_PAGE_SIZE
 * bytes, or `page_size`; persistent memory in the mock, so the request's
 * leak check does not count it) and points EG(vm_stack), EG(vm_stack_top),
 * EG(vm_stack_end) and EG(vm_stack_page_size) at it. Request startup
 * calls zend_vm_stack_init(), as PHP's init_executor does. */
ZEND_API void zend_vm_stack_init(void);
ZEND_API void zend_vm_stack_init_ex(size_t page_size);
/* Frees EG(vm_stack) and every page below it (request shutdown), and
 * clears the four fields. */
ZEND_API void zend_vm_stack_destroy(void);

#define EX(element) ((execute_data)->element)
#define ZEND_CALL_NUM_ARGS(call) (call)->This.u2.num_args
#define EX_NUM_ARGS() ZEND_CALL_NUM_ARGS(execute_data)
#define ZEND_NUM_ARGS() EX_NUM_ARGS()
/* n is 1-based, as in PHP. */
#define ZEND_CALL_ARG(call, n) (&(call)->args[(int)(n)-1])
#define EX_VAR_NUM(n) ZEND_CALL_ARG(execute_data, (n) + 1)
#define ZEND_THIS (&EX(This))
#define getThis() ((Z_TYPE_P(ZEND_THIS) == IS_OBJECT) ? ZEND_THIS : NULL)
#define ZEND_THIS_OBJECT Z_OBJ_P(ZEND_THIS)

/* Compiled code (PHP's names; the mock runs no opcodes). Pushing a frame
 * for, initialising and executing a user function fail loudly:
 * zend_vm_stack_push_call_frame returns NULL, the others do nothing.
 * zend_execute_ex points at execute_ex, as in PHP. */
ZEND_API extern void (*zend_execute_ex)(zend_execute_data *execute_data);
ZEND_API void execute_ex(zend_execute_data *execute_data);
ZEND_API zend_execute_data *zend_vm_stack_push_call_frame(
    uint32_t call_info, zend_function *func, uint32_t num_args,
    void *object_or_called_scope);
ZEND_API void zend_init_func_execute_data(zend_execute_data *execute_data,
                                          zend_op_array *op_array,
                                          zval *return_value);

/* The GC roots of an unfinished frame (a suspended fiber's or coroutine's
 * stack). Real for the frames the mock has: a frame without a function, or
 * of an internal function, has no compiled variables and yields NULL after
 * adding its $this when ZEND_CALL_RELEASE_THIS is set in its call info. A
 * user-code frame (which the mock never creates) fails loudly and yields
 * NULL. */
ZEND_API HashTable *zend_unfinished_execution_gc(
    zend_execute_data *execute_data, zend_execute_data *call,
    zend_get_gc_buffer *gc_buffer);
ZEND_API HashTable *zend_unfinished_execution_gc_ex(
    zend_execute_data *execute_data, zend_execute_data *call,
    zend_get_gc_buffer *gc_buffer, bool suspended_by_yield);

/* A class by name; real: the class table (the mock has no autoloading, so
 * ZEND_FETCH_CLASS_NO_AUTOLOAD changes nothing). `key` (the lowercase
 * name, or NULL) is accepted as in PHP. */
ZEND_API zend_class_entry *zend_lookup_class_ex(zend_string *name,
                                                zend_string *key,
                                                uint32_t flags);

/* Runs `func` in a new frame with `object` as $this (may be NULL) and
 * `argc` arguments (borrowed), writing its result to `retval`. This is how
 * the engine calls every internal function, method and closure. */
ZEND_API void zend_mock_execute_internal(zend_function *func,
                                         zend_object *object, uint32_t argc,
                                         zval *argv, zval *retval);

/* Bailout and frames (mock extension). A frame holds a reference to $this
 * and, for a closure, to the closure object while its function runs. A
 * bailout abandons the frames between it and the zend_try it lands in, so
 * those references are never released by the frames themselves, and, as
 * in PHP, _zend_bailout() sets EG(current_execute_data) to NULL. Code that
 * catches a bailout at the bottom of a stack (the main script, a
 * coroutine's entry function) calls this to release the references held by
 * every frame that was on the chain when the bailout happened, and then
 * restores EG(current_execute_data) to its own frame. Every bailout adds
 * the references of the frames not yet recorded; a frame that still
 * returns (it was below the zend_try) takes its own off the record.
 * Calling it twice is harmless; what nobody released when the request
 * ends is released then (PHP frees those objects with the object store),
 * so an extension that catches bailouts in its own fibers need not. */
ZEND_API void zend_mock_release_bailout_frames(void);

END_EXTERN_C()

#endif /* ZEND_EXECUTE_H */
