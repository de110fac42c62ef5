#include "core/io/file_io.h"

#include <unistd.h>

#include <climits>
#include <cstring>

#include "core/reactor/reactor_loop.h"

namespace zar::core::io {
namespace {

uv_loop_t* LoopOf(IoHandle*) { return reactor::AcquireLoop(); }

// The handle's position after an operation moved it by `moved` bytes.
void FollowPosition(IoHandle* io, ssize_t moved) {
  const off_t position = lseek(io->fd, 0, SEEK_CUR);
  io->file_offset = position >= 0 ? position : io->file_offset + moved;
}

// The operation of `req` on `io` is over (its outcome is set): a request
// whose owner left is disposed, the others are notified on the handle;
// then the handle's pin is dropped.
void Finish(IoHandle* io, IoRequest* req) {
  if ((req->flags & kRequestDisposePending) != 0) {
    DisposeRequest(&req->abi);
  } else {
    req->io = nullptr;  // its owner may dispose it after the handle is gone
    if (!io->core.destroyed) {
      NotifyRequest(io, req);
    }
  }
  UnpinAfterOperation(io, /*counted=*/true);
}

// Takes the libuv outcome off the request: clears in-flight, cleans up.
ssize_t TakeResult(IoRequest* req) {
  req->flags &= ~kRequestInFlight;
  const auto result = static_cast<ssize_t>(req->uv.fs.result);
  uv_fs_req_cleanup(&req->uv.fs);
  return result;
}

void MarkInFlight(IoHandle* io, IoRequest* req) {
  req->flags |= kRequestInFlight;
  PinForOperation(io, /*counted=*/true);
}

// The outcome of submitting `req`: libuv's `error` refuses it
// (Async\AsyncException "Failed to start <what>: <libuv message>", the request
// disposed, NULL), else it is in flight.
zend_async_io_req_t* Submitted(IoHandle* io, IoRequest* req, int error,
                               const char* what) {
  if (error < 0) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "Failed to start %s: %s",
                     what, uv_strerror(error));
    DisposeRequest(&req->abi);
    return nullptr;
  }
  MarkInFlight(io, req);
  return &req->abi;
}

// ---- Read -------------------------------------------------------------------

// A read's or write's outcome: the bytes moved (and the handle's position
// after them), or -1 with "<what>: <libuv message>".
void TakeTransfer(IoHandle* io, IoRequest* req, const char* what) {
  const ssize_t result = TakeResult(req);
  if (result >= 0) {
    req->abi.transferred = result;
    req->abi.completed = true;
    if (result > 0) FollowPosition(io, result);
  } else {
    FailRequest(req, what, static_cast<int>(result));
  }
}

void OnFileRead(uv_fs_t* fs) {
  auto* req = static_cast<IoRequest*>(fs->data);
  IoHandle* io = req->io;
  TakeTransfer(io, req, "File read error");
  Finish(io, req);
}

// ---- Write ------------------------------------------------------------------

void OnFileWritten(uv_fs_t* fs);

// Submits one write. False when libuv refused it: the request is then
// completed with its exception.
bool DispatchWrite(IoHandle* io, IoRequest* req) {
  const size_t count = req->max_size > INT_MAX ? INT_MAX : req->max_size;
  uv_buf_t buf = uv_buf_init(req->abi.buf, static_cast<unsigned>(count));
  req->uv.fs.data = req;
  const int error =
      uv_fs_write(LoopOf(io), &req->uv.fs, io->fd, &buf, 1, -1, OnFileWritten);
  if (error < 0) {
    MarkWriteFailed(&io->abi);
    FailRequest(req, "Failed to start file write", error);
    return false;
  }
  MarkInFlight(io, req);
  return true;
}

void OnFileWritten(uv_fs_t* fs) {
  auto* req = static_cast<IoRequest*>(fs->data);
  IoHandle* io = req->io;
  TakeTransfer(io, req, "File write error");
  if (req->abi.transferred < 0) MarkWriteFailed(&io->abi);

  // The next queued write goes out before this one is notified, so that
  // exactly one stays in flight; one libuv refuses is notified and skipped.
  bool dispatched = false;
  while (!dispatched && io->write_queue_head != nullptr &&
         !io->core.destroyed) {
    IoRequest* next = io->write_queue_head;
    io->write_queue_head = next->queue_next;
    if (io->write_queue_head == nullptr) io->write_queue_tail = nullptr;
    next->queue_next = nullptr;
    dispatched = DispatchWrite(io, next);
    if (!dispatched) {
      next->io = nullptr;
      NotifyRequest(io, next);
    }
  }
  if (!dispatched) io->file_write_in_flight = false;
  Finish(io, req);
}

// ---- Flush and stat ---------------------------------------------------------

// A request whose libuv result is 0 or an error: completes with result 0,
// or fails with `what` and the libuv error.
void CompleteOrFail(IoRequest* req, ssize_t result, const char* what) {
  if (result == 0) {
    req->abi.result = 0;
    req->abi.completed = true;
  } else {
    FailRequest(req, what, static_cast<int>(result));
  }
}

void OnFileFlushed(uv_fs_t* fs) {
  auto* req = static_cast<IoRequest*>(fs->data);
  IoHandle* io = req->io;
  const ssize_t result = TakeResult(req);
  CompleteOrFail(req, result, "File flush error");
  Finish(io, req);
}

void CopyStat(const uv_stat_t& from, zend_stat_t* to) {
  std::memset(to, 0, sizeof(*to));
  to->st_dev = static_cast<dev_t>(from.st_dev);
  to->st_ino = static_cast<ino_t>(from.st_ino);
  to->st_mode = static_cast<mode_t>(from.st_mode);
  to->st_nlink = static_cast<nlink_t>(from.st_nlink);
  to->st_uid = static_cast<uid_t>(from.st_uid);
  to->st_gid = static_cast<gid_t>(from.st_gid);
  to->st_rdev = static_cast<dev_t>(from.st_rdev);
  to->st_size = static_cast<off_t>(from.st_size);
  to->st_atime = static_cast<time_t>(from.st_atim.tv_sec);
  to->st_mtime = static_cast<time_t>(from.st_mtim.tv_sec);
  to->st_ctime = static_cast<time_t>(from.st_ctim.tv_sec);
  to->st_blksize = static_cast<blksize_t>(from.st_blksize);
  to->st_blocks = static_cast<blkcnt_t>(from.st_blocks);
}

void OnFileStat(uv_fs_t* fs) {
  auto* req = static_cast<IoRequest*>(fs->data);
  IoHandle* io = req->io;
  req->flags &= ~kRequestInFlight;
  const auto result = static_cast<ssize_t>(fs->result);
  // An owner that left took its buffer with it: nothing is written then.
  if (result == 0 && (req->flags & kRequestDisposePending) == 0) {
    CopyStat(fs->statbuf, reinterpret_cast<zend_stat_t*>(req->abi.buf));
  }
  uv_fs_req_cleanup(fs);
  req->abi.buf = nullptr;  // the caller's, never freed here
  CompleteOrFail(req, result, "File stat error");
  Finish(io, req);
}

// ---- Sendfile ---------------------------------------------------------------

void OnSent(uv_fs_t* fs);

// The transfer is over: the bytes sent, or -1 when none were and it
// failed; notified on the source; both handles unpinned.
void FinishSendfile(IoRequest* req, int error, const char* what) {
  IoHandle* in = req->io;
  IoHandle* out = req->sendfile_out;
  const size_t sent = static_cast<size_t>(req->abi.transferred);
  if (error == 0) {
    req->abi.completed = true;
  } else {
    FailRequest(req, what, error);
    req->abi.transferred = sent > 0 ? static_cast<ssize_t>(sent) : -1;
  }
  Finish(in, req);
  UnpinAfterOperation(out, /*counted=*/false);
}

void OnSent(uv_fs_t* fs) {
  auto* req = static_cast<IoRequest*>(fs->data);
  const ssize_t result = TakeResult(req);
  if ((req->flags & kRequestDisposePending) != 0) {
    FinishSendfile(req, UV_ECANCELED, "Sendfile");
    return;
  }
  if (result < 0) {
    FinishSendfile(req, static_cast<int>(result), "Sendfile");
    return;
  }
  req->abi.transferred += result;
  if (req->sendfile_offset >= 0) req->sendfile_offset += result;
  if (result == 0 || static_cast<size_t>(result) >= req->sendfile_remaining) {
    req->sendfile_remaining = 0;
    FinishSendfile(req, 0, nullptr);
    return;
  }
  req->sendfile_remaining -= static_cast<size_t>(result);
  const int error = uv_fs_sendfile(
      LoopOf(req->io), &req->uv.fs, req->sendfile_out->fd, req->io->fd,
      req->sendfile_offset, req->sendfile_remaining, OnSent);
  if (error < 0) {
    FinishSendfile(req, error, "Sendfile resubmit");
    return;
  }
  req->flags |= kRequestInFlight;
}

// ---- Open -------------------------------------------------------------------

void OnOpened(uv_fs_t* fs) {
  auto* carrier = static_cast<IoRequest*>(fs->data);
  IoHandle* io = carrier->io;
  const ssize_t result = TakeResult(carrier);
  efree(carrier);

  zend_object* exception = nullptr;
  if (io->core.destroyed) {
    // The request ended while the open ran: nobody is left to own it.
    if (result >= 0) close(static_cast<int>(result));
  } else if (result >= 0) {
    io->fd = static_cast<int>(result);
    io->abi.descriptor.fd = io->fd;
    io->abi.state |= ZEND_ASYNC_IO_READABLE | ZEND_ASYNC_IO_OWNS_FD;
  } else {
    io->abi.state |= ZEND_ASYNC_IO_CLOSED | ZEND_ASYNC_IO_EOF;
    exception = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT,
                                         "Open error: %s",
                                         uv_strerror(static_cast<int>(result)));
  }
  if (!io->core.destroyed) {
    NotifyHandle(io, exception);
  }
  if (exception != nullptr) OBJ_RELEASE(exception);
  UnpinAfterOperation(io, /*counted=*/true);
}

}  // namespace

zend_async_io_req_t* FileRead(IoHandle* io, IoRequest* req) {
  const size_t count = req->max_size > INT_MAX ? INT_MAX : req->max_size;
  uv_buf_t buf = uv_buf_init(req->abi.buf, static_cast<unsigned>(count));
  req->uv.fs.data = req;
  return Submitted(
      io, req,
      uv_fs_read(LoopOf(io), &req->uv.fs, io->fd, &buf, 1, -1, OnFileRead),
      "file read");
}

zend_async_io_req_t* FileWrite(IoHandle* io, IoRequest* req) {
  if (io->file_write_in_flight) {
    if (io->write_queue_tail != nullptr) {
      io->write_queue_tail->queue_next = req;
    } else {
      io->write_queue_head = req;
    }
    io->write_queue_tail = req;
    return &req->abi;
  }
  io->file_write_in_flight = DispatchWrite(io, req);
  return &req->abi;
}

zend_async_io_req_t* FileFlush(IoHandle* io) {
  IoRequest* req = NewRequest(io, "flush");
  req->uv.fs.data = req;
  return Submitted(io, req,
                   uv_fs_fsync(LoopOf(io), &req->uv.fs, io->fd, OnFileFlushed),
                   "file flush");
}

zend_async_io_req_t* FileStat(IoHandle* io, zend_stat_t* buf) {
  IoRequest* req = NewRequest(io, "stat");
  req->abi.buf = reinterpret_cast<char*>(buf);
  req->uv.fs.data = req;
  // The buffer is the caller's: a refusal leaves it alone.
  return Submitted(io, req,
                   uv_fs_fstat(LoopOf(io), &req->uv.fs, io->fd, OnFileStat),
                   "file stat");
}

zend_off_t FileSeek(IoHandle* io, zend_off_t offset, int whence) {
  io->abi.state &= ~ZEND_ASYNC_IO_EOF;
  const off_t result = lseek(io->fd, offset, whence);
  // APPEND: writes always go to the end; a seek only moves reads.
  if ((io->abi.state & ZEND_ASYNC_IO_APPEND) == 0) {
    io->file_offset = result;
  }
  return result;
}

zend_async_io_req_t* Sendfile(IoHandle* out, IoHandle* in, zend_off_t offset,
                              size_t length) {
  IoRequest* req = NewRequest(in, "sendfile");
  req->sendfile_out = out;
  req->sendfile_offset = offset;
  req->sendfile_remaining = length;
  if (length == 0) {
    req->abi.transferred = 0;
    req->abi.completed = true;
    return &req->abi;
  }
  req->uv.fs.data = req;
  zend_async_io_req_t* submitted =
      Submitted(in, req,
                uv_fs_sendfile(LoopOf(in), &req->uv.fs, out->fd, in->fd, offset,
                               length, OnSent),
                "sendfile");
  if (submitted != nullptr) PinForOperation(out, /*counted=*/false);
  return submitted;
}

zend_async_io_t* FsOpen(const char* path, int flags, int mode) {
  zend_async_io_t* abi = CreateHandle(-1, ZEND_ASYNC_IO_TYPE_FILE, 0);
  if (abi == nullptr) {
    return nullptr;
  }
  IoHandle* io = IoHandle::FromIo(abi);
  IoRequest* carrier = NewRequest(io, "open");
  carrier->uv.fs.data = carrier;
  const int error =
      uv_fs_open(LoopOf(io), &carrier->uv.fs, path, flags, mode, OnOpened);
  if (error < 0) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "Failed to start open: %s",
                     uv_strerror(error));
    efree(carrier);
    abi->event.dispose(&abi->event);
    return nullptr;
  }
  carrier->flags |= kRequestInFlight;
  PinForOperation(io, /*counted=*/true);
  return abi;
}

}  // namespace zar::core::io
