#include "core/io/listen_event.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/internal/trace_text.h"
#include "core/reactor/reactor_event.h"
#include "core/reactor/reactor_loop.h"

namespace zar::core::io {
namespace {

using reactor::EventCore;

struct ListenEvent;

// The loop pass that delivers a held connection after a resume. A libuv
// handle of its own, allocated apart from the event: libuv finishes closes
// newest first, so a second handle inside the event's block would still be
// in libuv's closing queue when the event's own close callback frees the
// block. `owner` is NULL once the listener is gone; the close callback
// frees the tick.
struct DeliveryTick {
  uv_idle_t idle;
  ListenEvent* owner;
};

// A listening socket. libuv drives AF_UNIX sockets through uv_pipe_t and TCP
// ones through uv_tcp_t; both are streams, so listen and accept treat them
// alike and only creation and get_local_address tell them apart.
struct ListenEvent : reactor::EventOf<ListenEvent> {
  zend_async_listen_event_t abi;  // ABI structure (must be first)
  EventCore core;
  union {
    uv_tcp_t tcp;
    uv_pipe_t pipe;
  } handle;
  bool is_unix;
  // uv_listen ran (the first start). libuv cannot stop listening: a pause
  // only stops taking connections from it.
  bool listening;
  // libuv took a connection off the backlog while the listener was paused
  // and keeps it (the stream's accepted_fd) until uv_accept; it watches the
  // socket no more until then.
  bool holding;
  DeliveryTick* tick;  // NULL until the first resume with a held connection

  static ListenEvent* FromStream(uv_stream_t* stream) {
    return FromAbi(static_cast<EventCore*>(stream->data)->event);
  }
  static zend_string* Info(zend_async_event_t* event);

  uv_stream_t* Stream() { return reinterpret_cast<uv_stream_t*>(&handle); }
  uv_handle_t* Handle() { return reinterpret_cast<uv_handle_t*>(&handle); }
  bool Started() const { return abi.base.loop_ref_count > 0; }
};

const char* OrNull(const char* text) {
  return text != nullptr ? text : "<null>";
}

// ---- Trace lines (docs/tracing.md) ------------------------------------------

[[gnu::cold]] void TraceListen(ListenEvent* self, const char* what) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace("listen %s %s", what,
                       reactor::EventToken(&self->core, token));
}

[[gnu::cold]] void TraceStart(ListenEvent* self) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace("listen start %s (backlog=%d)",
                       reactor::EventToken(&self->core, token),
                       self->abi.backlog);
}

[[gnu::cold]] void TraceAccept(ListenEvent* self, zend_object* exception,
                               bool closed) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  reactor::EventToken(&self->core, token);
  if (exception != nullptr) {
    zend_async_ref_trace("listen accept %s -> %s", token,
                         core::internal::ExceptionText<160>(exception).text);
  } else if (closed) {
    zend_async_ref_trace("listen accept %s -> closed (no callback)", token);
  } else {
    zend_async_ref_trace("listen accept %s", token);
  }
}

// ---- Accepting
// ---------------------------------------------------------------

void FreeOnClose(uv_handle_t* handle) { efree(handle->data); }

// Takes the connection libuv holds: uv_accept into a client handle of the
// listener's type, then a close-on-exec dup of its socket, which survives
// the client handle's close. Returns 0 with *client set, or a libuv error.
int TakeConnection(ListenEvent* self, zend_socket_t* client) {
  self->holding = false;
  uv_loop_t* loop = self->Handle()->loop;
  auto* handle = static_cast<uv_handle_t*>(
      emalloc(self->is_unix ? sizeof(uv_pipe_t) : sizeof(uv_tcp_t)));
  int error = self->is_unix
                  ? uv_pipe_init(loop, reinterpret_cast<uv_pipe_t*>(handle), 0)
                  : uv_tcp_init(loop, reinterpret_cast<uv_tcp_t*>(handle));
  if (error < 0) {
    efree(handle);
    return error;
  }
  error = uv_accept(self->Stream(), reinterpret_cast<uv_stream_t*>(handle));
  uv_os_fd_t fd;
  if (error == 0) {
    error = uv_fileno(handle, &fd);
  }
  if (error == 0) {
    const int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (copy < 0) {
      error = uv_translate_sys_error(errno);
    } else {
      *client = copy;
    }
  }
  // Also closes the accepted socket (the dup stays open).
  handle->data = handle;
  uv_close(handle, FreeOnClose);
  return error;
}

// Notifies the callbacks of one connection (`client`, or -1 with
// `exception`). The callbacks may stop or dispose the listener: it is held
// until they are done.
void Notify(ListenEvent* self, zend_socket_t client, zend_object* exception) {
  zend_async_event_t* event = &self->abi.base;
  uv_loop_t* loop = self->Handle()->loop;
  const bool nobody = event->callbacks.length == 0;
  if (ZEND_ASYNC_REF_TRACING()) {
    TraceAccept(self, exception, nobody && client >= 0);
  }
  if (nobody) {
    if (client >= 0) close(client);
  } else {
    ZEND_ASYNC_EVENT_ADD_REF(event);
    zend_socket_t result = client;
    ZEND_ASYNC_CALLBACKS_NOTIFY(event, &result, exception);
    ZEND_ASYNC_EVENT_RELEASE(event);
  }
  if (exception != nullptr) {
    OBJ_RELEASE(exception);
  }
  reactor::StopLoopIfException(loop);
}

void Deliver(ListenEvent* self) {
  zend_socket_t client = ZEND_FD_NULL;
  const int error = TakeConnection(self, &client);
  zend_object* exception = nullptr;
  if (error < 0) {
    exception = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT,
                                         "Failed to accept connection: %s",
                                         uv_strerror(error));
  }
  Notify(self, client, exception);
}

void OnConnection(uv_stream_t* server, int status) {
  ListenEvent* self = ListenEvent::FromStream(server);
  if (self->core.destroyed) {
    return;
  }
  if (status < 0) {
    // Nobody is told of a failure while paused.
    if (self->Started()) {
      Notify(self, ZEND_FD_NULL,
             zend_async_new_exception(ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT,
                                      "Connection accept error: %s",
                                      uv_strerror(status)));
    }
    return;
  }
  if (!self->Started()) {
    // Paused: leave the connection with libuv, which stops watching the
    // socket until it is taken.
    self->holding = true;
    if (ZEND_ASYNC_REF_TRACING()) TraceListen(self, "hold");
    return;
  }
  Deliver(self);
}

void OnTick(uv_idle_t* idle) {
  auto* tick = static_cast<DeliveryTick*>(idle->data);
  uv_idle_stop(idle);
  ListenEvent* self = tick->owner;
  // A pause since the resume wins: the connection stays held.
  if (self != nullptr && self->holding && self->Started()) {
    Deliver(self);
  }
}

int ScheduleDelivery(ListenEvent* self) {
  if (self->tick == nullptr) {
    auto* tick = static_cast<DeliveryTick*>(emalloc(sizeof(DeliveryTick)));
    const int error = uv_idle_init(self->Handle()->loop, &tick->idle);
    if (error < 0) {
      efree(tick);
      return error;
    }
    tick->idle.data = tick;
    tick->owner = self;
    // The started listener keeps the loop alive; a pending idle handle
    // only makes the next pass poll without blocking.
    uv_unref(reinterpret_cast<uv_handle_t*>(&tick->idle));
    self->tick = tick;
  }
  return uv_idle_start(&self->tick->idle, OnTick);
}

// ---- The event kind
// ------------------------------------------------------------

int Arm(zend_async_event_t* event) {
  ListenEvent* self = ListenEvent::FromAbi(event);
  if (!self->listening) {
    const int error =
        uv_listen(self->Stream(), self->abi.backlog, OnConnection);
    if (error < 0) {
      return error;
    }
    self->listening = true;
    if (ZEND_ASYNC_REF_TRACING()) TraceStart(self);
    return 0;
  }
  if (ZEND_ASYNC_REF_TRACING()) TraceListen(self, "resume");
  return self->holding ? ScheduleDelivery(self) : 0;
}

void Disarm(zend_async_event_t* event) {
  ListenEvent* self = ListenEvent::FromAbi(event);
  if (self->tick != nullptr) {
    uv_idle_stop(&self->tick->idle);
  }
  if (ZEND_ASYNC_REF_TRACING()) TraceListen(self, "pause");
}

void Teardown(zend_async_event_t* event) {
  ListenEvent* self = ListenEvent::FromAbi(event);
  if (self->abi.host != nullptr) {
    efree(const_cast<char*>(self->abi.host));
    self->abi.host = nullptr;
  }
  if (self->tick != nullptr) {
    self->tick->owner = nullptr;
    uv_close(reinterpret_cast<uv_handle_t*>(&self->tick->idle), FreeOnClose);
    self->tick = nullptr;
  }
  // The handle's close (next) closes the socket and a held connection.
}

constexpr reactor::EventKind kListenKind = {
    .name = "listen", .arm = Arm, .disarm = Disarm, .teardown = Teardown};

zend_string* ListenEvent::Info(zend_async_event_t* event) {
  const zend_async_listen_event_t* listen = &FromAbi(event)->abi;
  return zend_strpprintf(0, "Listen(host=%s, port=%d)", OrNull(listen->host),
                         listen->port);
}

// start(): the reactor's transition, with this group's message.
bool Start(zend_async_event_t* event) {
  const int error = reactor::StartEvent(&ListenEvent::FromAbi(event)->core);
  if (error < 0) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to start listening: %s", uv_strerror(error));
  }
  return error == 0;
}

int GetLocalAddress(zend_async_listen_event_t* listen_event, char* host,
                    size_t host_len, int* port) {
  ListenEvent* self = ListenEvent::FromAbi(&listen_event->base);
  if (self->is_unix) {
    // No port; the host is the bound path.
    if (port != nullptr) *port = 0;
    if (host != nullptr && host_len > 0) {
      // Room for the terminating NUL, which libuv may not write.
      size_t length = host_len - 1;
      const int error = uv_pipe_getsockname(&self->handle.pipe, host, &length);
      if (error < 0) return error;
      host[length] = '\0';
    }
    return 0;
  }
  sockaddr_storage address;
  int length = sizeof(address);
  const int error = uv_tcp_getsockname(
      &self->handle.tcp, reinterpret_cast<sockaddr*>(&address), &length);
  if (error < 0) return error;
  const bool v4 = address.ss_family == AF_INET;
  if (!v4 && address.ss_family != AF_INET6) return UV_EAFNOSUPPORT;
  if (port != nullptr) {
    *port =
        ntohs(v4 ? reinterpret_cast<const sockaddr_in*>(&address)->sin_port
                 : reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port);
  }
  if (host != nullptr && host_len > 0) {
    // Either family: libuv's uv_ip_name reads it from the address.
    return uv_ip_name(reinterpret_cast<const sockaddr*>(&address), host,
                      host_len);
  }
  return 0;
}

// ---- Creation
// ------------------------------------------------------------------

// A handle that was initialised but whose event is not made: libuv needs
// the memory until the close callback, which frees it.
void DiscardHandle(ListenEvent* self) {
  self->Handle()->data = self;
  uv_close(self->Handle(), FreeOnClose);
}

// Fills what both functions share and links the event in.
zend_async_listen_event_t* Finish(ListenEvent* self, int backlog,
                                  zend_socket_t fd) {
  self->abi.backlog = backlog;
  self->abi.socket_fd = fd;
  self->abi.get_local_address = GetLocalAddress;
  self->abi.base.start = Start;
  reactor::InitCore(&self->core, &kListenKind, &self->abi.base, self->Handle());
  return &self->abi;
}

// SO_REUSEPORT must be set before bind: the socket is made here rather
// than by uv_tcp_bind. Returns 0 or a libuv error.
int OpenReusePortSocket(uv_tcp_t* tcp, int family) {
  const int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return uv_translate_sys_error(errno);
  const int on = 1;
  int error = 0;
  if (setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on)) != 0) {
    error = uv_translate_sys_error(errno);
  } else {
    error = uv_tcp_open(tcp, fd);
  }
  if (error < 0) close(fd);
  return error;
}

int ParseAddress(const char* host, int port, sockaddr_storage* address) {
  if (host == nullptr || port < 0 || port > 65535) return UV_EINVAL;
  if (strchr(host, ':') != nullptr) {
    return uv_ip6_addr(host, port, reinterpret_cast<sockaddr_in6*>(address));
  }
  return uv_ip4_addr(host, port, reinterpret_cast<sockaddr_in*>(address));
}

// Binds a TCP listener. Returns false with Async\AsyncException thrown (the
// handle is then discarded).
bool BindTcp(ListenEvent* self, const char* host, int port, uint32_t flags) {
  uv_tcp_t* tcp = &self->handle.tcp;
  // Accepted connections inherit TCP_NODELAY from the listening socket.
  uv_tcp_nodelay(tcp, 1);

  sockaddr_storage address;
  std::memset(&address, 0, sizeof(address));
  int error = ParseAddress(host, port, &address);
  if (error < 0) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to parse address %s:%d: %s", OrNull(host), port,
                     uv_strerror(error));
    return false;
  }
  if ((flags & ZEND_ASYNC_LISTEN_F_REUSEPORT) != 0) {
    error = OpenReusePortSocket(tcp, address.ss_family);
  }
  if (error == 0) {
    const unsigned int bind_flags =
        (flags & ZEND_ASYNC_LISTEN_F_IPV6ONLY) != 0 ? UV_TCP_IPV6ONLY : 0;
    error = uv_tcp_bind(tcp, reinterpret_cast<sockaddr*>(&address), bind_flags);
  }
  if (error < 0) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to bind to %s:%d: %s", host, port,
                     uv_strerror(error));
    return false;
  }
  return true;
}

}  // namespace

zend_async_listen_event_t* Listen(const char* host, int port, int backlog,
                                  uint32_t flags, size_t extra_size) {
  uv_loop_t* loop = reactor::AcquireLoop();
  if (loop == nullptr) {
    return nullptr;
  }
  ListenEvent* self = reactor::AllocateEvent<ListenEvent>(extra_size);
  self->is_unix = (flags & ZEND_ASYNC_LISTEN_F_UNIX) != 0;

  if (self->is_unix) {
    if (!reactor::HandleInitialized(uv_pipe_init(loop, &self->handle.pipe, 0),
                                    self, "pipe")) {
      return nullptr;
    }
    const int error =
        host != nullptr ? uv_pipe_bind(&self->handle.pipe, host) : UV_EINVAL;
    if (error < 0) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Failed to bind AF_UNIX socket %s: %s", OrNull(host),
                       uv_strerror(error));
      DiscardHandle(self);
      return nullptr;
    }
  } else {
    if (!reactor::HandleInitialized(uv_tcp_init(loop, &self->handle.tcp), self,
                                    "TCP")) {
      return nullptr;
    }
    if (!BindTcp(self, host, port, flags)) {
      DiscardHandle(self);
      return nullptr;
    }
  }

  uv_os_fd_t fd;
  const int error = uv_fileno(self->Handle(), &fd);
  if (error < 0) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to get socket descriptor: %s", uv_strerror(error));
    DiscardHandle(self);
    return nullptr;
  }
  self->abi.host = estrdup(host);
  self->abi.port = port;
  return Finish(self, backlog, fd);
}

zend_async_listen_event_t* ListenFd(zend_socket_t fd, int backlog,
                                    uint32_t flags, size_t extra_size) {
  uv_loop_t* loop = reactor::AcquireLoop();
  if (loop == nullptr) {
    if (fd >= 0) close(fd);
    return nullptr;
  }
  ListenEvent* self = reactor::AllocateEvent<ListenEvent>(extra_size);
  self->is_unix = (flags & ZEND_ASYNC_LISTEN_F_UNIX) != 0;

  int error = self->is_unix ? uv_pipe_init(loop, &self->handle.pipe, 0)
                            : uv_tcp_init(loop, &self->handle.tcp);
  if (error < 0) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to initialize handle: %s", uv_strerror(error));
    efree(self);
    if (fd >= 0) close(fd);
    return nullptr;
  }
  // On success the handle owns fd; on failure it does not.
  error = self->is_unix ? uv_pipe_open(&self->handle.pipe, fd)
                        : uv_tcp_open(&self->handle.tcp, fd);
  if (error < 0) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to adopt listening socket fd: %s",
                     uv_strerror(error));
    if (fd >= 0) close(fd);
    DiscardHandle(self);
    return nullptr;
  }
  self->abi.host = nullptr;
  self->abi.port = 0;
  return Finish(self, backlog, fd);
}

}  // namespace zar::core::io
