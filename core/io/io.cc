// The ABI entries of core/io/'s two groups and their registration. Each
// entry checks what holds for every handle type (closed, wrong type) with
// php-async's messages and hands over to the type's file; each group is
// passed from a single place, each entry named by its parameter in the ABI's
// declaration of the register function.

#include "core/io/io.h"

#include <cerrno>

#include "core/io/file_io.h"
#include "core/io/io_handle.h"
#include "core/io/listen_event.h"
#include "core/io/stream_io.h"
#include "core/io/udp_io.h"
#include "core/reactor/reactor.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core {
namespace {

using io::IoHandle;
using io::IoRequest;

// uv_write and uv_udp_send refuse more than this in one call (libuv's
// UV__IO_MAX_BYTES, in a private header).
constexpr size_t kWriteMaxBytes = 0x7ffff000u;

bool IsClosed(const zend_async_io_t* io) {
  return (io->state & ZEND_ASYNC_IO_CLOSED) != 0;
}

// Traces a request that was submitted (not one refused or completed at
// once); returns it.
template <typename Request>
Request* Submitted(IoHandle* io, const char* op, size_t bytes, Request* req) {
  if (req != nullptr && !req->completed && ZEND_ASYNC_REF_TRACING()) {
    io::TraceSubmit(io, op, bytes);
  }
  return req;
}

// ---- Async IO --------------------------------------------------------------

// The handle a request is for, or nullptr with Async\AsyncException "Cannot
// <verb> closed IO handle" thrown.
IoHandle* OpenHandle(zend_async_io_t* abi, const char* verb) {
  if (IsClosed(abi)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "Cannot %s closed IO handle",
                     verb);
    return nullptr;
  }
  return IoHandle::FromIo(abi);
}

zend_async_io_req_t* Read(zend_async_io_t* abi, char* buf, size_t max_size) {
  IoHandle* io = OpenHandle(abi, "read from");
  if (io == nullptr) return nullptr;
  IoRequest* req = io::NewRequest(io, "read");
  req->max_size = max_size > INT_MAX ? INT_MAX : max_size;
  if ((abi->state & ZEND_ASYNC_IO_EOF) != 0) {
    req->abi.transferred = 0;
    req->abi.completed = true;
    return &req->abi;
  }
  if (buf != nullptr) {
    req->abi.buf = buf;
  } else {
    req->abi.buf =
        static_cast<char*>(emalloc(req->max_size > 0 ? req->max_size : 1));
    req->buf_owned = true;
  }
  const size_t bytes = req->max_size;
  return Submitted(io, "read", bytes,
                   ZEND_ASYNC_IO_IS_STREAM(abi->type)
                       ? io::StreamRead(io, req)
                       : io::FileRead(io, req));  // FILE; UDP via read(2)
}

// A refused write marks the handle WRITE_FAILED before anything handed
// over goes back (io_handle.h: MarkWriteFailed).
zend_async_io_req_t* Write(zend_async_io_t* abi, const char* buf, size_t count,
                           zend_async_io_write_free_cb_t free_cb) {
  if (IsClosed(abi)) {
    io::MarkWriteFailed(abi);
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Cannot write to closed IO handle");
    // A fire-and-forget caller handed the buffer over: it goes back once.
    if (free_cb != nullptr) free_cb(const_cast<char*>(buf), abi);
    return nullptr;
  }
  IoHandle* io = IoHandle::FromIo(abi);
  IoRequest* req = io::NewRequest(io, "write");
  req->abi.buf = const_cast<char*>(buf);
  req->abi.free_cb = free_cb;
  // What is submitted is what completes: a longer buffer becomes a short
  // write, which a fire-and-forget caller could not see.
  req->max_size = count > kWriteMaxBytes ? kWriteMaxBytes : count;
  if (free_cb != nullptr && count > kWriteMaxBytes) {
    io::MarkWriteFailed(abi);
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Write of %zu bytes exceeds the %u a single write carries",
                     count, static_cast<unsigned>(kWriteMaxBytes));
    io::DisposeRequest(&req->abi);  // hands buf back through free_cb
    return nullptr;
  }
  const size_t bytes = req->max_size;
  return Submitted(io, "write", bytes,
                   ZEND_ASYNC_IO_IS_STREAM(abi->type)
                       ? io::StreamWrite(io, req)
                       : io::FileWrite(io, req));  // FILE; UDP via write(2)
}

// A vectored write refused before its request exists: the handle is marked
// WRITE_FAILED, then what the call handed over goes back at once (every
// string's reference, or free_cb(user_data) once). The caller throws.
void RefuseVector(zend_async_io_t* abi, const void* bufs, unsigned nbufs,
                  bool iov_mode, zend_async_io_write_free_cb_t free_cb,
                  void* user_data) {
  io::MarkWriteFailed(abi);
  if (iov_mode) {
    if (free_cb != nullptr) free_cb(user_data, abi);
    return;
  }
  auto* strings = static_cast<zend_string* const*>(bufs);
  for (unsigned i = 0; i < nbufs; i++) zend_string_release(strings[i]);
}

zend_async_io_req_t* Writev(zend_async_io_t* abi, const void* bufs,
                            unsigned nbufs, uint32_t flags,
                            zend_async_io_write_free_cb_t free_cb,
                            void* user_data) {
  // The low bit is the mode, AWAIT the one behaviour bit; any other bit is
  // refused, and so is IOV | AWAIT: an awaited completion hands the request
  // to its owner, so it cannot also keep IOV's promise of free_cb at
  // completion.
  const bool iov_mode =
      (flags & ZEND_ASYNC_IO_WRITEV_MODE_MASK) == ZEND_ASYNC_IO_WRITEV_IOV;
  const bool awaited = (flags & ZEND_ASYNC_IO_WRITEV_AWAIT) != 0;
  constexpr uint32_t kKnownFlags =
      ZEND_ASYNC_IO_WRITEV_MODE_MASK | ZEND_ASYNC_IO_WRITEV_AWAIT;
  if ((flags & ~kKnownFlags) != 0 || (iov_mode && awaited)) {
    RefuseVector(abi, bufs, nbufs, iov_mode, free_cb, user_data);
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Unsupported writev flags 0x%x", flags);
    return nullptr;
  }
  // The request counts its strings in 16 bits.
  if (!iov_mode && nbufs > UINT16_MAX) {
    RefuseVector(abi, bufs, nbufs, iov_mode, free_cb, user_data);
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Vectored write of %u buffers exceeds the limit of %u",
                     nbufs, static_cast<unsigned>(UINT16_MAX));
    return nullptr;
  }
  // Nothing submitted and nothing refused: NULL without an exception.
  if (nbufs == 0) {
    if (iov_mode && free_cb != nullptr) free_cb(user_data, abi);
    return nullptr;
  }
  if (IsClosed(abi) || !ZEND_ASYNC_IO_IS_STREAM(abi->type)) {
    RefuseVector(abi, bufs, nbufs, iov_mode, free_cb, user_data);
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     IsClosed(abi) ? "Cannot write to closed IO handle"
                                   : "Vectored write only valid on stream IO");
    return nullptr;
  }
  IoHandle* io = IoHandle::FromIo(abi);
  return Submitted(
      io, "writev", nbufs,
      io::StreamWritev(io, bufs, nbufs, iov_mode, awaited, free_cb, user_data));
}

int Await(zend_async_io_t* abi, uint32_t, struct timeval*) {
  // Every handle is ready at once: reads and writes are requests.
  return IsClosed(abi) ? -1 : 0;
}

zend_async_io_req_t* Flush(zend_async_io_t* abi) {
  IoHandle* io = OpenHandle(abi, "flush");
  if (io == nullptr) return nullptr;
  if (abi->type != ZEND_ASYNC_IO_TYPE_FILE) {
    return io::CompletedRequest(io, "flush", 0);  // nothing buffered
  }
  return io::FileFlush(io);
}

zend_async_io_req_t* Stat(zend_async_io_t* abi, zend_stat_t* buf) {
  IoHandle* io = OpenHandle(abi, "stat");
  if (io == nullptr) return nullptr;
  if (abi->type != ZEND_ASYNC_IO_TYPE_FILE) {
    zend_async_io_req_t* req =
        io::CompletedRequest(io, "stat", fstat(io->fd, buf));
    if (req->result != 0) {
      req->exception = zend_async_new_exception(
          ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT, "Pipe stat error: fstat failed");
    }
    return req;
  }
  return io::FileStat(io, buf);
}

zend_off_t Seek(zend_async_io_t* abi, zend_off_t offset, int whence) {
  if (abi->type != ZEND_ASYNC_IO_TYPE_FILE) {
    return -1;
  }
  return io::FileSeek(IoHandle::FromIo(abi), offset, whence);
}

zend_async_io_req_t* Sendfile(zend_async_io_t* out, zend_async_io_t* in,
                              zend_off_t offset, size_t length) {
  if (IsClosed(out)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Cannot sendfile: destination IO closed");
    return nullptr;
  }
  if (IsClosed(in)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Cannot sendfile: source IO closed");
    return nullptr;
  }
  if (in->type != ZEND_ASYNC_IO_TYPE_FILE) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Sendfile source must be a file IO handle");
    return nullptr;
  }
  IoHandle* source = IoHandle::FromIo(in);
  return Submitted(source, "sendfile", length,
                   io::Sendfile(IoHandle::FromIo(out), source, offset, length));
}

// The UDP socket a datagram request is for, or nullptr with
// Async\AsyncException thrown: "Cannot <verb> closed UDP socket", "IO
// handle is not UDP type".
IoHandle* UdpSocket(zend_async_io_t* abi, const char* verb) {
  if (IsClosed(abi)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Cannot %s closed UDP socket", verb);
    return nullptr;
  }
  if (abi->type != ZEND_ASYNC_IO_TYPE_UDP) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "IO handle is not UDP type");
    return nullptr;
  }
  return IoHandle::FromIo(abi);
}

zend_async_udp_req_t* UdpSendTo(zend_async_io_t* abi, const char* buf,
                                size_t count, const struct sockaddr* addr,
                                socklen_t addr_len) {
  IoHandle* io = UdpSocket(abi, "send to");
  if (io == nullptr) return nullptr;
  return Submitted(io, "sendto", count,
                   io::UdpSendTo(io, buf, count, addr, addr_len));
}

ssize_t UdpTrySend(zend_async_io_t* abi, const char* buf, size_t count,
                   const struct sockaddr* addr, socklen_t) {
  if (IsClosed(abi)) return -EBADF;
  if (abi->type != ZEND_ASYNC_IO_TYPE_UDP) return -ENOTSOCK;
  return io::UdpTrySend(IoHandle::FromIo(abi), buf, count, addr);
}

zend_async_udp_req_t* UdpRecvFrom(zend_async_io_t* abi, size_t max_size) {
  IoHandle* io = UdpSocket(abi, "receive from");
  if (io == nullptr) return nullptr;
  return Submitted(io, "recvfrom", max_size, io::UdpRecvFrom(io, max_size));
}

int SetOption(zend_async_io_t* abi, zend_async_socket_option_t option,
              int value) {
  if (IsClosed(abi)) return -1;
  return io::SetOption(IoHandle::FromIo(abi), option, value);
}

int UdpSetMembership(zend_async_io_t* abi, const char* multicast_addr,
                     const char* interface_addr, bool join) {
  if (IsClosed(abi) || abi->type != ZEND_ASYNC_IO_TYPE_UDP) return -1;
  return io::UdpSetMembership(IoHandle::FromIo(abi), multicast_addr,
                              interface_addr, join);
}

}  // namespace

bool RegisterSocketListening() {
  return zend_async_socket_listening_register(
      kReactorModuleName, /*allow_override=*/false,
      /*socket_listen_fn=*/io::Listen, /*socket_listen_fd_fn=*/io::ListenFd);
}

bool RegisterIo() {
  return zend_async_io_register(
      kReactorModuleName, /*allow_override=*/false,
      /*create_fn=*/io::CreateHandle, /*read_fn=*/Read, /*write_fn=*/Write,
      /*writev_fn=*/Writev, /*close_fn=*/io::CloseHandle, /*await_fn=*/Await,
      /*flush_fn=*/Flush, /*stat_fn=*/Stat, /*seek_fn=*/Seek,
      /*sendfile_fn=*/Sendfile, /*fs_open_fn=*/io::FsOpen,
      /*udp_sendto_fn=*/UdpSendTo, /*udp_try_send_fn=*/UdpTrySend,
      /*udp_recvfrom_fn=*/UdpRecvFrom, /*set_option_fn=*/SetOption,
      /*udp_set_membership_fn=*/UdpSetMembership, /*udp_bind_fn=*/io::UdpBind);
}

}  // namespace zar::core
