#include "core/reactor/poll_proxy_event.h"

#include "core/reactor/poll_event.h"
#include "core/reactor/reactor_event.h"
#include "core/reactor/reactor_loop.h"

namespace zar::core::reactor {
namespace {

struct PollProxyEvent : EventOf<PollProxyEvent> {
  zend_async_poll_proxy_t abi;  // ABI structure (must be first)
  EventCore core;
  PollProxyLink link;  // attached to abi.poll_event while started

  static zend_string* Info(zend_async_event_t* event);
};

int Arm(zend_async_event_t* event) {
  return AttachPollProxy(&PollProxyEvent::FromAbi(event)->link);
}

void Disarm(zend_async_event_t* event) {
  DetachPollProxy(&PollProxyEvent::FromAbi(event)->link);
}

// Drops the proxy's reference on the shared poll (which may dispose it).
void Teardown(zend_async_event_t* event) {
  zend_async_poll_event_t* poll =
      PollProxyEvent::FromAbi(event)->abi.poll_event;
  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
}

constexpr EventKind kPollProxyKind = {
    .name = "poll proxy",
    .arm = Arm,
    .disarm = Disarm,
    .teardown = Teardown,
    // As upstream: a proxy's start widens the shared poll's mask.
    .start_failure = "Failed to update poll handle events"};

zend_string* PollProxyEvent::Info(zend_async_event_t* event) {
  const zend_async_poll_proxy_t* proxy = &FromAbi(event)->abi;
  return zend_strpprintf(0, "PollProxy(events=%s%s)",
                         (proxy->events & ASYNC_READABLE) != 0 ? "r" : "",
                         (proxy->events & ASYNC_WRITABLE) != 0 ? "w" : "");
}

}  // namespace

zend_async_poll_proxy_t* NewPollProxyEvent(zend_async_poll_event_t* poll_event,
                                           async_poll_event events,
                                           size_t extra_size) {
  if (AcquireLoop() == nullptr) {
    return nullptr;
  }
  PollProxyEvent* self = AllocateEvent<PollProxyEvent>(extra_size);
  self->abi.poll_event = poll_event;
  self->abi.events = events;
  self->link.proxy = &self->abi;
  ZEND_ASYNC_EVENT_ADD_REF(&poll_event->base);
  InitCore(&self->core, &kPollProxyKind, &self->abi.base, nullptr);
  return &self->abi;
}

}  // namespace zar::core::reactor
