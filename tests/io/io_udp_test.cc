// Async IO on UDP handles over loopback: bind, sendto, try_send, recvfrom,
// membership and options.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "gtest/gtest.h"
#include "tests/io/support/io_test.h"

namespace zar::io_testing {
namespace {

class IoUdpTest : public IoTest {
 protected:
  // Binds receiver_ and sender_ to 127.0.0.1, each on a port of its own;
  // false when either bind failed.
  bool BindReceiverAndSender() {
    receiver_ = ZEND_ASYNC_UDP_BIND("127.0.0.1", 0);
    sender_ = ZEND_ASYNC_UDP_BIND("127.0.0.1", 0);
    return receiver_ != nullptr && sender_ != nullptr;
  }
  void ReleaseReceiverAndSender() {
    ZEND_ASYNC_EVENT_RELEASE(&receiver_->event);
    ZEND_ASYNC_EVENT_RELEASE(&sender_->event);
  }

  zend_async_io_t* receiver_ = nullptr;
  zend_async_io_t* sender_ = nullptr;
};

// The port a bound handle got (bound to port 0).
int PortOf(zend_async_io_t* io) {
  struct sockaddr_in address;
  socklen_t length = sizeof(address);
  EXPECT_EQ(getsockname(io->descriptor.socket,
                        reinterpret_cast<sockaddr*>(&address), &length),
            0);
  return ntohs(address.sin_port);
}

TEST_F(IoUdpTest, BindGivesAReadableWritableUdpHandle) {
  zend_async_io_t* io = ZEND_ASYNC_UDP_BIND("127.0.0.1", 0);
  ASSERT_NE(io, nullptr);
  EXPECT_EQ(io->type, ZEND_ASYNC_IO_TYPE_UDP);
  EXPECT_EQ(io->state, static_cast<uint32_t>(ZEND_ASYNC_IO_READABLE |
                                             ZEND_ASYNC_IO_WRITABLE));
  EXPECT_GT(PortOf(io), 0);
  EXPECT_EQ(
      InfoOf(&io->event),
      "IO(type=udp, socket=" + std::to_string(io->descriptor.socket) + ")");
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoUdpTest, BindRefusesABadAddressAndABusyPort) {
  EXPECT_EQ(ZEND_ASYNC_UDP_BIND("not-an-ip", 9), nullptr);
  EXPECT_EQ(
      TakeExceptionText(),
      "Async\\AsyncException: Failed to parse UDP address not-an-ip:9: invalid "
      "argument");
  zend_async_io_t* first = ZEND_ASYNC_UDP_BIND("127.0.0.1", 0);
  ASSERT_NE(first, nullptr);
  const int port = PortOf(first);
  EXPECT_EQ(ZEND_ASYNC_UDP_BIND("127.0.0.1", port), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Failed to bind UDP socket to 127.0.0.1:" +
                std::to_string(port) + ": address already in use");
  ZEND_ASYNC_EVENT_RELEASE(&first->event);
}

TEST_F(IoUdpTest, ADatagramSentToABoundHandleArrivesWithItsSender) {
  ASSERT_TRUE(BindReceiverAndSender());
  IoLog received;
  IoLog sent;
  AddIoRecorder(receiver_, &received, /*udp=*/true);
  AddIoRecorder(sender_, &sent, /*udp=*/true);

  zend_async_udp_req_t* recv = ZEND_ASYNC_UDP_RECVFROM(receiver_, 64);
  ASSERT_NE(recv, nullptr);
  const struct sockaddr_in to = LoopbackAddress(PortOf(receiver_));
  zend_async_udp_req_t* send =
      ZEND_ASYNC_UDP_SENDTO(sender_, "datagram", 8,
                            reinterpret_cast<const sockaddr*>(&to), sizeof(to));
  ASSERT_NE(send, nullptr);
  EXPECT_TRUE(
      Drive(receiver_, [&] { return recv->completed && send->completed; }));

  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].result, send);
  EXPECT_EQ(send->transferred, 8);
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].result, recv);
  EXPECT_EQ(recv->transferred, 8);
  EXPECT_EQ(std::string(recv->buf, 8), "datagram");
  EXPECT_EQ(recv->addr_len, sizeof(struct sockaddr_in));
  const auto* from = reinterpret_cast<const sockaddr_in*>(&recv->addr);
  EXPECT_EQ(ntohs(from->sin_port), PortOf(sender_));
  recv->dispose(recv);
  send->dispose(send);
  ReleaseReceiverAndSender();
}

TEST_F(IoUdpTest, TrySendSendsAtOnceAndAnswersErrorsAsNegativeErrno) {
  ASSERT_TRUE(BindReceiverAndSender());
  const struct sockaddr_in to = LoopbackAddress(PortOf(receiver_));
  EXPECT_EQ(ZEND_ASYNC_UDP_TRY_SEND(sender_, "now", 3,
                                    reinterpret_cast<const sockaddr*>(&to),
                                    sizeof(to)),
            3);
  char buf[8];
  EXPECT_EQ(recv(receiver_->descriptor.socket, buf, sizeof(buf), 0), 3);

  StreamPair pair;
  zend_async_io_t* stream = pair.HandleOnA(0);
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(
      ZEND_ASYNC_UDP_TRY_SEND(
          stream, "x", 1, reinterpret_cast<const sockaddr*>(&to), sizeof(to)),
      -ENOTSOCK);
  EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(sender_));
  EXPECT_EQ(
      ZEND_ASYNC_UDP_TRY_SEND(
          sender_, "x", 1, reinterpret_cast<const sockaddr*>(&to), sizeof(to)),
      -EBADF);
  ZEND_ASYNC_EVENT_RELEASE(&stream->event);
  ReleaseReceiverAndSender();
}

TEST_F(IoUdpTest, UdpCallsOnOtherHandlesOrClosedOnesAreRefused) {
  StreamPair pair;
  zend_async_io_t* stream = pair.HandleOnA(0);
  ASSERT_NE(stream, nullptr);
  const struct sockaddr_in to = LoopbackAddress(9);
  EXPECT_EQ(
      ZEND_ASYNC_UDP_SENDTO(stream, "x", 1,
                            reinterpret_cast<const sockaddr*>(&to), sizeof(to)),
      nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: IO handle is not UDP type");
  EXPECT_EQ(ZEND_ASYNC_UDP_RECVFROM(stream, 8), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: IO handle is not UDP type");
  EXPECT_EQ(ZEND_ASYNC_UDP_SET_MEMBERSHIP(stream, "239.0.0.1", nullptr, true),
            -1);

  zend_async_io_t* udp = ZEND_ASYNC_UDP_BIND("127.0.0.1", 0);
  ASSERT_NE(udp, nullptr);
  EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(udp));
  EXPECT_EQ(
      ZEND_ASYNC_UDP_SENDTO(udp, "x", 1, reinterpret_cast<const sockaddr*>(&to),
                            sizeof(to)),
      nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Cannot send to closed UDP socket");
  EXPECT_EQ(ZEND_ASYNC_UDP_RECVFROM(udp, 8), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Cannot receive from closed UDP socket");
  ZEND_ASYNC_EVENT_RELEASE(&udp->event);
  ZEND_ASYNC_EVENT_RELEASE(&stream->event);
}

TEST_F(IoUdpTest, OptionsApplyToUdpAndAreIgnoredWhereTheyDoNot) {
  zend_async_io_t* udp = ZEND_ASYNC_UDP_BIND("127.0.0.1", 0);
  ASSERT_NE(udp, nullptr);
  EXPECT_EQ(ZEND_ASYNC_IO_SET_OPTION(udp, ZEND_ASYNC_SOCKET_OPT_BROADCAST, 1),
            0);
  EXPECT_EQ(ZEND_ASYNC_IO_SET_OPTION(udp, ZEND_ASYNC_SOCKET_OPT_TTL, 16), 0);
  EXPECT_EQ(
      ZEND_ASYNC_IO_SET_OPTION(udp, ZEND_ASYNC_SOCKET_OPT_MULTICAST_TTL, 2), 0);
  EXPECT_EQ(
      ZEND_ASYNC_IO_SET_OPTION(udp, ZEND_ASYNC_SOCKET_OPT_MULTICAST_LOOP, 1),
      0);
  EXPECT_EQ(ZEND_ASYNC_IO_SET_OPTION(udp, ZEND_ASYNC_SOCKET_OPT_NODELAY, 1), 0);
  // An address that is not a multicast group: libuv's error, negative.
  EXPECT_LT(ZEND_ASYNC_UDP_SET_MEMBERSHIP(udp, "127.0.0.1", nullptr, true), 0);
  ZEND_ASYNC_EVENT_RELEASE(&udp->event);
}

TEST_F(IoUdpTest, CloseWakesAReceiveInFlightAndItsOwnerDisposesIt) {
  zend_async_io_t* udp = ZEND_ASYNC_UDP_BIND("127.0.0.1", 0);
  ASSERT_NE(udp, nullptr);
  IoLog log;
  AddIoRecorder(udp, &log, /*udp=*/true);
  zend_async_udp_req_t* recv = ZEND_ASYNC_UDP_RECVFROM(udp, 16);
  ASSERT_NE(recv, nullptr);
  EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(udp));
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].exception, "Async\\InputOutputException: Stream was closed");
  EXPECT_TRUE(recv->io_closed);
  EXPECT_TRUE(recv->completed);
  ZEND_ASYNC_EVENT_RELEASE(&udp->event);
  recv->dispose(recv);
}

TEST_F(IoUdpTest, ASendDisposedBeforeItsCallbackIsFreedByTheCallback) {
  zend_async_io_t* receiver = ZEND_ASYNC_UDP_BIND("127.0.0.1", 0);
  zend_async_io_t* sender = ZEND_ASYNC_UDP_BIND("127.0.0.1", 0);
  ASSERT_NE(receiver, nullptr);
  ASSERT_NE(sender, nullptr);
  IoLog sent;
  AddIoRecorder(sender, &sent, /*udp=*/true);
  const struct sockaddr_in to = LoopbackAddress(PortOf(receiver));
  zend_async_udp_req_t* send = ZEND_ASYNC_UDP_SENDTO(
      sender, "gone", 4, reinterpret_cast<const sockaddr*>(&to), sizeof(to));
  ASSERT_NE(send, nullptr);
  send->dispose(send);  // fire-and-forget
  RunUntil([] { return false; }, 5);
  EXPECT_TRUE(sent.empty());
  char buf[8];
  EXPECT_EQ(recv(receiver->descriptor.socket, buf, sizeof(buf), MSG_DONTWAIT),
            4);
  ZEND_ASYNC_EVENT_RELEASE(&receiver->event);
  ZEND_ASYNC_EVENT_RELEASE(&sender->event);
}

}  // namespace
}  // namespace zar::io_testing
