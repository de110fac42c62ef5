#include "core/io/stream_io.h"

#include <alloca.h>

namespace zar::core::io {
namespace {

IoHandle* FromUvHandle(uv_handle_t* handle) {
  auto* core = static_cast<reactor::EventCore*>(handle->data);
  return IoHandle::FromAbi(core->event);
}

// ---- Read -------------------------------------------------------------------

void AllocChunk(uv_handle_t* handle, size_t suggested, uv_buf_t* out) {
  IoHandle* io = FromUvHandle(handle);
  if (io->active == nullptr) {
    out->base = nullptr;  // nobody to deliver to: read nothing
    out->len = 0;
    return;
  }
  if (io->abi.alloc_cb != nullptr) {
    zend_async_buf_t chunk = {nullptr, 0};
    io->abi.alloc_cb(&io->abi, suggested, &chunk);
    out->base = chunk.base;
    out->len = chunk.len;
    return;
  }
  auto* req = static_cast<zend_async_io_req_t*>(io->active);
  if (req->buf == nullptr) {
    out->base = nullptr;
    out->len = 0;
    return;
  }
  out->base = req->buf;
  out->len = IoRequest::FromAbi(req)->max_size;
}

// Reading stays armed between one-shot reads: bytes that come while no
// read is in flight are left in the kernel (no buffer is offered, libuv
// answers UV_ENOBUFS without reading) and reading is disarmed until the
// next read.
void Disarm(IoHandle* io) {
  uv_read_stop(&io->handle.stream);
  io->reading = false;
}

void OnRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t*) {
  if (nread == 0) {
    return;  // EAGAIN: nothing yet
  }
  IoHandle* io = FromUvHandle(reinterpret_cast<uv_handle_t*>(stream));
  auto* abi = static_cast<zend_async_io_req_t*>(io->active);
  if (abi == nullptr) {
    Disarm(io);  // bytes came between reads: they wait for the next one
    return;
  }
  const bool multishot = ZEND_ASYNC_IO_IS_MULTISHOT(&io->abi);
  const bool terminal = nread < 0;
  if (terminal) Disarm(io);
  if (!multishot || terminal) {
    io->active = nullptr;
  }
  IoRequest* req = IoRequest::FromAbi(abi);
  if (nread > 0) {
    abi->transferred = nread;
  } else if (nread == UV_EOF) {
    abi->transferred = 0;
    io->abi.state |= ZEND_ASYNC_IO_EOF;
  } else {
    FailRequest(req, "Pipe read error", static_cast<int>(nread));
  }
  abi->completed = !multishot || terminal;
  if (abi->completed) {
    req->io = nullptr;  // its owner may dispose it after the handle is gone
  }
  NotifyRequest(io, req);
}

// ---- Write ------------------------------------------------------------------

// A write's completion: the bytes submitted, or -1 with "<what>: <libuv
// message>" and the handle marked WRITE_FAILED (before anything goes
// back). Returns the handle.
IoHandle* Complete(IoRequest* req, int status, const char* what) {
  req->flags &= ~kRequestInFlight;
  if (status == 0) {
    req->abi.transferred = static_cast<ssize_t>(req->max_size);
    req->abi.completed = true;
  } else {
    MarkWriteFailed(&req->io->abi);
    FailRequest(req, what, status);
  }
  return req->io;
}

// Fire-and-forget: hands the buffer (or IOV user data) back through
// free_cb once and frees the request; nothing is notified.
void GiveBackAndDispose(IoHandle* io, IoRequest* req) {
  if (req->abi.free_cb != nullptr) {
    auto free_cb = req->abi.free_cb;
    void* data = req->abi.buf;
    req->abi.free_cb = nullptr;
    req->abi.buf = nullptr;
    free_cb(data, &io->abi);
  }
  DisposeRequest(&req->abi);
}

// A completed request the caller awaits goes to its owner: a dispose that
// came while it was in flight is finished now; otherwise its link to the
// handle is dropped first (the owner may dispose it after the handle is
// gone) and the handle is notified. Nothing touches the request after the
// notification, in which a listener may dispose it and submit the next
// write. `awaited_vector`: notified without the exception (NotifyAwaited).
void HandOver(IoHandle* io, IoRequest* req, bool awaited_vector) {
  if ((req->flags & kRequestDisposePending) != 0) {
    DisposeRequest(&req->abi);
    return;
  }
  req->io = nullptr;
  if (awaited_vector) {
    NotifyAwaited(io, req);
  } else {
    NotifyRequest(io, req);
  }
}

void OnWritten(uv_write_t* write, int status) {
  auto* req = static_cast<IoRequest*>(write->data);
  IoHandle* io = Complete(req, status, "Pipe write error");
  if (req->abi.free_cb != nullptr) {
    GiveBackAndDispose(io, req);
    return;
  }
  HandOver(io, req, /*awaited_vector=*/false);
}

// ZSTR references go at completion, awaited or not. Without
// ZEND_ASYNC_IO_WRITEV_AWAIT the write is fire-and-forget: IOV gives its
// user data back through free_cb and the request is freed.
void OnWrittenVector(uv_write_t* write, int status) {
  auto* req = static_cast<IoRequest*>(write->data);
  IoHandle* io = Complete(req, status, "Pipe writev error");
  ReleaseStrings(req);
  if ((req->flags & kRequestAwaited) != 0) {
    HandOver(io, req, /*awaited_vector=*/true);
    return;
  }
  GiveBackAndDispose(io, req);
}

}  // namespace

zend_async_io_req_t* StreamRead(IoHandle* io, IoRequest* req) {
  // libuv reads into one place at a time: a second read would orphan the
  // first.
  if (io->active != nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to start pipe read: %s", uv_strerror(UV_EALREADY));
    DisposeRequest(&req->abi);
    return nullptr;
  }
  if (!io->reading) {
    const int error = uv_read_start(&io->handle.stream, AllocChunk, OnRead);
    if (error < 0) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Failed to start pipe read: %s", uv_strerror(error));
      DisposeRequest(&req->abi);
      return nullptr;
    }
    io->reading = true;
  }
  io->active = &req->abi;
  return &req->abi;
}

zend_async_io_req_t* StreamWrite(IoHandle* io, IoRequest* req) {
  uv_buf_t buf =
      uv_buf_init(req->abi.buf, static_cast<unsigned>(req->max_size));
  req->uv.write.data = req;
  const int error =
      uv_write(&req->uv.write, &io->handle.stream, &buf, 1, OnWritten);
  if (error < 0) {
    MarkWriteFailed(&io->abi);
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to start stream write: %s", uv_strerror(error));
    DisposeRequest(&req->abi);  // hands buf back through free_cb
    return nullptr;
  }
  req->flags |= kRequestInFlight;
  return &req->abi;
}

zend_async_io_req_t* StreamWritev(IoHandle* io, const void* bufs,
                                  unsigned nbufs, bool iov_mode, bool awaited,
                                  zend_async_io_write_free_cb_t free_cb,
                                  void* user_data) {
  // ZSTR: the references move into slots right after the request.
  const size_t slots = iov_mode ? 0 : nbufs * sizeof(zend_string*);
  IoRequest* req = NewRequest(io, "writev", slots);
  auto* strings = reinterpret_cast<zend_string**>(req + 1);
  if (iov_mode) {
    // dispose() and the completion hand user_data back through free_cb.
    req->abi.free_cb = free_cb;
    req->abi.buf = static_cast<char*>(user_data);
  } else {
    auto* given = static_cast<zend_string* const*>(bufs);
    for (unsigned i = 0; i < nbufs; i++) strings[i] = given[i];
    req->writev_nbufs = static_cast<uint16_t>(nbufs);
  }

  // libuv copies the descriptors before uv_write returns.
  auto* uv_bufs =
      static_cast<uv_buf_t*>(nbufs <= 64 ? alloca(nbufs * sizeof(uv_buf_t))
                                         : emalloc(nbufs * sizeof(uv_buf_t)));
  size_t total = 0;
  for (unsigned i = 0; i < nbufs; i++) {
    if (iov_mode) {
      const auto* iov = static_cast<const zend_async_buf_t*>(bufs);
      uv_bufs[i].base = iov[i].base;
      uv_bufs[i].len = iov[i].len;
    } else {
      uv_bufs[i].base = ZSTR_VAL(strings[i]);
      uv_bufs[i].len = ZSTR_LEN(strings[i]);
    }
    total += uv_bufs[i].len;
  }
  req->max_size = total;
  req->uv.write.data = req;
  const int error = uv_write(&req->uv.write, &io->handle.stream, uv_bufs, nbufs,
                             OnWrittenVector);
  if (nbufs > 64) efree(uv_bufs);
  if (error < 0) {
    MarkWriteFailed(&io->abi);
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to start vectored write: %s", uv_strerror(error));
    DisposeRequest(&req->abi);  // releases the strings or calls free_cb
    return nullptr;
  }
  req->flags |= kRequestInFlight;
  if (awaited) req->flags |= kRequestAwaited;
  return &req->abi;
}

}  // namespace zar::core::io
