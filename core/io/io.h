// zend-async-ref core: IO on libuv, seen from the rest of core/.
//
// core/io/ holds two of the ABI's register groups, php-async's
// libuv_reactor.c sections "Async IO" and "Socket Listening API":
//   io.{h,cc}            registration of both groups, from the extension's
//                        MINIT
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
// requests are events of the request's loop (core/reactor/reactor_loop.h)
// and are closed with it at request end.
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
