#include "core/reactor/poll_event.h"

#include <unistd.h>

#include <vector>

#include "core/reactor/reactor_event.h"
#include "core/reactor/reactor_loop.h"

namespace zar::core::reactor {
namespace {

// A poll event and the proxies sharing it.
//
// Loop references: loop_ref_count = direct starts + proxy_refs, where
// proxy_refs is the number of attached proxies with holds_poll_ref (all of
// them, until the poll is stopped completely, e.g. closed, which drops
// every reference at once).
struct PollEvent : EventOf<PollEvent> {
  zend_async_poll_event_t abi;  // ABI structure (must be first)
  EventCore core;
  uv_poll_t handle;
  // The poll's own interest while proxies are attached (abi.events then
  // shows the union being watched); restored into abi.events when the last
  // proxy detaches.
  async_poll_event own_events;
  // The mask uv_poll_start was last given; 0 while disarmed.
  int armed_uv_events;
  uint32_t proxy_refs;          // loop references held by attached proxies
  PollProxyLink* proxies_head;  // attached proxies, in attach order
  PollProxyLink* proxies_tail;

  static zend_string* Info(zend_async_event_t* event);
};

// Each poll bit of the ABI with libuv's.
struct PollBit {
  int abi;  // async_poll_event
  int uv;   // uv_poll_event
};
constexpr PollBit kPollBits[] = {{ASYNC_READABLE, UV_READABLE},
                                 {ASYNC_WRITABLE, UV_WRITABLE},
                                 {ASYNC_DISCONNECT, UV_DISCONNECT},
                                 {ASYNC_PRIORITIZED, UV_PRIORITIZED}};

// `bits` of one side (`from`: &PollBit::abi or &PollBit::uv) in the other's
// (`to`).
int MapPollBits(int bits, int PollBit::*from, int PollBit::*to) {
  int mapped = 0;
  for (const PollBit& bit : kPollBits) {
    if ((bits & bit.*from) != 0) mapped |= bit.*to;
  }
  return mapped;
}

int ToUv(async_poll_event events) {
  return MapPollBits(events, &PollBit::abi, &PollBit::uv);
}

async_poll_event FromUv(int uv) {
  return static_cast<async_poll_event>(
      MapPollBits(uv, &PollBit::uv, &PollBit::abi));
}

bool HasProxies(const PollEvent* self) { return self->proxies_head != nullptr; }

uint32_t DirectStarts(const PollEvent* self) {
  const uint32_t refs = self->abi.base.loop_ref_count;
  return refs > self->proxy_refs ? refs - self->proxy_refs : 0;
}

async_poll_event OwnInterest(const PollEvent* self) {
  return HasProxies(self) ? self->own_events : self->abi.events;
}

void OnPoll(uv_poll_t* handle, int status, int uv_events);

int ArmWith(PollEvent* self, int uv_events) {
  const int error = uv_poll_start(&self->handle, uv_events, OnPoll);
  if (error == 0) {
    self->armed_uv_events = uv_events;
  }
  return error;
}

int Arm(zend_async_event_t* event) {
  PollEvent* self = PollEvent::FromAbi(event);
  return ArmWith(self, ToUv(self->abi.events));
}

void Disarm(zend_async_event_t* event) {
  PollEvent* self = PollEvent::FromAbi(event);
  uv_poll_stop(&self->handle);
  self->armed_uv_events = 0;
  // Only reached with no loop reference left: none is held by a proxy.
  for (PollProxyLink* link = self->proxies_head; link != nullptr;
       link = link->next) {
    link->holds_poll_ref = false;
  }
  self->proxy_refs = 0;
}

void Link(PollEvent* self, PollProxyLink* link) {
  link->prev = self->proxies_tail;
  link->next = nullptr;
  if (self->proxies_tail != nullptr) {
    self->proxies_tail->next = link;
  } else {
    self->proxies_head = link;
  }
  self->proxies_tail = link;
  link->attached = true;
}

void Unlink(PollEvent* self, PollProxyLink* link) {
  if (link->prev != nullptr) {
    link->prev->next = link->next;
  } else {
    self->proxies_head = link->next;
  }
  if (link->next != nullptr) {
    link->next->prev = link->prev;
  } else {
    self->proxies_tail = link->prev;
  }
  link->prev = link->next = nullptr;
  link->attached = false;
  if (!HasProxies(self)) {
    self->abi.events = self->own_events;
  }
}

// Recomputes abi.events from the attached proxies and re-arms a started
// poll whose mask changed.
int UpdateInterest(PollEvent* self) {
  if (HasProxies(self)) {
    int events = DirectStarts(self) > 0 ? self->own_events : 0;
    for (PollProxyLink* link = self->proxies_head; link != nullptr;
         link = link->next) {
      events |= link->proxy->events;
    }
    self->abi.events = static_cast<async_poll_event>(events);
  }
  const int uv_events = ToUv(self->abi.events);
  if (self->abi.base.loop_ref_count == 0 ||
      uv_events == self->armed_uv_events) {
    return 0;
  }
  return ArmWith(self, uv_events);
}

void NotifyProxy(PollProxyLink* link, async_poll_event ready,
                 zend_object* exception) {
  zend_async_poll_proxy_t* proxy = link->proxy;
  if (!link->attached ||
      (exception == nullptr && (ready & proxy->events) == 0)) {
    return;
  }
  async_poll_event seen = static_cast<async_poll_event>(ready & proxy->events);
  proxy->triggered_events = seen;
  ZEND_ASYNC_CALLBACKS_NOTIFY(&proxy->base, &seen, exception);
}

void OnPoll(uv_poll_t* handle, int status, int uv_events) {
  PollEvent* self =
      PollEvent::FromAbi(static_cast<EventCore*>(handle->data)->event);
  zend_async_event_t* event = &self->abi.base;
  uv_loop_t* loop = handle->loop;

  zend_object* exception = nullptr;
  async_poll_event ready = FromUv(status < 0 ? 0 : uv_events);
  if (status == UV_EBADF) {
    ready = ASYNC_DISCONNECT;
  } else if (status < 0) {
    exception =
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT,
                                 "Input output error: %s", uv_strerror(status));
  }
  self->abi.triggered_events = ready;

  // The callbacks may stop, detach or release anything: hold the poll and
  // every proxy attached now until the walk is over.
  ZEND_ASYNC_EVENT_ADD_REF(event);
  std::vector<PollProxyLink*> proxies;
  for (PollProxyLink* link = self->proxies_head; link != nullptr;
       link = link->next) {
    ZEND_ASYNC_EVENT_ADD_REF(&link->proxy->base);
    proxies.push_back(link);
  }

  if (DirectStarts(self) > 0 &&
      (exception != nullptr || (ready & OwnInterest(self)) != 0)) {
    async_poll_event seen = ready;
    ZEND_ASYNC_CALLBACKS_NOTIFY(event, &seen, exception);
  }
  for (PollProxyLink* link : proxies) {
    if (EG(exception) != nullptr) {
      break;
    }
    NotifyProxy(link, ready, exception);
  }

  for (PollProxyLink* link : proxies) {
    ZEND_ASYNC_EVENT_RELEASE(&link->proxy->base);
  }
  if (exception != nullptr) {
    OBJ_RELEASE(exception);
  }
  ZEND_ASYNC_EVENT_RELEASE(event);
  StopLoopIfException(loop);
}

void Closed(zend_async_event_t* event) {
  PollEvent* self = PollEvent::FromAbi(event);
  if (!ZEND_ASYNC_EVENT_SHOULD_CLOSE_FD(event)) {
    return;
  }
  close(self->abi.is_socket ? self->abi.socket : self->abi.file);
}

// A direct start or stop while proxies are attached adds or removes the
// poll's own interest. Narrowing or widening a live mask cannot fail in
// practice; if it did, the previous mask would stay armed.
void RefsChanged(zend_async_event_t* event) {
  (void)UpdateInterest(PollEvent::FromAbi(event));
}

constexpr EventKind kPollKind = {.name = "poll",
                                 .arm = Arm,
                                 .disarm = Disarm,
                                 .closed = Closed,
                                 .refs_changed = RefsChanged};

zend_string* PollEvent::Info(zend_async_event_t* event) {
  const zend_async_poll_event_t* poll = &FromAbi(event)->abi;
  const char* readable = (poll->events & ASYNC_READABLE) != 0 ? "r" : "";
  const char* writable = (poll->events & ASYNC_WRITABLE) != 0 ? "w" : "";
  if (poll->is_socket) {
    return zend_strpprintf(0, "Poll(socket=" ZEND_LONG_FMT ", events=%s%s)",
                           static_cast<zend_long>(poll->socket), readable,
                           writable);
  }
  return zend_strpprintf(0, "Poll(fd=" ZEND_LONG_FMT ", events=%s%s)",
                         static_cast<zend_long>(poll->file), readable,
                         writable);
}

}  // namespace

zend_async_poll_event_t* NewPollEvent(zend_file_descriptor_t fh,
                                      zend_socket_t socket,
                                      async_poll_event events,
                                      size_t extra_size) {
  uv_loop_t* loop = AcquireLoop();
  if (loop == nullptr) {
    return nullptr;
  }
  PollEvent* self = AllocateEvent<PollEvent>(extra_size);
  int error;
  if (socket != 0 && socket != ZEND_FD_NULL) {
    self->abi.is_socket = true;
    self->abi.socket = socket;
    error = uv_poll_init_socket(loop, &self->handle, socket);
  } else if (fh != ZEND_FD_NULL) {
    self->abi.is_socket = false;
    self->abi.file = fh;
    error = uv_poll_init(loop, &self->handle, fh);
  } else {
    error = UV_EBADF;
  }
  if (!HandleInitialized(error, self, "poll")) {
    return nullptr;
  }
  self->abi.events = events;
  InitCore(&self->core, &kPollKind, &self->abi.base,
           reinterpret_cast<uv_handle_t*>(&self->handle));
  return &self->abi;
}

zend_async_poll_event_t* NewSocketEvent(zend_socket_t socket,
                                        async_poll_event events,
                                        size_t extra_size) {
  return NewPollEvent(ZEND_FD_NULL, socket, events, extra_size);
}

int AttachPollProxy(PollProxyLink* link) {
  PollEvent* self = PollEvent::FromAbi(&link->proxy->poll_event->base);
  if (self->core.destroyed || ZEND_ASYNC_EVENT_IS_CLOSED(&self->abi.base)) {
    return kEventClosed;
  }
  if (!HasProxies(self)) {
    self->own_events = self->abi.events;
  }
  Link(self, link);

  // Widen first, so that a first start arms with the proxy's interest.
  int error = UpdateInterest(self);
  if (error == 0) {
    error = StartEvent(&self->core);
  }
  if (error != 0) {
    Unlink(self, link);
    (void)UpdateInterest(self);
    return error;
  }
  link->holds_poll_ref = true;
  self->proxy_refs++;
  // StartEvent counted the new reference as a direct start: recount.
  (void)UpdateInterest(self);
  return 0;
}

void DetachPollProxy(PollProxyLink* link) {
  if (!link->attached) {
    return;
  }
  PollEvent* self = PollEvent::FromAbi(&link->proxy->poll_event->base);
  Unlink(self, link);
  if (link->holds_poll_ref) {
    link->holds_poll_ref = false;
    self->proxy_refs--;
    StopEvent(&self->core);  // retunes (RefsChanged) or disarms
  } else {
    (void)UpdateInterest(self);
  }
}

}  // namespace zar::core::reactor
