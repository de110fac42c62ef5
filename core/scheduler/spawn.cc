// Spawning: a new coroutine in a scope, queued to run.

#include "core/scheduler/async_classes.h"
#include "core/scheduler/scheduler.h"
#include "core/scheduler/scope.h"

namespace zar::core {
namespace {

using internal::SchedulerState;

// The scope an Async\ScopeProvider provides (its provideScope() method).
zend_async_scope_t* ProvideScope(zend_object* provider) {
  zval result;
  ZVAL_UNDEF(&result);
  zend_string* method = zend_string_init("provideScope", 12, 0);
  const zend_result called =
      zend_call_method_if_exists(provider, method, &result, 0, nullptr);
  zend_string_release(method);
  if (EG(exception) != nullptr) {
    zval_ptr_dtor(&result);
    return nullptr;
  }
  zend_class_entry* scope_ce = GetClassCe(ZEND_ASYNC_CLASS_SCOPE);
  zend_async_scope_t* scope = nullptr;
  if (called == SUCCESS && Z_TYPE(result) == IS_OBJECT && scope_ce != nullptr &&
      instanceof_function(Z_OBJCE(result), scope_ce)) {
    scope = ScopeFromObject(Z_OBJ(result));
  }
  zval_ptr_dtor(&result);
  if (scope == nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Scope provider must return an instance of Async\\Scope");
  }
  return scope;
}

// Resolves the scope a spawn uses (see scheduler.h); NULL with an exception.
zend_async_scope_t* ResolveScope(SchedulerState* s, zend_async_scope_t* scope,
                                 zend_object* provider) {
  if (scope == nullptr && provider != nullptr) {
    scope = ProvideScope(provider);
    if (scope == nullptr) return nullptr;
  }
  if (scope == nullptr) scope = ZEND_ASYNC_CURRENT_SCOPE;
  if (scope == nullptr) scope = ZEND_ASYNC_MAIN_SCOPE;
  // Upstream's refusals, in its order (php-async async_API.c, spawn()).
  if (UNEXPECTED(scope == nullptr)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Cannot spawn a coroutine without a scope");
    return nullptr;
  }
  if (UNEXPECTED(ZEND_ASYNC_SCOPE_IS_CLOSED(scope))) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Cannot spawn a coroutine in a closed scope");
    return nullptr;
  }
  if (UNEXPECTED(scope == s->scheduler_scope)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "You cannot use the Scheduler scope to create coroutines");
    return nullptr;
  }
  return scope;
}

// The internal entry of a spawn_and_throw coroutine.
void ThrowOnStart() {
  AsyncCoroutine* self = AsyncCoroutine::FromAbi(ZEND_ASYNC_CURRENT_COROUTINE);
  zend_object* exception = self->throw_on_start;
  self->throw_on_start = nullptr;
  if (exception != nullptr) zend_throw_exception_internal(exception);
}

}  // namespace

zend_coroutine_t* Spawn(zend_async_scope_t* scope, zend_object* scope_provider,
                        int32_t priority) {
  if (UNEXPECTED(ZEND_ASYNC_IS_OFF)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Cannot spawn a coroutine when async is disabled");
    return nullptr;
  }
  if (internal::State() == nullptr && (!Launch() || EG(exception) != nullptr)) {
    return nullptr;
  }
  SchedulerState* s = internal::State();

  scope = ResolveScope(s, scope, scope_provider);
  if (scope == nullptr) return nullptr;

  // The coroutine's stack is reserved now, so that a process out of
  // memory mappings (vm.max_map_count) or memory fails here, in the
  // spawner, and not later in the scheduler, where nobody could catch it.
  // In a burst (kSpawnReservationWindow coroutines already runnable) the
  // stack is left to the first run, as before reservations: most such
  // coroutines start on the fiber a finished one leaves, and one that finds
  // no stack then finishes with the failure as its own result.
  Fiber* fiber = nullptr;
  if (s->run_queue.size() < internal::kSpawnReservationWindow) {
    fiber = internal::TakeFiber(s);
    if (UNEXPECTED(fiber == nullptr)) return nullptr;
  }

  zend_coroutine_t* coroutine = NewCoroutine(scope);
  if (coroutine == nullptr) {
    if (fiber != nullptr) internal::ReturnFiber(s, fiber);
    return nullptr;
  }
  ApplyCurrentLocation(&coroutine->filename, &coroutine->lineno);

  zval options;
  ZVAL_UNDEF(&options);
  const bool accepted =
      scope->before_coroutine_enqueue(coroutine, scope, &options);
  zval_ptr_dtor(&options);
  if (!accepted || EG(exception) != nullptr) {
    if (fiber != nullptr) internal::ReturnFiber(s, fiber);
    OBJ_RELEASE(&AsyncCoroutine::FromAbi(coroutine)->std);
    return nullptr;
  }

  AsyncCoroutine* self = AsyncCoroutine::FromAbi(coroutine);
  self->spawn_site = __builtin_return_address(0);
  if (fiber != nullptr) {
    fiber->data = self;
    self->fiber = fiber;
  }
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(coroutine);
  waker->status = ZEND_ASYNC_WAKER_QUEUED;
  internal::PushRunnable(s, self, /*front=*/priority > 0);
  internal::RegisterCoroutine(s, self);
  if (ZEND_ASYNC_REF_TRACING()) TraceSpawn(coroutine);

  scope->after_coroutine_enqueue(coroutine, scope);
  if (UNEXPECTED(EG(exception) != nullptr)) {
    // Queued already: it is finalized, unrun, when dequeued.
    waker->status = ZEND_ASYNC_WAKER_IGNORED;
    return nullptr;
  }
  return coroutine;
}

bool SpawnAndThrow(zend_object* exception, zend_async_scope_t* scope,
                   int32_t priority) {
  zend_coroutine_t* coroutine = Spawn(scope, nullptr, priority);
  if (coroutine == nullptr) return false;
  GC_ADDREF(exception);
  AsyncCoroutine::FromAbi(coroutine)->throw_on_start = exception;
  coroutine->internal_entry = ThrowOnStart;
  return true;
}

}  // namespace zar::core
