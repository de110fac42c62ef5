#include "core/io/io_handle.h"

#include <unistd.h>

#include <cstring>

#include "core/internal/trace_text.h"
#include "core/reactor/reactor_loop.h"

namespace zar::core::io {
namespace {

using reactor::EventCore;

const char* TypeName(zend_async_io_type type) {
  switch (type) {
    case ZEND_ASYNC_IO_TYPE_PIPE:
      return "pipe";
    case ZEND_ASYNC_IO_TYPE_FILE:
      return "file";
    case ZEND_ASYNC_IO_TYPE_TCP:
      return "tcp";
    case ZEND_ASYNC_IO_TYPE_UDP:
      return "udp";
    case ZEND_ASYNC_IO_TYPE_TTY:
      return "tty";
  }
  return "unknown";
}

bool HasUvHandle(zend_async_io_type type) {
  return type != ZEND_ASYNC_IO_TYPE_FILE;
}

// ---- Tracing (cold: only with tracing on) -----------------------------------

[[gnu::cold]] void TraceCreate(EventCore* core) {
  zend_async_ref_trace("io create %s", reactor::EventName(core).c_str());
}

[[gnu::cold]] void TraceClose(EventCore* core) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace("io close %s", reactor::EventToken(core, token));
}

// ---- The event kind ---------------------------------------------------------

// Reads are armed by read(), not by start(): start only takes the loop
// reference.
int Arm(zend_async_event_t*) { return 0; }
void Disarm(zend_async_event_t*) {}

// Stops the stream read or UDP receive in flight and detaches it (its
// owner still disposes it).
void StopActive(IoHandle* io) {
  if (io->active == nullptr) {
    return;  // reading merely armed stops at its first idle wake-up
  }
  if (io->reading) {
    uv_read_stop(&io->handle.stream);
    io->reading = false;
  }
  if ((io->abi.state & ZEND_ASYNC_IO_CLOSED) == 0 &&
      io->abi.type == ZEND_ASYNC_IO_TYPE_UDP) {
    uv_udp_recv_stop(&io->handle.udp);
  }
  io->active = nullptr;
}

// Tells the owner once that the handle goes (on_detach).
void Detach(IoHandle* io) {
  if (io->abi.on_detach != nullptr) {
    auto on_detach = io->abi.on_detach;
    io->abi.on_detach = nullptr;
    on_detach(&io->abi, io->abi.on_detach_arg);
  }
}

// What the last reference leaves: the owner is told (on_detach), the
// descriptor closed, the request still attached and the queued file
// writes disposed. Runs from dispose() and from the request's end
// (reactor::ShutdownAllEvents); idempotent.
void Teardown(zend_async_event_t* event) {
  IoHandle* io = IoHandle::FromAbi(event);
  Detach(io);
  CloseHandle(&io->abi);
  if (io->active != nullptr) {
    void* active = io->active;
    io->active = nullptr;
    if (io->abi.type == ZEND_ASYNC_IO_TYPE_UDP) {
      auto* req = static_cast<zend_async_udp_req_t*>(active);
      req->dispose(req);
    } else {
      auto* req = static_cast<zend_async_io_req_t*>(active);
      req->dispose(req);
    }
  }
  while (io->write_queue_head != nullptr) {
    IoRequest* req = io->write_queue_head;
    io->write_queue_head = req->queue_next;
    req->queue_next = nullptr;
    req->abi.dispose(&req->abi);
  }
  io->write_queue_tail = nullptr;
}

constexpr reactor::EventKind kIoKind = {
    .name = "IO", .arm = Arm, .disarm = Disarm, .teardown = Teardown};

// stop(): also cancels the read in flight, started or not (a multishot
// read is stopped through the event).
bool StopIo(zend_async_event_t* event) {
  StopActive(IoHandle::FromAbi(event));
  return reactor::StopEvent(&IoHandle::FromAbi(event)->core);
}

// dispose(): the last reference closes the handle while its listeners are
// still there to be woken, then destroys the event.
bool DisposeIo(zend_async_event_t* event) {
  if (ZEND_ASYNC_EVENT_REFCOUNT(event) > 1) {
    ZEND_ASYNC_EVENT_DEL_REF(event);
    return true;
  }
  IoHandle* io = IoHandle::FromAbi(event);
  if (io->core.destroyed) {
    return true;
  }
  Detach(io);
  // close() wakes the listeners, and the notification holds and drops a
  // reference of its own: a guard reference keeps that release from
  // disposing the handle under this call. A listener that took a reference
  // keeps the handle alive.
  ZEND_ASYNC_EVENT_ADD_REF(event);
  CloseHandle(&io->abi);
  if (ZEND_ASYNC_EVENT_DEL_REF(event) > 0) {
    return true;
  }
  reactor::Destroy(&io->core);
  return true;
}

// A handle of `type` with its event set up, before libuv sees it.
IoHandle* Allocate(zend_async_io_type type, uint32_t state, size_t extra_size) {
  IoHandle* io = reactor::AllocateEvent<IoHandle>(extra_size);
  io->abi.event.stop = StopIo;
  io->abi.event.dispose = DisposeIo;
  io->abi.type = type;
  io->abi.state = state;
  io->fd = -1;
  io->orig_fd = -1;
  return io;
}

// Links the handle into the reactor (its uv handle, when it has one, is
// already initialised).
void Register(IoHandle* io) {
  uv_handle_t* handle = HasUvHandle(io->abi.type)
                            ? reinterpret_cast<uv_handle_t*>(&io->handle)
                            : nullptr;
  reactor::InitCore(&io->core, &kIoKind, &io->abi.event, handle);
  if (ZEND_ASYNC_REF_TRACING()) TraceCreate(&io->core);
}

// A handle libuv refused after its uv handle was initialised: closed
// through the reactor (the memory goes with the close callback).
void Abandon(IoHandle* io) {
  io->abi.state |= ZEND_ASYNC_IO_CLOSED;
  Register(io);
  reactor::Destroy(&io->core);
}

// The handle closed under request `req` (an IoRequest or a UdpRequest):
// it completes with nothing transferred, io_closed, and no longer knows
// the handle.
template <typename Request>
void EndWithHandle(Request* req) {
  req->abi.io_closed = true;
  req->abi.completed = true;
  req->abi.transferred = 0;
  req->io = nullptr;
}

}  // namespace

zend_string* IoHandle::Info(zend_async_event_t* event) {
  const zend_async_io_t* io = &FromAbi(event)->abi;
  if (io->type == ZEND_ASYNC_IO_TYPE_TCP ||
      io->type == ZEND_ASYNC_IO_TYPE_UDP) {
    return zend_strpprintf(0, "IO(type=%s, socket=" ZEND_LONG_FMT ")",
                           TypeName(io->type),
                           static_cast<zend_long>(io->descriptor.socket));
  }
  return zend_strpprintf(0, "IO(type=%s, fd=" ZEND_LONG_FMT ")",
                         TypeName(io->type),
                         static_cast<zend_long>(io->descriptor.fd));
}

zend_async_io_t* CreateHandle(zend_file_descriptor_t fd,
                              zend_async_io_type type, uint32_t state) {
  uv_loop_t* loop = reactor::AcquireLoop();
  if (loop == nullptr) {
    return nullptr;
  }
  // libuv closes a stream's descriptor with the handle (and refuses to
  // close 0..2): a stdio descriptor is handed over as a copy.
  int own_fd = fd;
  int orig_fd = -1;
  if (ZEND_ASYNC_IO_IS_STREAM(type) && fd >= 0 && fd <= STDERR_FILENO) {
    own_fd = dup(fd);
    if (own_fd < 0) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Failed to duplicate descriptor %d: %s", fd,
                       strerror(errno));
      return nullptr;
    }
    orig_fd = fd;
  }

  IoHandle* io = Allocate(type, state, 0);
  io->fd = own_fd;
  io->orig_fd = orig_fd;
  if (type == ZEND_ASYNC_IO_TYPE_TCP || type == ZEND_ASYNC_IO_TYPE_UDP) {
    io->abi.descriptor.socket = own_fd;
  } else {
    io->abi.descriptor.fd = own_fd;
  }

  // Initialisation failures free the block at once; failures after it
  // (open) go through uv_close. Either way a dup'd copy is closed here,
  // the caller's descriptor is left alone.
  auto refuse_before_init = [&](const char* what, int error) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "Failed to %s: %s", what,
                     uv_strerror(error));
    if (orig_fd >= 0) close(own_fd);
    efree(io);
    return nullptr;
  };
  auto refuse_after_init = [&](const char* what, int error) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "Failed to %s: %s", what,
                     uv_strerror(error));
    if (orig_fd >= 0) close(own_fd);
    io->orig_fd = -1;
    Abandon(io);
    return nullptr;
  };

  switch (type) {
    case ZEND_ASYNC_IO_TYPE_PIPE: {
      int error = uv_pipe_init(loop, &io->handle.pipe, 0);
      if (error < 0) return refuse_before_init("initialize pipe handle", error);
      error = uv_pipe_open(&io->handle.pipe, own_fd);
      if (error < 0) return refuse_after_init("open pipe handle", error);
      break;
    }
    case ZEND_ASYNC_IO_TYPE_TTY: {
      const int readable = (state & ZEND_ASYNC_IO_READABLE) != 0 ? 1 : 0;
      const int error = uv_tty_init(loop, &io->handle.tty, own_fd, readable);
      if (error < 0) return refuse_before_init("initialize TTY handle", error);
      break;
    }
    case ZEND_ASYNC_IO_TYPE_TCP: {
      int error = uv_tcp_init(loop, &io->handle.tcp);
      if (error < 0) return refuse_before_init("initialize TCP handle", error);
      error = uv_tcp_open(&io->handle.tcp, own_fd);
      if (error < 0) return refuse_after_init("open TCP handle", error);
      break;
    }
    case ZEND_ASYNC_IO_TYPE_UDP: {
      int error = uv_udp_init(loop, &io->handle.udp);
      if (error < 0) return refuse_before_init("initialize UDP handle", error);
      if (own_fd >= 0) {
        error = uv_udp_open(&io->handle.udp, own_fd);
        if (error < 0) return refuse_after_init("open UDP handle", error);
      }
      break;
    }
    case ZEND_ASYNC_IO_TYPE_FILE: {
      // APPEND: writes go to the end; the descriptor's own position is
      // put back at 0, as open(O_APPEND) leaves it.
      if ((state & ZEND_ASYNC_IO_APPEND) != 0) {
        const off_t end = lseek(own_fd, 0, SEEK_END);
        io->file_offset = end >= 0 ? end : 0;
        lseek(own_fd, 0, SEEK_SET);
      } else {
        const off_t position = lseek(own_fd, 0, SEEK_CUR);
        io->file_offset = position >= 0 ? position : 0;
      }
      break;
    }
  }
  Register(io);
  return &io->abi;
}

IoHandle* NewUdpHandle(size_t extra_size) {
  uv_loop_t* loop = reactor::AcquireLoop();
  if (loop == nullptr) {
    return nullptr;
  }
  IoHandle* io =
      Allocate(ZEND_ASYNC_IO_TYPE_UDP,
               ZEND_ASYNC_IO_READABLE | ZEND_ASYNC_IO_WRITABLE, extra_size);
  if (!reactor::HandleInitialized(uv_udp_init(loop, &io->handle.udp), io,
                                  "UDP")) {
    return nullptr;
  }
  Register(io);
  return io;
}

bool CloseHandle(zend_async_io_t* abi) {
  IoHandle* io = IoHandle::FromIo(abi);
  if ((abi->state & ZEND_ASYNC_IO_CLOSED) != 0) {
    return true;
  }
  abi->state |= ZEND_ASYNC_IO_CLOSED;
  if (ZEND_ASYNC_REF_TRACING()) TraceClose(&io->core);

  // Listeners (a coroutine parked on a read, a connection's reader) are
  // woken: the read in flight completes empty, marked io_closed, and is
  // detached (its owner disposes it).
  if (abi->event.callbacks.length > 0) {
    if (io->active != nullptr) {
      if (abi->type == ZEND_ASYNC_IO_TYPE_UDP) {
        EndWithHandle(UdpRequest::FromAbi(
            static_cast<zend_async_udp_req_t*>(io->active)));
      } else {
        EndWithHandle(
            IoRequest::FromAbi(static_cast<zend_async_io_req_t*>(io->active)));
      }
      io->active = nullptr;
    }
    abi->state |= ZEND_ASYNC_IO_EOF;
    zend_object* exception = zend_async_new_exception(
        ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT, "Stream was closed");
    ZEND_ASYNC_CALLBACKS_NOTIFY(&abi->event, nullptr, exception);
    OBJ_RELEASE(exception);
  }

  if (HasUvHandle(abi->type)) {
    if (io->reading) {
      uv_read_stop(&io->handle.stream);
      io->reading = false;
    }
    reactor::CloseHandleEarly(&io->core);
  } else if (io->fd >= 0 && (abi->state & ZEND_ASYNC_IO_OWNS_FD) != 0) {
    close(io->fd);
    io->fd = -1;
  }
  if (io->orig_fd >= 0 && (abi->state & ZEND_ASYNC_IO_PRESERVE_FD) == 0) {
    close(io->orig_fd);
  }
  io->orig_fd = -1;
  return true;
}

namespace {

[[gnu::cold]] void TraceDone(IoHandle* io, const char* op, ssize_t result,
                             zend_object* exception) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  reactor::EventToken(&io->core, token);
  if (exception != nullptr) {
    zend_async_ref_trace("io done %s %s -> %s", token, op,
                         core::internal::ExceptionText<160>(exception).text);
  } else {
    zend_async_ref_trace("io done %s %s -> %zd", token, op, result);
  }
}

// The broadcast: a listener may dispose the request (and with it the
// exception) while another still forwards the exception, so it is held.
void Broadcast(IoHandle* io, void* result, zend_object* exception) {
  uv_loop_t* loop = reactor::AcquireLoop();
  if (exception != nullptr) GC_ADDREF(exception);
  ZEND_ASYNC_CALLBACKS_NOTIFY(&io->abi.event, result, exception);
  if (exception != nullptr) OBJ_RELEASE(exception);
  if (loop != nullptr) reactor::StopLoopIfException(loop);
}

}  // namespace

void NotifyRequest(IoHandle* io, IoRequest* req) {
  if (ZEND_ASYNC_REF_TRACING()) {
    TraceDone(io, req->op, req->abi.result, req->abi.exception);
  }
  Broadcast(io, &req->abi, req->abi.exception);
}

void NotifyRequest(IoHandle* io, UdpRequest* req) {
  if (ZEND_ASYNC_REF_TRACING()) {
    TraceDone(io, req->op, req->abi.transferred, req->abi.exception);
  }
  Broadcast(io, &req->abi, req->abi.exception);
}

void NotifyAwaited(IoHandle* io, IoRequest* req) {
  if (ZEND_ASYNC_REF_TRACING()) {
    TraceDone(io, req->op, req->abi.result, req->abi.exception);
  }
  Broadcast(io, &req->abi, nullptr);
}

void NotifyHandle(IoHandle* io, zend_object* exception) {
  if (ZEND_ASYNC_REF_TRACING()) TraceDone(io, "open", 0, exception);
  Broadcast(io, nullptr, exception);
}

void TraceSubmit(IoHandle* io, const char* op, size_t bytes) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace("io %s %s %zu byte(s)", op,
                       reactor::EventToken(&io->core, token), bytes);
}

void PinForOperation(IoHandle* io, bool counted) {
  ZEND_ASYNC_EVENT_ADD_REF(&io->abi.event);
  if (counted) ZEND_ASYNC_INCREASE_EVENT_COUNT(&io->abi.event);
  reactor::BeginRequest(&io->core);
}

void UnpinAfterOperation(IoHandle* io, bool counted) {
  if (counted) ZEND_ASYNC_DECREASE_EVENT_COUNT(&io->abi.event);
  if (!reactor::EndRequest(&io->core)) {
    return;  // destroyed at the request's end: the memory went with it
  }
  io->abi.event.dispose(&io->abi.event);
}

void ForgetRequest(IoHandle* io, const void* req) {
  if (io->active == req) {
    StopActive(io);
  }
}

void UnqueueWrite(IoHandle* io, IoRequest* req) {
  IoRequest** link = &io->write_queue_head;
  IoRequest* previous = nullptr;
  while (*link != nullptr && *link != req) {
    previous = *link;
    link = &(*link)->queue_next;
  }
  if (*link == req) {
    *link = req->queue_next;
    if (io->write_queue_tail == req) io->write_queue_tail = previous;
  }
  req->queue_next = nullptr;
}

}  // namespace zar::core::io
