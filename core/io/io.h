// zend-async-ref core: IO on libuv, seen from the rest of core/.
//
// core/io/ holds two of the ABI's register groups, php-async's
// libuv_reactor.c sections "Async IO" and "Socket Listening API":
//   io.{h,cc}            the groups' ABI entries and their registration,
//                        from the extension's MINIT
//   io_handle.{h,cc}     a handle (zend_async_io_t, a reactor event):
//                        creation, close, dispose, notification
//   io_request.{h,cc}    its requests: allocation, failure, dispose
//   stream_io.{h,cc}     reads and writes of PIPE, TTY and TCP handles
//   file_io.{h,cc}       FILE handles in libuv's thread pool: read, write,
//                        flush, stat, seek, sendfile, fs_open
//   udp_io.{h,cc}        UDP handles: bind, send, receive, membership, and
//                        the socket options
//   listen_event.{h,cc}  listening sockets: socket_listen, socket_listen_fd
//
// Both groups register under the reactor's module name (kReactorModuleName),
// as php-async registers its reactor, listening and IO under one name. The
// ABI holds the socket-listening lock after the first success, so only the
// first registration in a process succeeds; MINIT ignores both results, as
// upstream's does.
//
// Everything else reaches these groups only through the ABI
// (ZEND_ASYNC_IO_*, ZEND_ASYNC_UDP_*, ZEND_ASYNC_SOCKET_LISTEN*). Handles and
// listeners are events of the request's loop (core/reactor/reactor_loop.h)
// and are closed with it at request end; requests complete on their
// handle's event (docs/io.md).
//
// Threading: all functions run on the request's thread.

#ifndef ZAR_CORE_IO_IO_H_
#define ZAR_CORE_IO_IO_H_

namespace zar::core {

// Registers zend_async_io_register's 17 functions. Called from the
// extension's MINIT. Returns the register function's result.
bool RegisterIo();

// Registers zend_async_socket_listening_register's 2 functions. Called
// from the extension's MINIT. Returns the register function's result.
bool RegisterSocketListening();

}  // namespace zar::core

#endif  // ZAR_CORE_IO_IO_H_
