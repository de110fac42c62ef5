#include "core/reactor/signal_event.h"

#include "core/reactor/reactor_event.h"
#include "core/reactor/reactor_loop.h"

namespace zar::core::reactor {
namespace {

struct SignalEvent : EventOf<SignalEvent> {
  zend_async_signal_event_t abi;  // ABI structure (must be first)
  EventCore core;
  uv_signal_t handle;

  static zend_string* Info(zend_async_event_t* event);
};

void OnSignal(uv_signal_t* handle, int signum) {
  zend_async_event_t* event = static_cast<EventCore*>(handle->data)->event;
  uv_loop_t* loop = handle->loop;
  int delivered = signum;
  ZEND_ASYNC_CALLBACKS_NOTIFY(event, &delivered, nullptr);
  StopLoopIfException(loop);
}

int Arm(zend_async_event_t* event) {
  SignalEvent* self = SignalEvent::FromAbi(event);
  return uv_signal_start(&self->handle, OnSignal, self->abi.signal);
}

void Disarm(zend_async_event_t* event) {
  uv_signal_stop(&SignalEvent::FromAbi(event)->handle);
}

constexpr EventKind kSignalKind = {
    .name = "signal", .arm = Arm, .disarm = Disarm};

zend_string* SignalEvent::Info(zend_async_event_t* event) {
  return zend_strpprintf(0, "Signal(signum=%d)", FromAbi(event)->abi.signal);
}

}  // namespace

zend_async_signal_event_t* NewSignalEvent(int signum, size_t extra_size) {
  uv_loop_t* loop = AcquireLoop();
  if (loop == nullptr) {
    return nullptr;
  }
  SignalEvent* self = AllocateEvent<SignalEvent>(extra_size);
  if (!HandleInitialized(uv_signal_init(loop, &self->handle), self, "signal")) {
    return nullptr;
  }
  self->abi.signal = signum;
  InitCore(&self->core, &kSignalKind, &self->abi.base,
           reinterpret_cast<uv_handle_t*>(&self->handle));
  return &self->abi;
}

}  // namespace zar::core::reactor
