#include "core/reactor/dns_event.h"

#include "core/internal/release.h"
#include "core/reactor/reactor_event.h"
#include "core/reactor/reactor_loop.h"

namespace zar::core::reactor {
namespace {

struct AddrInfoEvent : EventOf<AddrInfoEvent> {
  zend_async_dns_addrinfo_t abi;  // ABI structure (must be first)
  EventCore core;
  uv_getaddrinfo_t request;  // runs from creation until OnAddrInfo

  static zend_string* Info(zend_async_event_t* event);
};

struct NameInfoEvent : EventOf<NameInfoEvent> {
  zend_async_dns_nameinfo_t abi;  // ABI structure (must be first)
  EventCore core;
  uv_getnameinfo_t request;  // runs from creation until OnNameInfo

  static zend_string* Info(zend_async_event_t* event);
};

// ---- Tracing (cold: only with tracing on) -----------------------------------

[[gnu::cold]] void TraceLookup(EventCore* core) {
  zend_async_ref_trace("dns lookup %s", EventName(core).c_str());
}

[[gnu::cold]] void TraceAnswer(EventCore* core, int status, size_t addresses) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  if (status < 0) {
    zend_async_ref_trace("dns answer %s -> DNS error: %s",
                         EventToken(core, token), uv_strerror(status));
  } else {
    zend_async_ref_trace("dns answer %s -> %zu address(es)",
                         EventToken(core, token), addresses);
  }
}

// ---- The event kinds ------------------------------------------------------

// The lookup runs from creation: starting only takes the loop reference
// (Ref), so there is nothing to arm.
int Arm(zend_async_event_t*) { return 0; }
void Disarm(zend_async_event_t*) {}

// A lookup still owed its answer is cancelled: one not yet running in
// libuv's thread pool answers UV_ECANCELED at once, a running one
// finishes unseen. Either way the answer frees the memory (EndRequest).
void CancelIfRunning(EventCore* core, uv_req_t* request) {
  if (core->owed_callbacks > 0) {
    uv_cancel(request);
  }
}

void TeardownAddrInfo(zend_async_event_t* event) {
  AddrInfoEvent* self = AddrInfoEvent::FromAbi(event);
  CancelIfRunning(&self->core, reinterpret_cast<uv_req_t*>(&self->request));
  zend_async_dns_addrinfo_t* abi = &self->abi;
  if (abi->result != nullptr) {
    uv_freeaddrinfo(abi->result);
    abi->result = nullptr;
  }
  if (abi->node != nullptr) {
    efree(const_cast<char*>(abi->node));
    abi->node = nullptr;
  }
  if (abi->service != nullptr) {
    efree(const_cast<char*>(abi->service));
    abi->service = nullptr;
  }
}

void TeardownNameInfo(zend_async_event_t* event) {
  NameInfoEvent* self = NameInfoEvent::FromAbi(event);
  CancelIfRunning(&self->core, reinterpret_cast<uv_req_t*>(&self->request));
  zend_async_dns_nameinfo_t* abi = &self->abi;
  core::internal::ReleaseAndClear(abi->hostname);
  core::internal::ReleaseAndClear(abi->service);
}

constexpr EventKind kAddrInfoKind = {.name = "DNS addr info",
                                     .arm = Arm,
                                     .disarm = Disarm,
                                     .teardown = TeardownAddrInfo};

constexpr EventKind kNameInfoKind = {.name = "DNS name info",
                                     .arm = Arm,
                                     .disarm = Disarm,
                                     .teardown = TeardownNameInfo};

zend_string* AddrInfoEvent::Info(zend_async_event_t* event) {
  const zend_async_dns_addrinfo_t* abi = &FromAbi(event)->abi;
  return zend_strpprintf(0, "DNSAddrInfo(node=%s, service=%s)",
                         abi->node != nullptr ? abi->node : "<null>",
                         abi->service != nullptr ? abi->service : "<null>");
}

zend_string* NameInfoEvent::Info(zend_async_event_t*) {
  return zend_string_init(ZEND_STRL("DNSNameInfo"), 0);
}

char* CopyOrNull(const char* text) {
  return text != nullptr ? estrdup(text) : nullptr;
}

// ---- Completion
// --------------------------------------------------------------

// The lookup is over: closes the event (a lookup answers once) and notifies
// its callbacks with the answer or the DnsException. The callbacks may
// release the event, so nothing of it is touched after the notification.
void Answer(EventCore* core, uv_loop_t* loop, int status) {
  zend_async_event_t* event = core->event;
  CloseEvent(core);
  zend_object* exception = nullptr;
  if (status < 0) {
    exception = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DNS,
                                         "DNS error: %s", uv_strerror(status));
  }
  ZEND_ASYNC_CALLBACKS_NOTIFY(event, nullptr, exception);
  if (exception != nullptr) {
    OBJ_RELEASE(exception);
  }
  StopLoopIfException(loop);
}

void OnAddrInfo(uv_getaddrinfo_t* request, int status, struct addrinfo* res) {
  auto* core = static_cast<EventCore*>(request->data);
  if (!EndRequest(core)) {
    // Disposed while it ran: nobody is left to take the answer.
    if (res != nullptr) uv_freeaddrinfo(res);
    return;
  }
  if (status < 0 && res != nullptr) {
    uv_freeaddrinfo(res);
    res = nullptr;
  }
  AddrInfoEvent::FromAbi(core->event)->abi.result = res;
  if (ZEND_ASYNC_REF_TRACING()) {
    size_t addresses = 0;
    for (const struct addrinfo* ai = res; ai != nullptr; ai = ai->ai_next) {
      addresses++;
    }
    TraceAnswer(core, status, addresses);
  }
  Answer(core, request->loop, status);
}

void OnNameInfo(uv_getnameinfo_t* request, int status, const char* hostname,
                const char* service) {
  auto* core = static_cast<EventCore*>(request->data);
  if (!EndRequest(core)) {
    return;
  }
  zend_async_dns_nameinfo_t* abi = &NameInfoEvent::FromAbi(core->event)->abi;
  // libuv's strings live in the request: the event keeps its own copies.
  if (status >= 0 && hostname != nullptr) {
    abi->hostname = zend_string_init(hostname, strlen(hostname), 0);
  }
  if (status >= 0 && service != nullptr) {
    abi->service = zend_string_init(service, strlen(service), 0);
  }
  if (ZEND_ASYNC_REF_TRACING()) {
    TraceAnswer(core, status, abi->hostname != nullptr ? 1 : 0);
  }
  Answer(core, request->loop, status);
}

}  // namespace

zend_async_dns_addrinfo_t* GetAddrInfo(const char* node, const char* service,
                                       const struct addrinfo* hints,
                                       size_t extra_size) {
  uv_loop_t* loop = AcquireLoop();
  if (loop == nullptr) {
    return nullptr;
  }
  AddrInfoEvent* self = AllocateEvent<AddrInfoEvent>(extra_size);
  if (!HandleInitialized(uv_getaddrinfo(loop, &self->request, OnAddrInfo, node,
                                        service, hints),
                         self, "getaddrinfo", ZEND_ASYNC_EXCEPTION_DNS)) {
    return nullptr;
  }
  self->abi.node = CopyOrNull(node);
  self->abi.service = CopyOrNull(service);
  InitCore(&self->core, &kAddrInfoKind, &self->abi.base, nullptr);
  self->request.data = &self->core;
  BeginRequest(&self->core);
  if (ZEND_ASYNC_REF_TRACING()) TraceLookup(&self->core);
  return &self->abi;
}

zend_async_dns_nameinfo_t* GetNameInfo(const struct sockaddr* addr, int flags,
                                       size_t extra_size) {
  uv_loop_t* loop = AcquireLoop();
  if (loop == nullptr) {
    return nullptr;
  }
  NameInfoEvent* self = AllocateEvent<NameInfoEvent>(extra_size);
  // libuv refuses a NULL address or a family other than AF_INET/AF_INET6
  // with UV_EINVAL.
  if (!HandleInitialized(
          uv_getnameinfo(loop, &self->request, OnNameInfo, addr, flags), self,
          "getnameinfo", ZEND_ASYNC_EXCEPTION_DNS)) {
    return nullptr;
  }
  InitCore(&self->core, &kNameInfoKind, &self->abi.base, nullptr);
  self->request.data = &self->core;
  BeginRequest(&self->core);
  if (ZEND_ASYNC_REF_TRACING()) TraceLookup(&self->core);
  return &self->abi;
}

bool FreeAddrInfo(struct addrinfo* ai) {
  if (ai != nullptr) {
    uv_freeaddrinfo(ai);
  }
  return true;
}

}  // namespace zar::core::reactor
