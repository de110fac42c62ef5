// zend-async-ref core: UDP handles (uv_udp_t): bind, send, receive,
// membership, and the socket options of UDP and TCP handles.
//
// udp_bind: a UDP handle bound to host:port (an IPv6 literal when host has
// a ':'), READABLE and WRITABLE. Flags: ZEND_ASYNC_UDP_F_IPV6ONLY;
// _REUSEPORT where libuv has it (1.49 and later; ignored before);
// _RECV_GSO ignored. Errors (Async\AsyncException, NULL returned): "Failed to
// initialize UDP handle: ...", "Failed to parse UDP address <host>:<port>:
// ...", "Failed to bind UDP socket to <host>:<port>: ...", "Failed to resolve
// UDP socket descriptor: ...".
//
// sendto: the datagram is queued (libuv copies nothing: `buf` must live
// until the completion); the completion sets `transferred` to its size or
// an Async\InputOutputException "UDP send failed: ..." and is notified on
// the handle. try_send: one sendmsg now; the bytes sent, -EAGAIN when the
// socket buffer is full, -EBADF on a closed handle, -ENOTSOCK on another
// type, or libuv's negative error.
//
// recvfrom: one receive in flight per handle (IoHandle::active), into a
// buffer of max_size bytes the request owns; the completion gives the
// bytes, the sender's address and length, or "UDP recv failed: ...". An
// empty datagram is skipped. ZEND_ASYNC_IO_F_MULTISHOT keeps receiving
// into the same request (each datagram notified with `completed` false).
//
// A send disposed before its callback is freed by the callback (libuv
// cannot take a queued datagram back).
//
// Threading: the request's thread.

#ifndef ZAR_CORE_IO_UDP_IO_H_
#define ZAR_CORE_IO_UDP_IO_H_

#include <sys/socket.h>
#include <sys/types.h>

#include "core/io/io_handle.h"

namespace zar::core::io {

zend_async_io_t* UdpBind(const char* host, int port, uint32_t flags,
                         size_t extra_size);
zend_async_udp_req_t* UdpSendTo(IoHandle* io, const char* buf, size_t count,
                                const struct sockaddr* addr,
                                socklen_t addr_len);
ssize_t UdpTrySend(IoHandle* io, const char* buf, size_t count,
                   const struct sockaddr* addr);
zend_async_udp_req_t* UdpRecvFrom(IoHandle* io, size_t max_size);
int UdpSetMembership(IoHandle* io, const char* multicast_addr,
                     const char* interface_addr, bool join);
// set_option: 0 or libuv's negative error; an option that does not apply
// to the handle's type is accepted and ignored (0); an unknown one is -1.
int SetOption(IoHandle* io, zend_async_socket_option_t option, int value);

}  // namespace zar::core::io

#endif  // ZAR_CORE_IO_UDP_IO_H_
