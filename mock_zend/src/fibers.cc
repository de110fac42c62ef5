// zend-async-ref: mock Zend engine. Fibers (zend_fibers.h).
//
// The mock runs no PHP fibers: coroutines are switched by the reference
// scheduler through the async ABI. The fiber types are PHP's so extension
// structures embedding them lay out as in PHP; of the functions, the
// switch-blocking counter is real and the context-switching calls report
// an E_CORE_ERROR naming themselves and fail without switching.
//
// Threading: the blocking counter is per thread, like PHP's executor
// globals.

#include "engine_internal.h"

extern "C" {
#include "zend_fibers.h"
}

namespace {

thread_local uint32_t switch_block_depth = 0;

// Every context-switching call fails for the same reason.
void Unsupported(const char* function) {
  mock_zend::internal::Unsupported(
      function,
      "it runs no PHP fibers (coroutines are switched by the async "
      "scheduler)");
}

}  // namespace

extern "C" {

zend_class_entry* zend_ce_fiber = nullptr;

zend_result zend_fiber_start(zend_fiber* fiber, zval* return_value) {
  (void)fiber;
  if (return_value != nullptr) ZVAL_NULL(return_value);
  Unsupported("zend_fiber_start");
  return FAILURE;
}

void zend_fiber_resume(zend_fiber* fiber, zval* value, zval* return_value) {
  (void)fiber;
  (void)value;
  if (return_value != nullptr) ZVAL_NULL(return_value);
  Unsupported("zend_fiber_resume");
}

void zend_fiber_suspend(zend_fiber* fiber, zval* value, zval* return_value) {
  (void)fiber;
  (void)value;
  if (return_value != nullptr) ZVAL_NULL(return_value);
  Unsupported("zend_fiber_suspend");
}

zend_result zend_fiber_init_context(zend_fiber_context* context, void* kind,
                                    zend_fiber_coroutine coroutine,
                                    size_t stack_size) {
  (void)kind;
  (void)coroutine;
  (void)stack_size;
  if (context != nullptr) {
    memset(context, 0, sizeof(*context));
    context->status = ZEND_FIBER_STATUS_DEAD;
  }
  Unsupported("zend_fiber_init_context");
  return FAILURE;
}

// As in PHP: the owner's cleanup runs; there is no stack to free, since
// zend_fiber_init_context never allocates one here.
void zend_fiber_destroy_context(zend_fiber_context* context) {
  if (context == nullptr) return;
  if (context->cleanup != nullptr) context->cleanup(context);
  context->stack = nullptr;
}

// The transfer comes back unchanged except for the error flag: the caller
// keeps running, and a caller that checks the flag sees the switch failed.
void zend_fiber_switch_context(zend_fiber_transfer* transfer) {
  if (transfer != nullptr) transfer->flags |= ZEND_FIBER_TRANSFER_FLAG_ERROR;
  Unsupported("zend_fiber_switch_context");
}

void zend_fiber_switch_block(void) { switch_block_depth++; }

void zend_fiber_switch_unblock(void) {
  if (switch_block_depth == 0) {
    zend_error(E_CORE_WARNING,
               "zend_fiber_switch_unblock() called without a matching "
               "zend_fiber_switch_block()");
    return;
  }
  switch_block_depth--;
}

bool zend_fiber_switch_blocked(void) { return switch_block_depth > 0; }

}  // extern "C"
