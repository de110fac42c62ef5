#include "core/reactor/trigger_event.h"

#include "core/reactor/reactor_event.h"
#include "core/reactor/reactor_loop.h"

namespace zar::core::reactor {
namespace {

struct TriggerEvent : EventOf<TriggerEvent> {
  zend_async_trigger_event_t abi;  // ABI structure (must be first)
  EventCore core;
  uv_async_t handle;  // active from creation; ref'd only while started

  static zend_string* Info(zend_async_event_t* event);
};

void OnTrigger(uv_async_t* handle) {
  zend_async_event_t* event = static_cast<EventCore*>(handle->data)->event;
  if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
    return;
  }
  uv_loop_t* loop = handle->loop;
  ZEND_ASYNC_CALLBACKS_NOTIFY(event, nullptr, nullptr);
  StopLoopIfException(loop);
}

// Any thread. uv_async_send is libuv's thread-safe wakeup.
void Trigger(zend_async_trigger_event_t* event) {
  uv_async_send(&TriggerEvent::FromAbi(&event->base)->handle);
}

// The uv_async_t is always active; starting only takes the loop reference
// (Ref), so there is nothing to arm.
int Arm(zend_async_event_t*) { return 0; }
void Disarm(zend_async_event_t*) {}

constexpr EventKind kTriggerKind = {
    .name = "trigger", .arm = Arm, .disarm = Disarm};

zend_string* TriggerEvent::Info(zend_async_event_t*) {
  return zend_string_init(ZEND_STRL("Trigger"), 0);
}

}  // namespace

zend_async_trigger_event_t* NewTriggerEvent(size_t extra_size) {
  uv_loop_t* loop = AcquireLoop();
  if (loop == nullptr) {
    return nullptr;
  }
  TriggerEvent* self = AllocateEvent<TriggerEvent>(extra_size);
  if (!HandleInitialized(uv_async_init(loop, &self->handle, OnTrigger), self,
                         "trigger")) {
    return nullptr;
  }
  self->abi.trigger = Trigger;
  InitCore(&self->core, &kTriggerKind, &self->abi.base,
           reinterpret_cast<uv_handle_t*>(&self->handle));
  return &self->abi;
}

}  // namespace zar::core::reactor
