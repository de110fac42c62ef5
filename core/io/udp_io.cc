#include "core/io/udp_io.h"

#include <cerrno>
#include <cstring>

namespace zar::core::io {
namespace {

IoHandle* FromUvHandle(uv_handle_t* handle) {
  auto* core = static_cast<reactor::EventCore*>(handle->data);
  return IoHandle::FromAbi(core->event);
}

void OnSent(uv_udp_send_t* send, int status) {
  auto* req = static_cast<UdpRequest*>(send->data);
  req->abi.flags |= ZEND_ASYNC_UDP_REQ_F_CALLBACK_DONE;
  // Its owner left (fire-and-forget): the dispose it asked for ends here.
  if ((req->abi.flags & ZEND_ASYNC_UDP_REQ_F_DISPOSE_PENDING) != 0) {
    DisposeUdpRequest(&req->abi);
    return;
  }
  IoHandle* io = req->io;
  if (status < 0) {
    req->abi.exception =
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT,
                                 "UDP send failed: %s", uv_strerror(status));
  } else {
    req->abi.transferred = static_cast<ssize_t>(req->max_size);
  }
  req->abi.completed = true;
  req->io = nullptr;  // its owner may dispose it after the handle is gone
  if (!io->core.destroyed) {
    NotifyRequest(io, req);
  }
}

void AllocDatagram(uv_handle_t* handle, size_t, uv_buf_t* out) {
  IoHandle* io = FromUvHandle(handle);
  auto* abi = static_cast<zend_async_udp_req_t*>(io->active);
  if (abi == nullptr || abi->buf == nullptr) {
    out->base = nullptr;
    out->len = 0;
    return;
  }
  out->base = abi->buf;
  out->len = UdpRequest::FromAbi(abi)->max_size;
}

void OnDatagram(uv_udp_t* handle, ssize_t nread, const uv_buf_t*,
                const struct sockaddr* addr, unsigned) {
  // Nothing to read (addr NULL) or an empty datagram: keep waiting.
  if (nread == 0) {
    return;
  }
  IoHandle* io = FromUvHandle(reinterpret_cast<uv_handle_t*>(handle));
  auto* abi = static_cast<zend_async_udp_req_t*>(io->active);
  if (abi == nullptr) {
    return;
  }
  const bool multishot = ZEND_ASYNC_IO_IS_MULTISHOT(&io->abi);
  const bool terminal = nread < 0;
  if (!multishot || terminal) {
    uv_udp_recv_stop(handle);
    io->active = nullptr;
  }
  if (terminal) {
    abi->exception = zend_async_new_exception(
        ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT, "UDP recv failed: %s",
        uv_strerror(static_cast<int>(nread)));
  } else {
    abi->transferred = nread;
    if (addr != nullptr) {
      abi->addr_len = addr->sa_family == AF_INET ? sizeof(struct sockaddr_in)
                                                 : sizeof(struct sockaddr_in6);
      std::memcpy(&abi->addr, addr, abi->addr_len);
    }
  }
  abi->completed = !multishot || terminal;
  if (abi->completed) {
    UdpRequest::FromAbi(abi)->io = nullptr;
  }
  NotifyRequest(io, UdpRequest::FromAbi(abi));
}

UdpRequest* NewUdpRequest(IoHandle* io, const char* op, size_t max_size) {
  auto* req = static_cast<UdpRequest*>(ecalloc(1, sizeof(UdpRequest)));
  req->abi.dispose = DisposeUdpRequest;
  req->op = op;
  req->io = io;
  req->max_size = max_size;
  return req;
}

}  // namespace

zend_async_io_t* UdpBind(const char* host, int port, uint32_t flags,
                         size_t extra_size) {
  struct sockaddr_storage addr;
  const int parsed =
      std::strchr(host, ':') != nullptr
          ? uv_ip6_addr(host, port, reinterpret_cast<sockaddr_in6*>(&addr))
          : uv_ip4_addr(host, port, reinterpret_cast<sockaddr_in*>(&addr));
  IoHandle* io = NewUdpHandle(extra_size);
  if (io == nullptr) {
    return nullptr;
  }
  auto refuse = [&](const char* format, int error) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, format, host, port,
                     uv_strerror(error));
    io->abi.event.dispose(&io->abi.event);
    return nullptr;
  };
  if (parsed < 0) {
    return refuse("Failed to parse UDP address %s:%d: %s", parsed);
  }
  unsigned bind_flags = 0;
#if UV_VERSION_HEX >= ((1 << 16) | (49 << 8))
  if ((flags & ZEND_ASYNC_UDP_F_REUSEPORT) != 0) bind_flags |= UV_UDP_REUSEPORT;
#endif
  if ((flags & ZEND_ASYNC_UDP_F_IPV6ONLY) != 0) bind_flags |= UV_UDP_IPV6ONLY;
  int error = uv_udp_bind(&io->handle.udp,
                          reinterpret_cast<const sockaddr*>(&addr), bind_flags);
  if (error < 0) {
    return refuse("Failed to bind UDP socket to %s:%d: %s", error);
  }
  uv_os_fd_t fd;
  error = uv_fileno(reinterpret_cast<uv_handle_t*>(&io->handle.udp), &fd);
  if (error < 0) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to resolve UDP socket descriptor: %s",
                     uv_strerror(error));
    io->abi.event.dispose(&io->abi.event);
    return nullptr;
  }
  io->fd = fd;
  io->abi.descriptor.socket = fd;
  return &io->abi;
}

zend_async_udp_req_t* UdpSendTo(IoHandle* io, const char* buf, size_t count,
                                const struct sockaddr* addr,
                                socklen_t addr_len) {
  UdpRequest* req = NewUdpRequest(io, "sendto", count);
  req->is_send = true;
  if (addr != nullptr && addr_len <= sizeof(req->abi.addr)) {
    std::memcpy(&req->abi.addr, addr, addr_len);
    req->abi.addr_len = addr_len;
  }
  uv_buf_t data =
      uv_buf_init(const_cast<char*>(buf), static_cast<unsigned>(count));
  req->send.data = req;
  const int error =
      uv_udp_send(&req->send, &io->handle.udp, &data, 1, addr, OnSent);
  if (error < 0) {
    // No callback will come.
    req->abi.flags |= ZEND_ASYNC_UDP_REQ_F_CALLBACK_DONE;
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to start UDP send: %s", uv_strerror(error));
    DisposeUdpRequest(&req->abi);
    return nullptr;
  }
  return &req->abi;
}

ssize_t UdpTrySend(IoHandle* io, const char* buf, size_t count,
                   const struct sockaddr* addr) {
  uv_buf_t data =
      uv_buf_init(const_cast<char*>(buf), static_cast<unsigned>(count));
  const int sent = uv_udp_try_send(&io->handle.udp, &data, 1, addr);
  if (sent == UV_EAGAIN) return -EAGAIN;
  return sent;
}

zend_async_udp_req_t* UdpRecvFrom(IoHandle* io, size_t max_size) {
  if (io->active != nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to start UDP recv: %s", uv_strerror(UV_EALREADY));
    return nullptr;
  }
  UdpRequest* req = NewUdpRequest(io, "recvfrom", max_size);
  req->abi.buf = static_cast<char*>(emalloc(max_size > 0 ? max_size : 1));
  io->active = &req->abi;
  const int error =
      uv_udp_recv_start(&io->handle.udp, AllocDatagram, OnDatagram);
  if (error < 0) {
    io->active = nullptr;
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to start UDP recv: %s", uv_strerror(error));
    DisposeUdpRequest(&req->abi);
    return nullptr;
  }
  return &req->abi;
}

int UdpSetMembership(IoHandle* io, const char* multicast_addr,
                     const char* interface_addr, bool join) {
  return uv_udp_set_membership(&io->handle.udp, multicast_addr, interface_addr,
                               join ? UV_JOIN_GROUP : UV_LEAVE_GROUP);
}

int SetOption(IoHandle* io, zend_async_socket_option_t option, int value) {
  const bool udp = io->abi.type == ZEND_ASYNC_IO_TYPE_UDP;
  const bool tcp = io->abi.type == ZEND_ASYNC_IO_TYPE_TCP;
  switch (option) {
    case ZEND_ASYNC_SOCKET_OPT_BROADCAST:
      return udp ? uv_udp_set_broadcast(&io->handle.udp, value) : 0;
    case ZEND_ASYNC_SOCKET_OPT_MULTICAST_LOOP:
      return udp ? uv_udp_set_multicast_loop(&io->handle.udp, value) : 0;
    case ZEND_ASYNC_SOCKET_OPT_MULTICAST_TTL:
      return udp ? uv_udp_set_multicast_ttl(&io->handle.udp, value) : 0;
    case ZEND_ASYNC_SOCKET_OPT_TTL:
      return udp ? uv_udp_set_ttl(&io->handle.udp, value) : 0;
    case ZEND_ASYNC_SOCKET_OPT_NODELAY:
      return tcp ? uv_tcp_nodelay(&io->handle.tcp, value) : 0;
    case ZEND_ASYNC_SOCKET_OPT_KEEPALIVE:
      return tcp ? uv_tcp_keepalive(&io->handle.tcp, value, 60) : 0;
  }
  return -1;
}

}  // namespace zar::core::io
