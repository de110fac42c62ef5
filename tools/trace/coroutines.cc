// Coroutines for scenarios and tests (coroutines.h).

#include "tools/trace/coroutines.h"

#include <utility>

#include "mock_zend/callable.h"

namespace zar::trace {
namespace {

zend_fcall_t* FcallOf(zval* callable) {
  zend_fcall_info fci;
  zend_fcall_info_cache fcc;
  if (zend_fcall_info_init(callable, 0, &fci, &fcc, nullptr, nullptr) !=
      SUCCESS) {
    return nullptr;
  }
  zval* no_args = nullptr;
  uint32_t no_arg_count = 0;
  HashTable* no_named_args = nullptr;
  ZEND_ASYNC_FCALL_DEFINE(fcall, fci, fcc, no_args, no_arg_count,
                          no_named_args);
  return fcall;
}

// The running coroutine, launching the scheduler from the main flow.
zend_coroutine_t* Self() {
  if (ZEND_ASYNC_CURRENT_COROUTINE == nullptr) ZEND_ASYNC_SCHEDULER_LAUNCH();
  return ZEND_ASYNC_CURRENT_COROUTINE;
}

// Suspends `self` until one of its waker's events fires.
void Wait(zend_coroutine_t* self) {
  ZEND_ASYNC_SUSPEND();
  if (self->waker != nullptr) zend_async_waker_clean(self);
}

}  // namespace

zend_coroutine_t* Spawn(std::function<void()> body) {
  zend_coroutine_t* coroutine = ZEND_ASYNC_SPAWN();
  if (coroutine == nullptr) return nullptr;
  zval callable;
  mock_zend::MakeCallable(
      &callable, [body = std::move(body)](mock_zend::Call&) { body(); });
  coroutine->fcall = FcallOf(&callable);
  zval_ptr_dtor(&callable);
  return coroutine;
}

CoroutineRef::CoroutineRef(zend_coroutine_t* coroutine)
    : coroutine_(coroutine) {
  if (coroutine_ != nullptr) ZEND_ASYNC_EVENT_ADD_REF(&coroutine_->event);
}

CoroutineRef::~CoroutineRef() {
  if (coroutine_ != nullptr) ZEND_ASYNC_EVENT_RELEASE(&coroutine_->event);
}

void Yield() {
  zend_coroutine_t* self = Self();
  if (self == nullptr) return;
  ZEND_ASYNC_WAKER_NEW(self);
  ZEND_ASYNC_ENQUEUE_COROUTINE(self);
  Wait(self);
}

void Delay(uint32_t ms) {
  zend_coroutine_t* self = Self();
  if (self == nullptr) return;
  ZEND_ASYNC_WAKER_NEW(self);
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(ms, false);
  if (timer == nullptr) return;
  zend_async_resume_when(self, &timer->base, true,
                         zend_async_waker_callback_resolve, nullptr);
  Wait(self);
}

void Await(zend_coroutine_t* coroutine) {
  zend_coroutine_t* self = Self();
  if (self == nullptr || ZEND_COROUTINE_IS_FINISHED(coroutine)) return;
  ZEND_ASYNC_WAKER_NEW(self);
  zend_async_resume_when(self, &coroutine->event, false,
                         zend_async_waker_callback_resolve, nullptr);
  Wait(self);
  DropException();
}

bool DropException() {
  const bool had = EG(exception) != nullptr;
  zend_clear_exception();
  return had;
}

}  // namespace zar::trace
