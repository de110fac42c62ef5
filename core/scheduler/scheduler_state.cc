// The scheduler's per-request state: the coroutine table, the fiber pool,
// and tearing it all down (which trims the stack cache, stack_cache.h).

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/fiber/fiber_stack.h"
#include "core/fiber/stack_cache.h"
#include "core/scheduler/scheduler.h"
#include "core/scheduler/scope.h"

extern "C" {
#include "Zend/zend_exceptions.h"
}

namespace zar::core {
namespace internal {
SchedulerState* current_state = nullptr;

namespace {

// Lets go of coroutines that are still live when the state is destroyed
// before the scheduler drained (a request that ends abnormally).
void AbandonCoroutines(SchedulerState* s) {
  std::vector<AsyncCoroutine*> left;
  zval* coroutine_zv;
  ZEND_HASH_FOREACH_VAL(&s->coroutines, coroutine_zv) {
    AsyncCoroutine* coroutine =
        static_cast<AsyncCoroutine*>(Z_PTR_P(coroutine_zv));
    left.push_back(coroutine);
  }
  ZEND_HASH_FOREACH_END();
  for (AsyncCoroutine* co : left) {
    // A stack reserved for a coroutine that never ran holds nothing.
    if (co->fiber != nullptr && !ZEND_COROUTINE_IS_STARTED(&co->coroutine)) {
      Fiber::Delete(co->fiber);
    }
    co->fiber = nullptr;
    ZEND_ASYNC_WAKER_DESTROY(&co->coroutine);
    UnregisterCoroutine(s, co);
    ScopeRemoveCoroutine(co);
    ReleaseCoroutine(co);
  }
}

}  // namespace

SchedulerState* CreateState() {
  current_state = new SchedulerState();
  zend_hash_init(&current_state->coroutines, 8, nullptr, nullptr, 0);
  return current_state;
}

void RegisterCoroutine(SchedulerState* s, AsyncCoroutine* coroutine) {
  zend_hash_index_add_ptr(&s->coroutines, coroutine->std.handle, coroutine);
  coroutine->registered = true;
  if (!ZEND_COROUTINE_IS_ZOMBIE(&coroutine->coroutine)) {
    ZEND_ASYNC_INCREASE_COROUTINE_COUNT
  }
}

void UnregisterCoroutine(SchedulerState* s, AsyncCoroutine* coroutine) {
  if (!coroutine->registered) return;
  zend_hash_index_del(&s->coroutines, coroutine->std.handle);
  coroutine->registered = false;
  if (!ZEND_COROUTINE_IS_ZOMBIE(&coroutine->coroutine)) {
    ZEND_ASYNC_DECREASE_COROUTINE_COUNT
  }
}

std::vector<zend_object*> HoldRegisteredCoroutines(SchedulerState* s) {
  std::vector<zend_object*> held;
  held.reserve(zend_hash_num_elements(&s->coroutines));
  zval* coroutine_zv;
  ZEND_HASH_FOREACH_VAL(&s->coroutines, coroutine_zv) {
    auto* coroutine = static_cast<AsyncCoroutine*>(Z_PTR_P(coroutine_zv));
    GC_ADDREF(&coroutine->std);
    held.push_back(&coroutine->std);
  }
  ZEND_HASH_FOREACH_END();
  return held;
}

Fiber* TakeFiber(SchedulerState* s) {
  if (s->idle_count != 0) return s->idle_fibers[--s->idle_count];
  StackFailure failure;
  Fiber* fiber = Fiber::New(&WorkerFiberBody, DefaultStackSize(), &failure);
  if (UNEXPECTED(fiber == nullptr)) {
    zend_throw_exception(nullptr, StackFailureMessage(failure).c_str(), 0);
  }
  return fiber;
}

void ReturnFiber(SchedulerState* s, Fiber* fiber) {
  if (!ParkFiber(s, fiber)) Fiber::Delete(fiber);
}

bool AssignFiber(SchedulerState* s, AsyncCoroutine* coroutine) {
  Fiber* fiber = TakeFiber(s);
  if (fiber == nullptr) return false;
  fiber->data = coroutine;
  coroutine->fiber = fiber;
  return true;
}

bool ParkFiber(SchedulerState* s, Fiber* fiber) {
  fiber->data = nullptr;
  if (s->idle_count == kFiberPoolSize) return false;
  s->idle_fibers[s->idle_count++] = fiber;
  return true;
}

void ReleaseCoroutine(AsyncCoroutine* coroutine) {
  OBJ_RELEASE(&coroutine->std);
}

void DestroyState() {
  SchedulerState* s = current_state;
  if (s == nullptr) return;

  AbandonCoroutines(s);
  while (!s->microtasks.empty()) {
    zend_async_microtask_t* microtask = s->microtasks.PopFront();
    ZEND_ASYNC_MICROTASK_RELEASE(microtask);
  }
  s->run_queue.Clear();

  while (s->idle_count != 0) Fiber::Delete(s->idle_fibers[--s->idle_count]);
  if (s->scheduler_fiber != nullptr) {
    Fiber::Delete(s->scheduler_fiber);
    s->scheduler_fiber = nullptr;
  }

  if (s->scheduler != nullptr) {
    AsyncCoroutine* scheduler = s->scheduler;
    s->scheduler = nullptr;
    ZEND_ASYNC_SCHEDULER = nullptr;
    scheduler->fiber = nullptr;
    ScopeRemoveCoroutine(scheduler);
    ReleaseCoroutine(scheduler);
  }
  if (s->scheduler_scope != nullptr) {
    DisposeOwnedScope(s->scheduler_scope);
    s->scheduler_scope = nullptr;
  }
  if (ZEND_ASYNC_MAIN_SCOPE != nullptr) {
    zend_async_scope_t* main_scope = ZEND_ASYNC_MAIN_SCOPE;
    ZEND_ASYNC_MAIN_SCOPE = nullptr;
    DisposeOwnedScope(main_scope);
  }
  zend_hash_destroy(&s->coroutines);

  ZEND_ASYNC_SCHEDULER = nullptr;
  ZEND_ASYNC_CURRENT_COROUTINE = nullptr;
  ZEND_ASYNC_MAIN_COROUTINE = nullptr;
  ZEND_ASYNC_SCHEDULER_CONTEXT = false;
  ZEND_ASYNC_GRACEFUL_SHUTDOWN = false;

  if (s->thread_fiber != nullptr) Fiber::Delete(s->thread_fiber);
  Fiber::ClearCurrent();
  delete s;
  current_state = nullptr;
  // Stacks beyond the cache's bound give their memory back now.
  if (StackCache* cache = StackCache::ForThread()) cache->Trim();
}

}  // namespace internal

void ReleaseRequestState() {
  internal::DestroyState();
  if (ZEND_ASYNC_MAIN_SCOPE != nullptr) {
    zend_async_scope_t* main_scope = ZEND_ASYNC_MAIN_SCOPE;
    ZEND_ASYNC_MAIN_SCOPE = nullptr;
    DisposeOwnedScope(main_scope);
  }
  if (ZEND_ASYNC_EXIT_EXCEPTION != nullptr) {
    zend_object* exit_exception = ZEND_ASYNC_EXIT_EXCEPTION;
    ZEND_ASYNC_EXIT_EXCEPTION = nullptr;
    OBJ_RELEASE(exit_exception);
  }
  ZEND_ASYNC_ACTIVE_COROUTINE_COUNT = 0;
}

}  // namespace zar::core
