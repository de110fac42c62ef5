// zend-async-ref core: the requests of async IO handles
// (zend_async_io_req_t, zend_async_udp_req_t).
//
// A request is not an event: it is a block of its own, owned by whoever
// submitted it (it disposes it with req->dispose(req) once it has read the
// outcome). Its completion is notified on its handle's event (io_handle.h:
// NotifyRequest) with the request as `result`. A request completed at
// submission is returned with `completed` set and notifies nothing.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_IO_IO_REQUEST_H_
#define ZAR_CORE_IO_IO_REQUEST_H_

#include <uv.h>

#include <cstddef>
#include <cstdint>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::io {

struct IoHandle;

// IoRequest::flags.
inline constexpr uint8_t kRequestInFlight = 1u << 0;  // libuv owes a callback
inline constexpr uint8_t kRequestDisposePending = 1u << 1;  // dispose() came
// A vectored write submitted with ZEND_ASYNC_IO_WRITEV_AWAIT: its completion
// hands it to its owner (notified without the exception) instead of freeing
// it.
inline constexpr uint8_t kRequestAwaited = 1u << 2;

// A request of a non-UDP handle.
struct IoRequest {
  zend_async_io_req_t abi;  // ABI structure (must be first)
  const char* op;           // "read", "write", ...: for traces
  // The handle; NULL once the handle closed under a read or the
  // completion was notified (the handle may be gone when the owner
  // disposes the request).
  IoHandle* io;
  size_t max_size;  // read: buffer size; write: bytes submitted
  bool buf_owned;   // abi.buf was allocated by read() (freed by dispose)
  uint8_t flags;    // kRequest*
  // writev, ZSTR mode: the zend_string references held, stored right after
  // the request (released on completion or dispose).
  uint16_t writev_nbufs;
  IoRequest* queue_next;  // in the handle's FILE write queue
  // sendfile: the destination, the next offset (-1: current position) and
  // the bytes still to send; `transferred` counts what was sent.
  IoHandle* sendfile_out;
  zend_off_t sendfile_offset;
  size_t sendfile_remaining;
  union {
    uv_write_t write;
    uv_fs_t fs;
  } uv;

  static IoRequest* FromAbi(zend_async_io_req_t* req) {
    return reinterpret_cast<IoRequest*>(req);
  }
};

// A request of a UDP handle.
struct UdpRequest {
  zend_async_udp_req_t abi;  // ABI structure (must be first)
  const char* op;            // "sendto" or "recvfrom": for traces
  IoHandle* io;              // NULL once the handle closed under it
  size_t max_size;
  bool is_send;  // sendto (libuv owes its callback) or recvfrom
  uv_udp_send_t send;

  static UdpRequest* FromAbi(zend_async_udp_req_t* req) {
    return reinterpret_cast<UdpRequest*>(req);
  }
};

// A zeroed request (plus `trailing` bytes) for `io` with dispose set.
IoRequest* NewRequest(IoHandle* io, const char* op, size_t trailing = 0);

// A request completed at once with `result`.
zend_async_io_req_t* CompletedRequest(IoHandle* io, const char* op,
                                      ssize_t result);

// The dispose() of IoRequest: with the operation in flight, only marks it
// (the completion finishes the dispose); otherwise detaches it from its
// handle, gives back what it holds (free_cb, zend_strings, an owned
// buffer, the exception) and frees it.
void DisposeRequest(zend_async_io_req_t* req);

// The dispose() of UdpRequest (same contract).
void DisposeUdpRequest(zend_async_udp_req_t* req);

// writev, ZSTR mode: releases the zend_string references the request
// holds (once: the count is cleared).
void ReleaseStrings(IoRequest* req);

// Sets `exception` (Async\InputOutputException "<format>: <libuv
// message>") on the request, -1 as result, and completed.
void FailRequest(IoRequest* req, const char* what, int uv_error);

}  // namespace zar::core::io

#endif  // ZAR_CORE_IO_IO_REQUEST_H_
