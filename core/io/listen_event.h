// zend-async-ref core: listening sockets (zend_async_listen_event_t over a
// uv_tcp_t, or a uv_pipe_t for AF_UNIX), the two functions of
// zend_async_socket_listening_register.
//
// Creation binds (Listen) or adopts (ListenFd) the socket; nothing listens
// until the first start(), so a connection attempt before it is refused.
//
//   first start()   listen(2) with `backlog`; connections are accepted on
//                   the loop's passes.
//   stop()          (the last loop reference) pauses accepting: new
//                   connections stay in the kernel's backlog; at most one
//                   is taken off it and held by the reactor (libuv accepts
//                   one before it can tell the listener is paused).
//   later start()   resumes: a held connection is delivered on a later loop
//                   pass (never inside start()), then the backlog drains.
//                   A stop() before that pass wins: it stays held.
//   dispose         closes the socket and a held connection, without
//                   notifying.
//
// A connection notifies the callbacks with `result` a zend_socket_t* to a
// connected, non-blocking, close-on-exec socket of its own (a dup of the
// accepted one). The consumers own that socket: one of them closes it.
// With no callback registered the reactor closes it itself. An accept
// failure notifies with the socket -1 and Async\InputOutputException
// "Connection accept error: <libuv message>" (reported by libuv) or
// "Failed to accept connection: <libuv message>" (taking the connection
// over failed). A callback may stop or dispose the listener; a stop ends
// the delivery there.
//
// Errors (Async\AsyncException, NULL returned): "Failed to initialize pipe
// handle: %s", "Failed to bind AF_UNIX socket <path>: %s", "Failed to
// initialize TCP handle: %s", "Failed to parse address <host>:<port>: %s",
// "Failed to bind to <host>:<port>: %s", "Failed to get socket descriptor: %s"
// (Listen); "Failed to initialize handle: %s", "Failed to adopt listening
// socket fd: %s" (ListenFd); "Failed to start listening: %s" (start()).
//
// Threading: the request's thread. Ownership: each function returns the
// only reference (ref_count 1); ZEND_ASYNC_EVENT_RELEASE disposes it. The
// event owns its socket (for ListenFd: `fd`, from the call on, closed by the
// call itself when it returns NULL). An AF_UNIX path Listen bound is
// removed when the socket is closed (libuv unlinks it); a stale file at the
// path is not removed before binding (the bind fails: address already in
// use), and the path of an adopted socket stays: both are the caller's.

#ifndef ZAR_CORE_IO_LISTEN_EVENT_H_
#define ZAR_CORE_IO_LISTEN_EVENT_H_

#include <cstddef>
#include <cstdint>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::io {

// socket_listen (ZEND_ASYNC_SOCKET_LISTEN[_EX]). `host`: an IPv4 or IPv6
// literal (IPv6 when it holds a ':'), or with ZEND_ASYNC_LISTEN_F_UNIX a
// filesystem path (`port` ignored). Port 0 binds a free port
// (get_local_address tells which). Flags: ZEND_ASYNC_LISTEN_F_REUSEPORT
// (SO_REUSEPORT, TCP), ZEND_ASYNC_LISTEN_F_IPV6ONLY (IPV6_V6ONLY, TCP),
// ZEND_ASYNC_LISTEN_F_UNIX; other bits are ignored. abi.host is a copy of
// `host`. Returns nullptr with Async\AsyncException thrown on failure.
zend_async_listen_event_t* Listen(const char* host, int port, int backlog,
                                  uint32_t flags, size_t extra_size);

// socket_listen_fd (ZEND_ASYNC_SOCKET_LISTEN_FD): adopts a bound (usually
// already listening) socket; ZEND_ASYNC_LISTEN_F_UNIX for an AF_UNIX one.
// abi.host is NULL and abi.port 0; get_local_address asks the socket.
// Returns nullptr with Async\AsyncException thrown (and `fd` closed) on
// failure.
zend_async_listen_event_t* ListenFd(zend_socket_t fd, int backlog,
                                    uint32_t flags, size_t extra_size);

}  // namespace zar::core::io

#endif  // ZAR_CORE_IO_LISTEN_EVENT_H_
