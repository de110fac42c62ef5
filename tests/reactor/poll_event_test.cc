// Poll and socket events on a socketpair: readiness, the triggered mask,
// disconnect, descriptors, CLOSE_FD.

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

class PollEventTest : public ReactorTest {};

zend_async_poll_event_t* StartedSocketEvent(int fd, int events,
                                            NotificationLog* log) {
  zend_async_poll_event_t* poll =
      ZEND_ASYNC_NEW_SOCKET_EVENT(fd, static_cast<async_poll_event>(events));
  AddRecorder(&poll->base, log, "poll", ResultKind::kPollMask);
  EXPECT_TRUE(poll->base.start(&poll->base));
  return poll;
}

TEST_F(PollEventTest, ReadableOnlyAfterTheRightEndWrites) {
  SocketPair sockets;
  NotificationLog log;
  zend_async_poll_event_t* poll =
      StartedSocketEvent(sockets.left(), ASYNC_READABLE, &log);
  EXPECT_TRUE(poll->is_socket);
  EXPECT_EQ(poll->socket, sockets.left());
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);

  EXPECT_TRUE(ZEND_ASYNC_REACTOR_EXECUTE(true));
  EXPECT_TRUE(log.empty());

  sockets.WriteRight();
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  EXPECT_EQ(log[0].value, ASYNC_READABLE);
  EXPECT_EQ(poll->triggered_events, ASYNC_READABLE);
  EXPECT_FALSE(log[0].closed);
  EXPECT_EQ(log[0].exception, "");
  // A poll event stays started after a notification.
  EXPECT_EQ(poll->base.loop_ref_count, 1u);
  EXPECT_FALSE(ZEND_ASYNC_EVENT_IS_CLOSED(&poll->base));
  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
}

TEST_F(PollEventTest, WritableAtOnceOnAnEmptySocket) {
  SocketPair sockets;
  NotificationLog log;
  zend_async_poll_event_t* poll =
      StartedSocketEvent(sockets.left(), ASYNC_WRITABLE, &log);

  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  EXPECT_EQ(log[0].value, ASYNC_WRITABLE);
  EXPECT_EQ(poll->triggered_events, ASYNC_WRITABLE);
  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
}

TEST_F(PollEventTest, TriggeredMaskIsTheReadinessSeen) {
  SocketPair sockets;
  NotificationLog log;
  sockets.WriteRight();
  zend_async_poll_event_t* poll =
      StartedSocketEvent(sockets.left(), ASYNC_READABLE | ASYNC_WRITABLE, &log);

  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  EXPECT_EQ(log[0].value, ASYNC_READABLE | ASYNC_WRITABLE);
  EXPECT_EQ(poll->triggered_events, ASYNC_READABLE | ASYNC_WRITABLE);
  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
}

TEST_F(PollEventTest, DisconnectWhenThePeerCloses) {
  SocketPair sockets;
  NotificationLog log;
  zend_async_poll_event_t* poll = StartedSocketEvent(
      sockets.left(), ASYNC_READABLE | ASYNC_DISCONNECT, &log);
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_EXECUTE(true));
  EXPECT_TRUE(log.empty());

  sockets.CloseRight();
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  EXPECT_NE(log[0].value & ASYNC_DISCONNECT, 0);
  EXPECT_EQ(poll->triggered_events, log[0].value);
  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
}

TEST_F(PollEventTest, StoppedPollIsNotNotified) {
  SocketPair sockets;
  NotificationLog log;
  zend_async_poll_event_t* poll =
      StartedSocketEvent(sockets.left(), ASYNC_WRITABLE, &log);
  EXPECT_TRUE(poll->base.stop(&poll->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);

  EXPECT_FALSE(ZEND_ASYNC_REACTOR_EXECUTE(false));
  EXPECT_TRUE(log.empty());
  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
}

TEST_F(PollEventTest, PollEventOnADescriptorAndItsInfo) {
  SocketPair sockets;
  zend_async_poll_event_t* by_fd = ZEND_ASYNC_NEW_POLL_EVENT(
      sockets.left(), 0, static_cast<async_poll_event>(ASYNC_READABLE));
  zend_async_poll_event_t* by_socket = ZEND_ASYNC_NEW_POLL_EVENT(
      ZEND_FD_NULL, sockets.right(),
      static_cast<async_poll_event>(ASYNC_READABLE | ASYNC_WRITABLE));

  EXPECT_FALSE(by_fd->is_socket);
  EXPECT_EQ(by_fd->file, sockets.left());
  EXPECT_TRUE(by_socket->is_socket);
  // An upstream fact: php-async's libuv reactor writes this very info().
  EXPECT_EQ(InfoOf(&by_fd->base),
            "Poll(fd=" + std::to_string(sockets.left()) + ", events=r)");
  EXPECT_EQ(InfoOf(&by_socket->base),
            "Poll(socket=" + std::to_string(sockets.right()) + ", events=rw)");

  NotificationLog log;
  AddRecorder(&by_fd->base, &log, "fd", ResultKind::kPollMask);
  ASSERT_TRUE(by_fd->base.start(&by_fd->base));
  sockets.WriteRight();
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));
  EXPECT_EQ(log[0].value, ASYNC_READABLE);
  ZEND_ASYNC_EVENT_RELEASE(&by_fd->base);
  ZEND_ASYNC_EVENT_RELEASE(&by_socket->base);
}

TEST_F(PollEventTest, NoDescriptorThrowsAndReturnsNull) {
  EXPECT_EQ(ZEND_ASYNC_NEW_POLL_EVENT(ZEND_FD_NULL, 0, ASYNC_READABLE),
            nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Failed to initialize poll handle: bad file "
            "descriptor");
}

TEST_F(PollEventTest, CloseFdClosesTheDescriptorOnceTheHandleIsClosed) {
  SocketPair sockets;
  const int fd = dup(sockets.left());
  ASSERT_GE(fd, 0);
  zend_async_poll_event_t* poll =
      ZEND_ASYNC_NEW_SOCKET_EVENT(fd, ASYNC_READABLE);
  ZEND_ASYNC_EVENT_SET_CLOSE_FD(&poll->base);

  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
  ZEND_ASYNC_REACTOR_EXECUTE(true);

  errno = 0;
  EXPECT_EQ(fcntl(fd, F_GETFD), -1);
  EXPECT_EQ(errno, EBADF);
}

}  // namespace
}  // namespace zar::reactor_testing
