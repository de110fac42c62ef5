// Coroutines through the ABI (coroutines.h).

#include "zend_async_ref/testing/coroutines.h"

#include <utility>

#include "mock_zend/inspect.h"

extern "C" {
#include "zend_async_ref/park.h"
}

namespace zar::testing {
namespace {

// A zend_fcall_t running `callable` (borrowed; the fcall holds its own
// reference), or nullptr when it is not callable.
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

// The running coroutine; from the main flow, the scheduler is launched
// first (the main flow becomes the main coroutine). nullptr when the
// launch failed.
zend_coroutine_t* Current() {
  if (ZEND_ASYNC_CURRENT_COROUTINE == nullptr) ZEND_ASYNC_SCHEDULER_LAUNCH();
  return ZEND_ASYNC_CURRENT_COROUTINE;
}

// Takes the awaited outcome: describes and releases it.
AwaitOutcome Describe(zval* result, zend_object* exception) {
  AwaitOutcome outcome;
  if (exception != nullptr) {
    outcome.error = mock_zend::ClassName(exception) + ": " +
                    mock_zend::ExceptionMessage(exception);
    outcome.error_object = exception;
    OBJ_RELEASE(exception);
  } else {
    outcome.result = mock_zend::Describe(result);
  }
  zval_ptr_dtor(result);
  return outcome;
}

}  // namespace

zend_coroutine_t* Spawn(mock_zend::NativeBody body, zend_async_scope_t* scope,
                        int32_t priority) {
  zend_coroutine_t* coroutine = ZEND_ASYNC_SPAWN_WITH_SCOPE_EX(scope, priority);
  if (coroutine == nullptr) return nullptr;
  zval callable;
  mock_zend::MakeCallable(&callable, std::move(body));
  coroutine->fcall = FcallOf(&callable);
  zval_ptr_dtor(&callable);
  return coroutine;
}

zend_coroutine_t* Spawn(std::function<void()> body, zend_async_scope_t* scope,
                        int32_t priority) {
  return Spawn(mock_zend::NativeBody(
                   [body = std::move(body)](mock_zend::Call&) { body(); }),
               scope, priority);
}

zend_coroutine_t* Spawn(void (*body)(void* arg), void* arg,
                        zend_async_scope_t* scope, int32_t priority) {
  return Spawn(
      mock_zend::NativeBody([body, arg](mock_zend::Call&) { body(arg); }),
      scope, priority);
}

CoroutineRef::CoroutineRef(zend_coroutine_t* coroutine)
    : coroutine_(coroutine) {
  if (coroutine_ != nullptr) ZEND_ASYNC_EVENT_ADD_REF(&coroutine_->event);
}

CoroutineRef::CoroutineRef(CoroutineRef&& other) noexcept
    : coroutine_(std::exchange(other.coroutine_, nullptr)) {}

CoroutineRef& CoroutineRef::operator=(CoroutineRef&& other) noexcept {
  if (this != &other) {
    Reset();
    coroutine_ = std::exchange(other.coroutine_, nullptr);
  }
  return *this;
}

void CoroutineRef::Reset() {
  if (coroutine_ != nullptr) {
    zend_coroutine_t* coroutine = std::exchange(coroutine_, nullptr);
    ZEND_ASYNC_EVENT_RELEASE(&coroutine->event);
  }
}

bool Yield() {
  zend_coroutine_t* self = Current();
  if (self == nullptr) return false;
  ZEND_ASYNC_ENQUEUE_COROUTINE(self);
  return ZEND_ASYNC_SUSPEND();
}

void YieldTimes(int times) {
  for (int i = 0; i < times; i++) Yield();
}

bool YieldUntil(const std::function<bool()>& done, int max_yields) {
  for (int i = 0; i < max_yields && !done(); i++) Yield();
  return done();
}

bool Delay(zend_ulong ms) {
  zend_coroutine_t* self = Current();
  if (self == nullptr) return false;
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(ms, false);
  if (timer == nullptr) return false;
  zend_async_ref_park_t park = {};
  park.events[0] = {&timer->base, zend_async_waker_callback_resolve, nullptr,
                    /*trans_event=*/true};
  return zend_async_ref_park(self, &park);
}

bool WaitFor(zend_async_event_t* event) {
  zend_coroutine_t* self = Current();
  if (self == nullptr) return false;
  zend_async_ref_park_t park = {};
  park.events[0].event = event;
  return zend_async_ref_park(self, &park);
}

namespace {

// The waker callback of WaitForIo on the handle's event. It lives in
// WaitForIo's frame: held by the call (ref_count 1), its dispose only
// counts down; the park's clean of the waker deletes it from the handle's
// event before the frame ends.
struct IoRequestCallback {
  zend_coroutine_event_callback_t base;
  zend_async_io_req_t* req;
};

void ResumeOnIoRequest(zend_async_event_t* event,
                       zend_async_event_callback_t* callback, void* result,
                       zend_object* exception) {
  auto* self = reinterpret_cast<IoRequestCallback*>(callback);
  if (result != nullptr && (result != self->req || !self->req->completed)) {
    return;  // another request of the handle, or a chunk of a multishot
  }
  // The request carries its own outcome; only a close is an exception.
  zend_async_waker_callback_resolve(event, callback, nullptr,
                                    result == nullptr ? exception : nullptr);
}

void CountDown(zend_async_event_callback_t* callback,
               zend_async_event_t* /*event*/) {
  if (callback->ref_count > 0) callback->ref_count--;
}

}  // namespace

bool WaitForIo(zend_async_io_t* io, zend_async_io_req_t* req,
               zend_ulong timeout_ms) {
  if (req->completed) return true;
  zend_coroutine_t* self = Current();
  if (self == nullptr) return false;
  IoRequestCallback callback = {};
  callback.base.base.ref_count = 1;  // this call's
  callback.base.base.callback = ResumeOnIoRequest;
  callback.base.base.dispose = CountDown;
  callback.req = req;
  zend_async_ref_park_t park = {};
  park.events[0] = {&io->event, ResumeOnIoRequest, &callback.base, false};
  park.timeout_ms = timeout_ms;
  return zend_async_ref_park(self, &park);
}

AwaitOutcome Await(zend_coroutine_t* coroutine, zend_ulong timeout_ms) {
  zval result;
  ZVAL_UNDEF(&result);
  if (ZEND_COROUTINE_IS_FINISHED(coroutine)) {
    zend_object* exception = nullptr;
    zend_async_event_t* event = &coroutine->event;
    ZEND_ASYNC_EVENT_EXTRACT_RESULT_OR_ERROR(event, &result, &exception);
    return Describe(&result, exception);
  }

  zend_coroutine_t* self = Current();
  if (self == nullptr) return Describe(&result, mock_zend::TakeException());
  zend_async_ref_park_t park = {};
  park.events[0].event = &coroutine->event;
  park.timeout_ms = timeout_ms;
  park.timeout_callback = zend_async_waker_callback_cancel;
  park.result = &result;
  zend_async_ref_park(self, &park);
  return Describe(&result, mock_zend::TakeException());
}

void Cancel(zend_coroutine_t* coroutine) {
  ZEND_ASYNC_CANCEL(coroutine, nullptr, false);
}

}  // namespace zar::testing
