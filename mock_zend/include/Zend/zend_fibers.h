/*
 * zend-async-ref: mock Zend engine.
 *
 * Fibers: the types and the context-switching API PHP exposes to
 * extensions, with PHP's names, field order and signatures, so extension
 * code that embeds a zend_fiber_context or a zend_fiber_transfer in its own
 * structures (php-async's coroutines do) compiles and lays out as in PHP.
 *
 * The mock runs no PHP fibers of its own: coroutines are switched by the
 * reference scheduler. What an extension can call here:
 *   - zend_fiber_switch_block/unblock/blocked: a real per-thread counter.
 *   - zend_fiber_init_context, zend_fiber_switch_context, zend_fiber_start,
 *     zend_fiber_resume, zend_fiber_suspend: report E_CORE_ERROR naming the
 *     function ("... is not supported by the mock engine") and fail without
 *     switching: zend_fiber_init_context zeroes the context, marks it DEAD
 *     and returns FAILURE; zend_fiber_start returns FAILURE;
 *     zend_fiber_switch_context sets ZEND_FIBER_TRANSFER_FLAG_ERROR on the
 *     transfer; a return_value is set to NULL. Like every E_CORE_ERROR, the
 *     report bails out when a zend_try is active.
 *   - zend_fiber_destroy_context runs the context's cleanup, as PHP does
 *     (there is no C stack to free).
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
 * the one that resumed us), a value (owned by the transfer) and
 * zend_fiber_transfer_flag bits. */
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
