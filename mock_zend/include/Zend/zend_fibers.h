/*
 * zend-async-ref: mock Zend engine.
 *
 * Fibers: PHP's types and context-switching API, with PHP's names, field
 * order and signatures, so extension code that embeds a zend_fiber_context
 * or a zend_fiber_transfer in its own structures (php-async's coroutines
 * do) compiles, lays out and switches as in PHP.
 *
 * Real, on Boost.Context (make_fcontext/jump_fcontext, as PHP's
 * zend_fibers.c):
 *   - zend_fiber_init_context: a guard-paged C stack of `stack_size` bytes
 *     (0: EG(fiber_stack_size)), rounded up to pages, at least 64 KiB (a
 *     size below two pages throws PHP's Exception "Fiber stack size is too
 *     small, it needs to be at least <2 pages> bytes" and fails);
 *     kind and function set, status INIT, cleanup left as the caller set
 *     it (PHP's callers set it after), then the init observers. If the
 *     stack cannot be had: an Exception "Fiber stack allocate failed: ..."
 *     (or "Fiber stack protect failed: ...") is thrown, context->stack is
 *     NULL and FAILURE returned.
 *   - zend_fiber_switch_context: the switch observers (from, to), then the
 *     switch carrying the transfer (its value and flags travel untouched;
 *     the receiver owns the value). It returns when some context switches
 *     back: transfer->context is that context. Statuses as PHP's: the
 *     target RUNNING, the switcher SUSPENDED (a DEAD one stays DEAD).
 *     Saved and restored per context: EG(vm_stack), EG(vm_stack_top),
 *     EG(vm_stack_end), EG(vm_stack_page_size), EG(current_execute_data),
 *     EG(error_reporting), EG(jit_trace_num), EG(bailout),
 *     EG(active_fiber); EG(current_fiber_context) is the running context.
 *     A context whose function returned is DEAD; it switches to
 *     transfer->context and is destroyed by the context it switched to.
 *     ZEND_FIBER_TRANSFER_FLAG_ERROR (the value a Throwable) and
 *     ZEND_FIBER_TRANSFER_FLAG_BAILOUT are the receiver's to act on, as in
 *     PHP; a bailout that escapes a context's function ends the context,
 *     which switches to EG(main_fiber_context) with the BAILOUT flag.
 *     Misuse (switching into the running or a dead context, outside a
 *     request) reports an E_CORE_WARNING naming the function and returns
 *     without switching.
 *   - zend_fiber_destroy_context: the destroy observers, the cleanup (it
 *     may free the structure holding the context), then the stack goes
 *     back to the engine's stack cache. Not for the running context
 *     (E_CORE_WARNING).
 *   - zend_fiber_switch_block/unblock/blocked: a counter, reset at request
 *     startup and blocked from request shutdown on, as in PHP.
 *   - EG(main_fiber_context): the thread's own stack, created at request
 *     startup, freed at shutdown.
 * Loud: zend_fiber_start, zend_fiber_resume, zend_fiber_suspend (the Fiber
 * class runs PHP code) report E_CORE_ERROR "<function>() is not supported
 * by the mock engine: it runs no PHP code (...)", set a return_value to
 * NULL and fail (zend_fiber_start returns FAILURE); there is no Fiber
 * class (zend_ce_fiber is NULL).
 *
 * Threading: a fiber context belongs to the thread that created it.
 */
#ifndef ZEND_FIBERS_H
#define ZEND_FIBERS_H

#include "zend_API.h"
#include "zend_async_API.h"
#include "zend_types.h"

#define ZEND_FIBER_GUARD_PAGES 1

#define ZEND_FIBER_DEFAULT_C_STACK_SIZE \
  (4096 * (((sizeof(void *)) < 8) ? 256 : 512))
#define ZEND_FIBER_VM_STACK_SIZE (1024 * sizeof(zval))

BEGIN_EXTERN_C()

typedef enum {
  ZEND_FIBER_STATUS_INIT,
  ZEND_FIBER_STATUS_RUNNING,
  ZEND_FIBER_STATUS_SUSPENDED,
  ZEND_FIBER_STATUS_DEAD,
} zend_fiber_status;

typedef enum {
  ZEND_FIBER_FLAG_THREW = 1 << 0,
  ZEND_FIBER_FLAG_BAILOUT = 1 << 1,
  ZEND_FIBER_FLAG_DESTROYED = 1 << 2,
} zend_fiber_flag;

typedef enum {
  ZEND_FIBER_TRANSFER_FLAG_ERROR = 1 << 0,
  ZEND_FIBER_TRANSFER_FLAG_BAILOUT = 1 << 1
} zend_fiber_transfer_flag;

/* The class Fiber. The mock registers no Fiber class: NULL. */
extern ZEND_API zend_class_entry *zend_ce_fiber;

typedef struct _zend_fiber_stack zend_fiber_stack;
typedef struct _zend_fiber_event zend_fiber_event;

/* What one context switch carries: the context switched to (on return:
 * the one that switched back), a value (owned by whoever receives the
 * transfer) and zend_fiber_transfer_flag bits. */
typedef struct _zend_fiber_transfer {
  zend_fiber_context *context;
  zval value;
  uint8_t flags;
} zend_fiber_transfer;

/* A context's entry function; before it returns it fills the transfer with
 * the context to switch to next. */
typedef void (*zend_fiber_coroutine)(zend_fiber_transfer *transfer);
/* Called when a context is destroyed. */
typedef void (*zend_fiber_clean)(zend_fiber_context *context);

struct _zend_fiber_context {
  /* The machine context (boost.context or ucontext_t in PHP). */
  void *handle;
  /* Identifies the owner type (zend_ce_fiber for a Fiber object). */
  void *kind;
  zend_fiber_coroutine function;
  zend_fiber_clean cleanup;
  /* The C stack, owned by the context. */
  zend_fiber_stack *stack;
  zend_fiber_status status;
  zend_execute_data *top_observed_frame;
  /* Slots extensions may use for their own per-context data. */
  void *reserved[ZEND_MAX_RESERVED_RESOURCES];
};

/* A PHP Fiber object (the layout PHP's Fiber class uses). */
struct _zend_fiber {
  zend_object std;
  uint8_t flags; /* zend_fiber_flag bits */
  zend_coroutine_t *coroutine;
  zend_fiber_event *resume_event;
  zend_fiber_event *yield_event;
  zend_fiber_context context;
  union {
    zend_fiber_context *caller;
    zend_coroutine_t *caller_coroutine;
  };
  zend_fiber_context *previous;
  zend_fcall_info fci;
  zend_fcall_info_cache fci_cache;
  zend_fcall_t *fcall;
  zend_execute_data *execute_data;
  zend_execute_data *stack_bottom;
  zend_vm_stack vm_stack;
  zval result;
};

/* The event a coroutine waits on for a Fiber it created. */
struct _zend_fiber_event {
  zend_async_event_t base;
  zend_fiber *fiber;
  bool is_suspended;
};

ZEND_API zend_result zend_fiber_start(zend_fiber *fiber, zval *return_value);
ZEND_API void zend_fiber_resume(zend_fiber *fiber, zval *value,
                                zval *return_value);
ZEND_API void zend_fiber_suspend(zend_fiber *fiber, zval *value,
                                 zval *return_value);

ZEND_API zend_result zend_fiber_init_context(zend_fiber_context *context,
                                             void *kind,
                                             zend_fiber_coroutine coroutine,
                                             size_t stack_size);
ZEND_API void zend_fiber_destroy_context(zend_fiber_context *context);
ZEND_API void zend_fiber_switch_context(zend_fiber_transfer *transfer);

/* While blocked (a counter: each block needs its unblock), PHP refuses to
 * switch fibers, e.g. inside destructors run by the GC. */
ZEND_API void zend_fiber_switch_block(void);
ZEND_API void zend_fiber_switch_unblock(void);
ZEND_API bool zend_fiber_switch_blocked(void);

END_EXTERN_C()

static zend_always_inline zend_fiber *zend_fiber_from_context(
    zend_fiber_context *context) {
  ZEND_ASSERT(context->kind == zend_ce_fiber);
  return (zend_fiber *)((char *)context - XtOffsetOf(zend_fiber, context));
}

static zend_always_inline zend_fiber_context *zend_fiber_get_context(
    zend_fiber *fiber) {
  return &fiber->context;
}

#endif /* ZEND_FIBERS_H */
