// zend-async-ref core: operations on FILE handles, run in libuv's thread
// pool (uv_fs_*), and the calls that only files support: fs_open,
// sendfile, seek.
//
// Reads and writes use the descriptor's own position (read(2)/write(2),
// never pread/pwrite), so descriptors dup'd from the same file stay in
// step; the handle's file_offset follows the kernel's position after each.
// At most one write of a handle is in flight: the others wait in a FIFO
// and are dispatched one by one as each completes (a write that cannot even
// be submitted completes with Async\InputOutputException "Failed to start
// file write: <libuv message>" and is notified in its turn; the first one
// is returned completed). Completions: `transferred` bytes (0 at end of
// file; EOF is not set for files), or -1 with "File read error: ...",
// "File write error: ...", "File flush error: ...", "File stat error: ...".
// A write that fails or cannot be submitted marks the handle
// ZEND_ASYNC_IO_WRITE_FAILED.
//
// fs_open: returns at once a pending FILE handle (no descriptor, state 0);
// the open completes on its event with result NULL: success gives it the
// descriptor, ZEND_ASYNC_IO_READABLE and ZEND_ASYNC_IO_OWNS_FD; failure
// sets CLOSED and EOF and notifies "Open error: <libuv message>". The
// pending handle holds a reference until then, so a caller that releases
// it early leaks nothing (a descriptor opened for nobody is closed).
//
// sendfile: copies `length` bytes of a FILE handle (from `offset`, or its
// position with -1) to any handle's descriptor in the kernel
// (uv_fs_sendfile), resubmitting after short transfers. It completes on the
// source's event with the bytes sent; a failure with nothing sent gives -1,
// with something sent the count; its exception reads "Sendfile: ..." (or
// "Sendfile resubmit: ..." when a resubmission is refused).
//
// Threading: the request's thread; uv_fs work runs on libuv's threads and
// completes on the request's thread.

#ifndef ZAR_CORE_IO_FILE_IO_H_
#define ZAR_CORE_IO_FILE_IO_H_

#include "core/io/io_handle.h"

namespace zar::core::io {

zend_async_io_req_t* FileRead(IoHandle* io, IoRequest* req);
zend_async_io_req_t* FileWrite(IoHandle* io, IoRequest* req);
zend_async_io_req_t* FileFlush(IoHandle* io);
zend_async_io_req_t* FileStat(IoHandle* io, zend_stat_t* buf);
zend_off_t FileSeek(IoHandle* io, zend_off_t offset, int whence);
zend_async_io_req_t* Sendfile(IoHandle* out, IoHandle* in, zend_off_t offset,
                              size_t length);
zend_async_io_t* FsOpen(const char* path, int flags, int mode);

}  // namespace zar::core::io

#endif  // ZAR_CORE_IO_FILE_IO_H_
