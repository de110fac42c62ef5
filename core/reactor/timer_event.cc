#include "core/reactor/timer_event.h"

#include <climits>

#include "core/reactor/reactor_event.h"
#include "core/reactor/reactor_loop.h"
#include "core/scheduler/scheduler_trace.h"

namespace zar::core::reactor {
namespace {

struct TimerEvent : EventOf<TimerEvent> {
  zend_async_timer_event_t abi;  // ABI structure (must be first)
  EventCore core;
  uv_timer_t handle;

  static zend_string* Info(zend_async_event_t* event);
};

// ms + ns rounded up to whole milliseconds, saturated at UINT_MAX (the
// width of zend_async_timer_event_t::timeout).
unsigned int TimeoutMs(zend_ulong ms, zend_ulong ns) {
  const zend_ulong ns_as_ms = ns / 1000000 + (ns % 1000000 != 0 ? 1 : 0);
  if (ms > UINT_MAX || ns_as_ms > UINT_MAX - ms) {
    return UINT_MAX;
  }
  return static_cast<unsigned int>(ms + ns_as_ms);
}

void OnTimer(uv_timer_t* handle) {
  auto* self =
      TimerEvent::FromAbi(static_cast<EventCore*>(handle->data)->event);
  zend_async_event_t* event = &self->abi.base;

  if (!self->abi.is_periodic) {
    if (ZEND_ASYNC_TIMER_IS_MULTISHOT(&self->abi)) {
      StopEventCompletely(&self->core);
    } else {
      CloseEvent(&self->core);
    }
  }
  if (ZEND_ASYNC_REF_TRACING()) {
    char token[ZEND_ASYNC_REF_NAME_SIZE];
    TraceTimerFire(EventToken(&self->core, token));
  }
  // `self` may be destroyed by the notification (its memory stays until the
  // close callback): only the loop is used afterwards.
  uv_loop_t* loop = handle->loop;
  ZEND_ASYNC_CALLBACKS_NOTIFY(event, nullptr, nullptr);
  StopLoopIfException(loop);
  EndBlockingPassAfterTimer(loop);
}

int Arm(zend_async_event_t* event) {
  TimerEvent* self = TimerEvent::FromAbi(event);
  // A relative userland timeout (delay, await with a timeout) may be armed
  // after synchronous work that left the loop's cached clock behind: refresh
  // it, or the deadline would already be past. Timers without the flag (I/O
  // deadlines, armed often) keep the cached clock.
  if (ZEND_ASYNC_TIMER_IS_REFRESH_CLOCK(&self->abi)) {
    uv_update_time(self->handle.loop);
  }
  const uint64_t timeout = self->abi.timeout;
  const uint64_t repeat =
      self->abi.is_periodic ? (timeout > 0 ? timeout : 1) : 0;
  if (ZEND_ASYNC_REF_TRACING()) {
    char token[ZEND_ASYNC_REF_NAME_SIZE];
    TraceTimerStart(EventToken(&self->core, token), self->abi.timeout,
                    self->abi.is_periodic);
  }
  return uv_timer_start(&self->handle, OnTimer, timeout, repeat);
}

void Disarm(zend_async_event_t* event) {
  uv_timer_stop(&TimerEvent::FromAbi(event)->handle);
}

constexpr EventKind kTimerKind = {
    .name = "timer", .arm = Arm, .disarm = Disarm};

zend_string* TimerEvent::Info(zend_async_event_t* event) {
  const zend_async_timer_event_t* timer = &FromAbi(event)->abi;
  return zend_strpprintf(0, "Timer(timeout=%ums, %s)", timer->timeout,
                         timer->is_periodic ? "periodic" : "once");
}

}  // namespace

zend_async_timer_event_t* NewTimerEvent(zend_ulong timeout,
                                        zend_ulong nanoseconds,
                                        bool is_periodic, size_t extra_size) {
  uv_loop_t* loop = AcquireLoop();
  if (loop == nullptr) {
    return nullptr;
  }
  TimerEvent* self = AllocateEvent<TimerEvent>(extra_size);
  if (!HandleInitialized(uv_timer_init(loop, &self->handle), self, "timer")) {
    return nullptr;
  }
  self->abi.timeout = TimeoutMs(timeout, nanoseconds);
  self->abi.is_periodic = is_periodic;
  InitCore(&self->core, &kTimerKind, &self->abi.base,
           reinterpret_cast<uv_handle_t*>(&self->handle));
  return &self->abi;
}

bool TimerRearm(zend_async_timer_event_t* event, zend_ulong timeout,
                zend_ulong nanoseconds) {
  if (event == nullptr || ZEND_ASYNC_EVENT_IS_CLOSED(&event->base) ||
      !ZEND_ASYNC_TIMER_IS_MULTISHOT(event)) {
    return false;
  }
  TimerEvent* self = TimerEvent::FromAbi(&event->base);
  if (self->core.destroyed) {
    return false;
  }
  const unsigned int previous = event->timeout;
  event->timeout = TimeoutMs(timeout, nanoseconds);

  // Stopped (never started, stopped, or fired): start it. Running:
  // uv_timer_start on an active timer restarts it in place.
  const int error = event->base.loop_ref_count == 0 ? StartEvent(&self->core)
                                                    : Arm(&event->base);
  if (error != 0) {
    event->timeout = previous;
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to rearm timer handle: %s", uv_strerror(error));
    return false;
  }
  return true;
}

}  // namespace zar::core::reactor
