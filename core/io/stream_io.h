// zend-async-ref core: reads and writes on stream handles (PIPE, TTY, TCP)
// over uv_read_start and uv_write.
//
// Read. One read is in flight per handle (IoHandle::active). It delivers
// into the caller's buffer, or into one it allocates of max_size bytes
// (freed with the request), or, when the handle has an alloc_cb, into what
// that returns per chunk (NULL or 0 bytes: nothing is read until the next
// read or chunk). A chunk completes the request with `transferred` bytes;
// end of stream with 0 and sets ZEND_ASYNC_IO_EOF (a later read completes
// at once with 0); an error with -1 and Async\InputOutputException "Pipe
// read error: <libuv message>". One-shot (default): the first completion
// ends the read. ZEND_ASYNC_IO_F_MULTISHOT: every chunk is notified with
// `completed` false and reading goes on until EOF, an error, stop() or
// close(). Nothing is read while no read is in flight: after a one-shot
// read libuv's reading stays armed (the next read then costs no epoll
// change), offers no buffer, and the first wake-up with nobody to deliver
// to disarms it; the bytes, an EOF or an error wait for the next read.
//
// Write. The bytes are queued on the stream (libuv writes what it can at
// once); the completion sets `transferred` to the bytes submitted or -1
// with "Pipe write error: <libuv message>". With a free_cb the write is
// fire-and-forget: on completion free_cb(buf, io) runs once, the request
// is freed, and nothing is notified. A write longer than 0x7ffff000 bytes
// (libuv's limit) is shortened to it, and refused with a free_cb (no
// length reaches free_cb to show the short write).
//
// Vectored write: ZEND_ASYNC_IO_WRITEV_ZSTR takes over one reference of
// each zend_string (released on completion); ZEND_ASYNC_IO_WRITEV_IOV
// writes caller memory and calls free_cb(user_data, io) once on
// completion. Both are fire-and-forget (the request is freed, nothing is
// notified) unless `awaited` (ZEND_ASYNC_IO_WRITEV_AWAIT, ZSTR only): the
// request then outlives its completion, which notifies the handle with the
// request as result and no exception (status on transferred / exception,
// "Pipe writev error: <libuv message>"); its owner disposes it once, also
// while in flight (the completion finishes that dispose) or after the
// handle is gone. A handle's close never completes it: the close's
// broadcast (result NULL, "Stream was closed") is the awaiter's wake-up,
// and the cancelled write completes later, on the loop.
//
// Every write or vectored write that fails or is refused marks the handle
// ZEND_ASYNC_IO_WRITE_FAILED before anything handed over goes back.
// Refused calls (Async\AsyncException, NULL) give back what was handed
// over at once.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_IO_STREAM_IO_H_
#define ZAR_CORE_IO_STREAM_IO_H_

#include "core/io/io_handle.h"

namespace zar::core::io {

zend_async_io_req_t* StreamRead(IoHandle* io, IoRequest* req);

zend_async_io_req_t* StreamWrite(IoHandle* io, IoRequest* req);

// `bufs` are zend_string* (ZSTR) or zend_async_buf_t (IOV); nbufs > 0;
// `awaited` only with ZSTR.
zend_async_io_req_t* StreamWritev(IoHandle* io, const void* bufs,
                                  unsigned nbufs, bool iov_mode, bool awaited,
                                  zend_async_io_write_free_cb_t free_cb,
                                  void* user_data);

}  // namespace zar::core::io

#endif  // ZAR_CORE_IO_STREAM_IO_H_
