// Launching the scheduler: READY -> ACTIVE, on the first spawn (or
// suspend, or enqueue of the current coroutine, or ZEND_ASYNC_SCHEDULER_INIT).
//
// The running main flow becomes the main coroutine (F_MAIN, STARTED), on
// the thread stack; the scheduler coroutine gets its own fiber in a fresh
// scope. Both scopes are pinned: the scheduler disposes them itself.

extern "C" {
#include "Zend/zend_exceptions.h"
}

#include "core/fiber/fiber_stack.h"
#include "core/scheduler/scheduler.h"
#include "core/scheduler/scope.h"

namespace zar::core {
namespace {

using internal::SchedulerState;

// Creates the main coroutine from the running flow and makes it current.
// As upstream's scheduler launch, the main coroutine belongs to the main
// scope (coroutine->scope) without being one of its members: it is never
// enqueued, so before_coroutine_enqueue does not run for it, and a scope
// cancelling its members does not cancel the main flow.
bool AdoptMainFlow(SchedulerState* s, zend_async_scope_t* scope) {
  zend_coroutine_t* main = NewCoroutine(scope);
  if (main == nullptr) return false;
  scope->after_coroutine_enqueue(main, scope);

  AsyncCoroutine* self = AsyncCoroutine::FromAbi(main);
  ZEND_COROUTINE_SET_STARTED(main);
  ZEND_COROUTINE_SET_MAIN(main);
  ApplyCurrentLocation(&main->filename, &main->lineno);
  self->fiber = s->thread_fiber;
  s->thread_fiber->data = self;
  s->main = self;
  internal::RegisterCoroutine(s, self);
  ZEND_ASYNC_MAIN_COROUTINE = main;
  ZEND_ASYNC_CURRENT_COROUTINE = main;
  return EG(exception) == nullptr;
}

// Creates the scheduler coroutine, its scope and its fiber.
bool CreateSchedulerCoroutine(SchedulerState* s) {
  StackFailure failure;
  s->scheduler_fiber =
      Fiber::New(&internal::SchedulerFiberBody, DefaultStackSize(), &failure);
  if (s->scheduler_fiber == nullptr) {
    zend_throw_exception(nullptr, StackFailureMessage(failure).c_str(), 0);
    return false;
  }
  zend_async_scope_t* scope = NewScope(nullptr, false);
  ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(scope);
  s->scheduler_scope = scope;

  zend_coroutine_t* scheduler = NewCoroutine(scope);
  if (scheduler == nullptr) return false;
  zval options;
  ZVAL_UNDEF(&options);
  scope->before_coroutine_enqueue(scheduler, scope, &options);
  zval_ptr_dtor(&options);
  scope->after_coroutine_enqueue(scheduler, scope);

  AsyncCoroutine* self = AsyncCoroutine::FromAbi(scheduler);
  self->fiber = s->scheduler_fiber;
  s->scheduler_fiber->data = self;
  s->scheduler = self;
  ZEND_ASYNC_SCHEDULER = scheduler;
  return EG(exception) == nullptr;
}

}  // namespace

bool Launch() {
  if (ZEND_ASYNC_SCHEDULER != nullptr || internal::State() != nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "The scheduler cannot be started when is already enabled");
    return false;
  }
  if (!zend_async_reactor_is_enabled()) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "The scheduler cannot be started without the Reactor");
    return false;
  }
  if (!ZEND_ASYNC_REACTOR_STARTUP()) return false;

  SchedulerState* s = internal::CreateState();
  s->thread_fiber = Fiber::ForThread();

  if (ZEND_ASYNC_MAIN_SCOPE == nullptr) {
    ZEND_ASYNC_MAIN_SCOPE = NewScope(nullptr, false);
  }
  ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(ZEND_ASYNC_MAIN_SCOPE);

  if (!AdoptMainFlow(s, ZEND_ASYNC_MAIN_SCOPE) ||
      !CreateSchedulerCoroutine(s)) {
    internal::DestroyState();
    return false;
  }

  ZEND_ASYNC_ACTIVATE;
  if (ZEND_ASYNC_REF_TRACING()) TraceLaunch();
  return zend_async_call_main_coroutine_start_handlers(&s->main->coroutine);
}

}  // namespace zar::core
