#include "core/io/io_request.h"

#include "core/internal/release.h"
#include "core/io/io_handle.h"

namespace zar::core::io {

IoRequest* NewRequest(IoHandle* io, const char* op, size_t trailing) {
  auto* req = static_cast<IoRequest*>(ecalloc(1, sizeof(IoRequest) + trailing));
  req->abi.dispose = DisposeRequest;
  req->op = op;
  req->io = io;
  return req;
}

zend_async_io_req_t* CompletedRequest(IoHandle* io, const char* op,
                                      ssize_t result) {
  IoRequest* req = NewRequest(io, op);
  req->abi.result = result;
  req->abi.completed = true;
  return &req->abi;
}

void DisposeRequest(zend_async_io_req_t* abi) {
  IoRequest* req = IoRequest::FromAbi(abi);
  // libuv still owes the completion: it finishes the dispose. A file
  // operation still queued in the thread pool is cancelled (a running one
  // or a stream write cannot be).
  if ((req->flags & kRequestInFlight) != 0) {
    req->flags |= kRequestDisposePending;
    if (req->uv.fs.type == UV_FS) {
      uv_cancel(reinterpret_cast<uv_req_t*>(&req->uv.fs));
    }
    return;
  }
  IoHandle* io = req->io;
  if (io != nullptr) {
    ForgetRequest(io, abi);
    UnqueueWrite(io, req);
  }
  ReleaseStrings(req);
  if (abi->free_cb != nullptr) {
    // A fire-and-forget write that never completed: its buffer goes back.
    auto free_cb = abi->free_cb;
    void* data = abi->buf;
    abi->free_cb = nullptr;
    abi->buf = nullptr;
    free_cb(data, io != nullptr ? &io->abi : nullptr);
  } else if (req->buf_owned && abi->buf != nullptr) {
    efree(abi->buf);
  }
  core::internal::ReleaseAndClear(abi->exception);
  efree(req);
}

void ReleaseStrings(IoRequest* req) {
  auto** slots = reinterpret_cast<zend_string**>(req + 1);
  for (unsigned i = 0; i < req->writev_nbufs; i++) {
    zend_string_release(slots[i]);
  }
  req->writev_nbufs = 0;
}

void DisposeUdpRequest(zend_async_udp_req_t* abi) {
  UdpRequest* req = UdpRequest::FromAbi(abi);
  IoHandle* io = req->io;
  if (io != nullptr) {
    ForgetRequest(io, abi);
  }
  // A datagram handed to libuv cannot be taken back: the send callback
  // finishes the dispose.
  if (req->is_send && (abi->flags & ZEND_ASYNC_UDP_REQ_F_CALLBACK_DONE) == 0) {
    abi->flags |= ZEND_ASYNC_UDP_REQ_F_DISPOSE_PENDING;
    return;
  }
  if (abi->buf != nullptr) {
    efree(abi->buf);
  }
  if (abi->exception != nullptr) {
    OBJ_RELEASE(abi->exception);
  }
  efree(req);
}

void FailRequest(IoRequest* req, const char* what, int uv_error) {
  req->abi.result = -1;
  req->abi.exception = zend_async_new_exception(
      ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT, "%s: %s", what, uv_strerror(uv_error));
  req->abi.completed = true;
}

}  // namespace zar::core::io
