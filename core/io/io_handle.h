// zend-async-ref core: an async IO handle (zend_async_io_t), and how its
// requests (io_request.h) complete on it.
//
// A handle is a reactor event (core/reactor/reactor_event.h):
//
//   struct IoHandle {
//     zend_async_io_t abi;   // ABI structure (must be first)
//     EventCore core;
//     ...                    // bookkeeping below
//     union { uv_pipe_t, uv_tty_t, uv_tcp_t, uv_udp_t } handle;  // not FILE
//   };
//
// A request is not an event: it is a block of its own, owned by whoever
// submitted it (it disposes it with req->dispose(req) once it has read the
// outcome). Its completion is notified on the handle's event, with the
// request as `result` and its exception (if any) as `exception`; a listener
// picks its own request out by comparing `result`. A request completed at
// submission (EOF already seen, a flush of a stream, ...) is returned with
// `completed` set and notifies nothing.
//
// start() only takes a loop reference (nothing to arm: reads are armed by
// read()). stop() also cancels a stream read in flight (the request is left
// to its owner, never completed), even when the event was not started.
// close() marks the handle CLOSED, wakes its listeners with
// Async\InputOutputException "Stream was closed" (the read in flight is
// completed with io_closed set and 0 bytes, and detached), and closes the
// descriptor: a stream's or UDP socket's through uv_close (libuv cancels
// its writes: they complete with "... operation canceled"), a FILE's only
// with ZEND_ASYNC_IO_OWNS_FD (fs_open), and a stdio descriptor dup'd at
// creation unless ZEND_ASYNC_IO_PRESERVE_FD. dispose() drops a reference;
// the last one calls on_detach, closes, disposes a read still attached and
// file writes still queued, and frees the handle once libuv has given back
// what it borrowed.
//
// A FILE operation in flight (read, write, flush, stat, sendfile, fs_open)
// holds a reference to its handle(s) and counts in
// ZEND_ASYNC_ACTIVE_EVENT_COUNT until it completes, as php-async's do.
//
// Threading: the request's thread; file operations run in libuv's thread
// pool and complete on the request's thread.

#ifndef ZAR_CORE_IO_IO_HANDLE_H_
#define ZAR_CORE_IO_IO_HANDLE_H_

#include <uv.h>

#include <cstddef>
#include <cstdint>

#include "core/io/io_request.h"
#include "core/reactor/reactor_event.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::io {

struct IoHandle : reactor::EventOf<IoHandle> {
  zend_async_io_t abi;  // ABI structure (must be first)
  reactor::EventCore core;
  // The descriptor libuv and the file calls use (the dup'd copy of a stdio
  // descriptor); -1 for a pending fs_open and after a FILE closed its own.
  int fd;
  // A stdio descriptor (0..2) dup'd at creation, or -1.
  int orig_fd;
  // The read (stream) or receive (UDP) in flight: the request libuv's
  // callbacks deliver into. Not owned: its submitter disposes it.
  void* active;
  // A stream: uv_read_start is armed. It stays armed after a one-shot read
  // completes, so that the next read costs no re-arming; libuv reads
  // nothing while no read is in flight (the chunk allocator offers no
  // buffer), and the first such wake-up disarms it (stream_io.h).
  bool reading;
  // FILE writes run one at a time (write(2) at the kernel's offset); the
  // others wait in this FIFO, dispatched by each completion.
  IoRequest* write_queue_head;
  IoRequest* write_queue_tail;
  bool file_write_in_flight;
  // FILE: the position the handle last saw (APPEND: the end of file).
  zend_off_t file_offset;
  union {
    uv_stream_t stream;
    uv_pipe_t pipe;
    uv_tty_t tty;
    uv_tcp_t tcp;
    uv_udp_t udp;
  } handle;

  static IoHandle* FromIo(zend_async_io_t* io) {
    return reinterpret_cast<IoHandle*>(io);
  }
  static zend_string* Info(zend_async_event_t* event);
};

// ---- Handles ----------------------------------------------------------------

// io_create: a handle over `fd` of `type` with `state` (ZEND_ASYNC_IO_*).
// Stream and UDP descriptors pass to libuv (closed with the handle); a
// stdio descriptor (0..2) of a stream is dup'd first. NULL with
// Async\AsyncException thrown when that fails ("Failed to duplicate
// descriptor %d: ...") or libuv refuses ("Failed to initialize pipe handle:
// ...", "Failed to open pipe handle: ...", "Failed to initialize TTY
// handle: ...", "Failed to initialize TCP handle: ...", "Failed to open TCP
// handle: ...", "Failed to initialize UDP handle: ...", "Failed to open UDP
// handle: ...").
zend_async_io_t* CreateHandle(zend_file_descriptor_t fd,
                              zend_async_io_type type, uint32_t state);

// A UDP handle with no socket yet (udp_bind binds it). NULL with
// Async\AsyncException thrown when libuv refuses.
IoHandle* NewUdpHandle(size_t extra_size);

// close(): see the file comment. Always returns true.
bool CloseHandle(zend_async_io_t* io);

// Notifies the handle's event of a request's completion: `result` the
// request, `exception` its exception (traced as "io done"). The callbacks
// may dispose the request and release the handle: the caller touches
// neither afterwards. Stops the loop when a callback left an exception.
void NotifyRequest(IoHandle* io, IoRequest* req);
void NotifyRequest(IoHandle* io, UdpRequest* req);
// Notifies the handle's event of an awaited vectored write's completion
// (ZEND_ASYNC_IO_WRITEV_AWAIT): `result` the request and no exception, so
// that the other listeners of the handle, which forward any exception,
// stay asleep; the outcome is on the request (transferred, exception).
// Same contract as NotifyRequest otherwise.
void NotifyAwaited(IoHandle* io, IoRequest* req);
// Notifies the handle's event without a request (fs_open's completion).
void NotifyHandle(IoHandle* io, zend_object* exception);

// ZEND_ASYNC_IO_WRITE_FAILED on the handle's state: a write or vectored
// write on it completed with an error or was refused at submit. Set before
// anything handed over goes back (free_cb, the strings' references), so a
// fire-and-forget caller's free_cb reads it; never cleared. Reads, sends
// (udp_sendto) and sendfile leave it alone.
inline void MarkWriteFailed(zend_async_io_t* io) {
  io->state |= ZEND_ASYNC_IO_WRITE_FAILED;
}

// "io <op> IO#3 <bytes> byte(s)": a request was submitted (traced only
// with tracing on).
void TraceSubmit(IoHandle* io, const char* op, size_t bytes);

// A file operation pins each handle it uses until its completion: a
// reference (so the owner's release does not close it under the
// operation), the reactor's claim on its memory (reactor::BeginRequest),
// and, when `counted`, one active event (ZEND_ASYNC_INCREASE_EVENT_COUNT).
// Unpinning may dispose the handle.
void PinForOperation(IoHandle* io, bool counted);
void UnpinAfterOperation(IoHandle* io, bool counted);

// A request going away detaches from its handle: a read in flight
// (`req`, an IoRequest's or UdpRequest's abi) is stopped, and a FILE
// write is unlinked from the handle's write queue.
void ForgetRequest(IoHandle* io, const void* req);
void UnqueueWrite(IoHandle* io, IoRequest* req);

}  // namespace zar::core::io

#endif  // ZAR_CORE_IO_IO_HANDLE_H_
