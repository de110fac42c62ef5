// zend-async-ref: mock Zend engine. Fibers (zend_fibers.h) and the VM
// stack pages (zend_execute.h).
//
// A fiber context is a machine stack from the engine's allocator
// (fiber_stack.h: guard-paged, from the thread's StackCache) and the
// Boost.Context fcontext_t at which it resumes, switched with
// jump_fcontext as PHP's zend_fibers.c does. The stack's top bytes hold
// the context's zend_fiber_stack (the FiberStack that owns the mapping and
// the sanitizer's bookkeeping), so initialising a context allocates
// nothing but the stack, and a switch allocates nothing and makes no
// system call.
//
// What a switch does, in PHP's order: the switch observers run (from, to);
// the executor state that belongs to the running code is saved on the
// switcher's stack (the VM stack fields, EG(current_execute_data),
// EG(error_reporting), EG(jit_trace_num), EG(bailout), EG(active_fiber));
// `to` becomes RUNNING and the switcher SUSPENDED (unless it is DEAD);
// EG(current_fiber_context) = to; the transfer, its context field now the
// switcher, travels to `to`. When some context switches back, its
// transfer is copied into the switcher's (it lives on the other stack),
// transfer->context names the context that switched back (whose resume
// point is recorded there, so contexts switch symmetrically), the saved
// state is restored, and that context is destroyed if it is DEAD (its
// function returned).
//
// A context's function runs on its stack the first time it is switched
// to, with the transfer that arrived; when it returns, the context is DEAD
// and switches to transfer->context for the last time. A bailout that
// escapes the function (no zend_try of its own) cannot unwind onto another
// stack: the context catches it, becomes DEAD, and switches to the
// request's main context with ZEND_FIBER_TRANSFER_FLAG_BAILOUT (value
// NULL), whose switcher re-raises it as PHP's fibers do with a bailout
// flag (zend_fiber_switch_to: transfer.flags & BAILOUT -> zend_bailout()).
// (In PHP such a bailout longjmps onto the switcher's stack: a crash.)
//
// Threading: the contexts of a request are switched on its thread (the
// mock engine is single-threaded).

#include <unistd.h>

#include <boost/context/detail/fcontext.hpp>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <utility>

#include "engine_internal.h"
#include "fiber_stack.h"
#include "stack_switch.h"

extern "C" {
#include "zend_exceptions.h"
#include "zend_execute.h"
#include "zend_fibers.h"
#include "zend_observer.h"
}

namespace ctx = boost::context::detail;
using mock_zend::internal::FiberStack;
using mock_zend::internal::StackSwitch;

// A context's stack and what the engine keeps about it. For a context with
// its own stack this lives in the stack's top bytes; the main context's
// (sanitizer builds only, as PHP's) is allocated at request startup and
// owns no memory.
struct _zend_fiber_stack {
  FiberStack memory;
  // What the sanitizers are told at a switch to and from this stack.
  StackSwitch sanitizers;
};

namespace {

// The executor state of the code running on one context, saved across a
// switch on the switcher's own stack (PHP's zend_fiber_vm_state).
struct VmState {
  zend_vm_stack vm_stack;
  zval* vm_stack_top;
  zval* vm_stack_end;
  size_t vm_stack_page_size;
  zend_execute_data* current_execute_data;
  int error_reporting;
  uint32_t jit_trace_num;
  JMP_BUF* bailout;
  zend_fiber* active_fiber;

  void Capture() {
    vm_stack = EG(vm_stack);
    vm_stack_top = EG(vm_stack_top);
    vm_stack_end = EG(vm_stack_end);
    vm_stack_page_size = EG(vm_stack_page_size);
    current_execute_data = EG(current_execute_data);
    error_reporting = EG(error_reporting);
    jit_trace_num = EG(jit_trace_num);
    bailout = EG(bailout);
    active_fiber = EG(active_fiber);
  }
  void Restore() const {
    EG(vm_stack) = vm_stack;
    EG(vm_stack_top) = vm_stack_top;
    EG(vm_stack_end) = vm_stack_end;
    EG(vm_stack_page_size) = vm_stack_page_size;
    EG(current_execute_data) = current_execute_data;
    EG(error_reporting) = error_reporting;
    EG(jit_trace_num) = jit_trace_num;
    EG(bailout) = bailout;
    EG(active_fiber) = active_fiber;
  }
};

// Blocks switching while > 0 (PHP's zend_fiber_switch_blocking).
uint32_t switch_block_depth = 0;

// The control block's share of the stack top: whole 16-byte units, so the
// first frame below it is aligned as make_fcontext wants.
constexpr size_t kControlBlockSize = (sizeof(zend_fiber_stack) + 15) / 16 * 16;

void Warn(const char* message) { zend_error(E_CORE_WARNING, "%s", message); }

// The first frame of every context: finishes the switch that started it,
// runs the function, and leaves the context for good.
[[noreturn]] void Trampoline(ctx::transfer_t jump) {
  zend_fiber_transfer transfer = *static_cast<zend_fiber_transfer*>(jump.data);
  zend_fiber_context* from = transfer.context;
  zend_fiber_stack* landed = EG(current_fiber_context)->stack;
  if (landed != nullptr && from->stack != nullptr) {
    landed->sanitizers.FinishSwitch(&from->stack->sanitizers);
  }
  from->handle = jump.fctx;
  if (from->status == ZEND_FIBER_STATUS_DEAD) {
    zend_fiber_destroy_context(from);
    from = nullptr;
  }

  zend_fiber_context* context = EG(current_fiber_context);
  // The function's own zend_try nests in this one; a bailout it does not
  // catch ends the context here, on its own stack.
  JMP_BUF* outer = EG(bailout);
  JMP_BUF bailout;
  EG(bailout) = &bailout;
  if (SETJMP(bailout) == 0) {
    context->function(&transfer);
  } else {
    // What the abandoned frames held is not released (as after any
    // bailout); the value that arrived belonged to them.
    ZVAL_NULL(&transfer.value);
    transfer.context = EG(main_fiber_context);
    transfer.flags = ZEND_FIBER_TRANSFER_FLAG_BAILOUT;
  }
  EG(bailout) = outer;
  context->status = ZEND_FIBER_STATUS_DEAD;
  zend_fiber_switch_context(&transfer);
  std::fputs("zend-async-ref: a dead fiber context was resumed\n", stderr);
  std::abort();
}

// Frees the stack of a context (and the control block on it).
void FreeStack(zend_fiber_stack* stack) {
  if (stack == nullptr) return;
  if (stack->memory.empty()) {  // the main context's bookkeeping
    stack->~zend_fiber_stack();
    pefree(stack, 1);
    return;
  }
  stack->sanitizers.Destroy();
  FiberStack memory = std::move(stack->memory);
  stack->~zend_fiber_stack();
}  // `memory` goes back to the cache here, after the block that lived on it

}  // namespace

namespace mock_zend::internal {

void FibersStartup() {
  // The request's own blocks (here and the VM stack page) are persistent
  // memory, unlike PHP's emalloc: zend_mm_check_leaks() counts every live
  // request block, and may be called while the request runs.
  auto* context = static_cast<zend_fiber_context*>(
      pecalloc(1, sizeof(zend_fiber_context), 1));
#if defined(ZAR_SANITIZE) || defined(ZAR_TSAN)
  // The main context needs bookkeeping only for the sanitizers, as in PHP.
  context->stack =
      new (pemalloc(sizeof(zend_fiber_stack), 1)) zend_fiber_stack();
  context->stack->sanitizers.ForThread();
#endif
  context->status = ZEND_FIBER_STATUS_RUNNING;
  EG(main_fiber_context) = context;
  EG(current_fiber_context) = context;
  EG(active_fiber) = nullptr;
  EG(fiber_stack_size) = ZEND_FIBER_DEFAULT_C_STACK_SIZE;
  EG(error_reporting) = E_ALL;
  EG(jit_trace_num) = 0;
  switch_block_depth = 0;
  zend_vm_stack_init();
}

void FibersShutdown() {
  zend_vm_stack_destroy();
  if (EG(main_fiber_context) != nullptr) {
    FreeStack(EG(main_fiber_context)->stack);
    pefree(EG(main_fiber_context), 1);
  }
  EG(main_fiber_context) = nullptr;
  EG(current_fiber_context) = nullptr;
  EG(active_fiber) = nullptr;
  // As PHP's zend_fiber_shutdown: no switching after the request.
  switch_block_depth = 1;
}

}  // namespace mock_zend::internal

extern "C" {

zend_class_entry* zend_ce_fiber = nullptr;

// ---- The Fiber class's calls: they run PHP code, which the mock cannot.

namespace {
void FiberUnsupported(const char* function) {
  mock_zend::internal::Unsupported(
      function,
      "it runs no PHP code (extensions switch zend fiber contexts with "
      "zend_fiber_switch_context)");
}
}  // namespace

zend_result zend_fiber_start(zend_fiber* fiber, zval* return_value) {
  (void)fiber;
  if (return_value != nullptr) ZVAL_NULL(return_value);
  FiberUnsupported("zend_fiber_start");
  return FAILURE;
}

void zend_fiber_resume(zend_fiber* fiber, zval* value, zval* return_value) {
  (void)fiber;
  (void)value;
  if (return_value != nullptr) ZVAL_NULL(return_value);
  FiberUnsupported("zend_fiber_resume");
}

void zend_fiber_suspend(zend_fiber* fiber, zval* value, zval* return_value) {
  (void)fiber;
  (void)value;
  if (return_value != nullptr) ZVAL_NULL(return_value);
  FiberUnsupported("zend_fiber_suspend");
}

// ---- Contexts.

zend_result zend_fiber_init_context(zend_fiber_context* context, void* kind,
                                    zend_fiber_coroutine coroutine,
                                    size_t stack_size) {
  if (stack_size == 0) stack_size = EG(fiber_stack_size);
  if (stack_size == 0) stack_size = ZEND_FIBER_DEFAULT_C_STACK_SIZE;
  // PHP's floor: one usable page above the guard pages.
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t minimum = page + ZEND_FIBER_GUARD_PAGES * page;
  if (stack_size < minimum) {
    context->stack = nullptr;
    context->handle = nullptr;
    zend_throw_exception_ex(
        nullptr, 0,
        "Fiber stack size is too small, it needs to be at least %zu bytes",
        minimum);
    return FAILURE;
  }
  FiberStack memory;
  mock_zend::internal::StackFailure failure;
  if (!memory.Allocate(stack_size, &failure)) {
    context->stack = nullptr;
    context->handle = nullptr;
    zend_throw_exception(
        nullptr, mock_zend::internal::StackFailureMessage(failure).c_str(), 0);
    return FAILURE;
  }
  char* block = static_cast<char*>(memory.top()) - kControlBlockSize;
  const size_t below =
      static_cast<size_t>(block - static_cast<char*>(memory.bottom()));
  auto* stack = new (block) zend_fiber_stack();
  stack->sanitizers.ForStack(memory);
  stack->memory = std::move(memory);
  context->stack = stack;
  context->handle = ctx::make_fcontext(block, below, &Trampoline);
  context->kind = kind;
  context->function = coroutine;
  context->status = ZEND_FIBER_STATUS_INIT;
  zend_observer_fiber_init_notify(context);
  return SUCCESS;
}

void zend_fiber_destroy_context(zend_fiber_context* context) {
  if (context == nullptr) return;
  if (context == EG(current_fiber_context)) {
    Warn(
        "zend_fiber_destroy_context(): cannot destroy the running fiber "
        "context");
    return;
  }
  zend_observer_fiber_destroy_notify(context);
  // The cleanup may free the structure holding the context (php-async's
  // does): read the stack first, touch the context no more after it.
  zend_fiber_stack* stack = context->stack;
  if (context->cleanup != nullptr) context->cleanup(context);
  FreeStack(stack);
}

void zend_fiber_switch_context(zend_fiber_transfer* transfer) {
  zend_fiber_context* from = EG(current_fiber_context);
  zend_fiber_context* to = transfer->context;
  if (from == nullptr) {
    Warn("zend_fiber_switch_context(): no request is active");
    return;
  }
  if (to == nullptr || to == from || to->handle == nullptr ||
      to->status == ZEND_FIBER_STATUS_DEAD) {
    Warn(to == from ? "zend_fiber_switch_context(): cannot switch into the "
                      "running fiber context"
                    : "zend_fiber_switch_context(): the fiber context to "
                      "switch to is not initialised or is dead");
    return;
  }

  zend_observer_fiber_switch_notify(from, to);

  VmState state;
  state.Capture();
  to->status = ZEND_FIBER_STATUS_RUNNING;
  if (from->status == ZEND_FIBER_STATUS_RUNNING) {
    from->status = ZEND_FIBER_STATUS_SUSPENDED;
  }
  transfer->context = from;
  EG(current_fiber_context) = to;

  // Both stacks are known in a sanitizer build (the main context has its
  // bookkeeping then); without sanitizers there is nothing to announce.
  const bool announce = from->stack != nullptr && to->stack != nullptr;
  if (announce && from->status == ZEND_FIBER_STATUS_DEAD) {
    StackSwitch::StartExit(to->stack->sanitizers);
  } else if (announce) {
    from->stack->sanitizers.StartSwitch(to->stack->sanitizers);
  }
  const ctx::transfer_t back = ctx::jump_fcontext(to->handle, transfer);

  // The transfer lives on the stack of the context that switched back,
  // which may be freed below.
  *transfer = *static_cast<zend_fiber_transfer*>(back.data);
  to = transfer->context;
  to->handle = back.fctx;
  if (from->stack != nullptr && to->stack != nullptr) {
    from->stack->sanitizers.FinishSwitch(&to->stack->sanitizers);
  }

  EG(current_fiber_context) = from;
  state.Restore();
  if (to->status == ZEND_FIBER_STATUS_DEAD) zend_fiber_destroy_context(to);
}

void zend_fiber_switch_block(void) { switch_block_depth++; }

void zend_fiber_switch_unblock(void) {
  if (switch_block_depth == 0) {
    Warn(
        "zend_fiber_switch_unblock() called without a matching "
        "zend_fiber_switch_block()");
    return;
  }
  switch_block_depth--;
}

bool zend_fiber_switch_blocked(void) { return switch_block_depth > 0; }

// ---- VM stack pages.

void zend_vm_stack_init_ex(size_t page_size) {
  auto page = static_cast<zend_vm_stack>(pemalloc(page_size, 1));
  page->top = ZEND_VM_STACK_ELEMENTS(page);
  page->end =
      reinterpret_cast<zval*>(reinterpret_cast<char*>(page) + page_size);
  page->prev = nullptr;
  EG(vm_stack_page_size) = page_size;
  EG(vm_stack) = page;
  EG(vm_stack_top) = page->top;
  EG(vm_stack_end) = page->end;
}

void zend_vm_stack_init(void) {
  zend_vm_stack_init_ex(ZEND_VM_STACK_PAGE_SIZE);
}

void zend_vm_stack_destroy(void) {
  zend_vm_stack page = EG(vm_stack);
  while (page != nullptr) {
    zend_vm_stack below = page->prev;
    pefree(page, 1);
    page = below;
  }
  EG(vm_stack) = nullptr;
  EG(vm_stack_top) = nullptr;
  EG(vm_stack_end) = nullptr;
  EG(vm_stack_page_size) = 0;
}

}  // extern "C"
