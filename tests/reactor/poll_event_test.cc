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

class PollEventTest : public ReactorTest {
 protected:
  // A socket event on sockets_.left() for `events`, recorded into log_ as
  // "poll" (with the mask), started.
  zend_async_poll_event_t* StartedOnLeft(int events) {
    zend_async_poll_event_t* poll = ZEND_ASYNC_NEW_SOCKET_EVENT(
        sockets_.left(), static_cast<async_poll_event>(events));
    AddRecorder(&poll->base, &log_, "poll", ResultKind::kPollMask);
    EXPECT_TRUE(poll->base.start(&poll->base));
    return poll;
  }

  SocketPair sockets_;
  NotificationLog log_;
};

TEST_F(PollEventTest, ReadableOnlyAfterTheRightEndWrites) {
  zend_async_poll_event_t* poll = StartedOnLeft(ASYNC_READABLE);
  EXPECT_TRUE(poll->is_socket);
  EXPECT_EQ(poll->socket, sockets_.left());
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);

  EXPECT_TRUE(ZEND_ASYNC_REACTOR_EXECUTE(true));
  EXPECT_TRUE(log_.empty());

  sockets_.WriteRight();
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));

  EXPECT_EQ(log_[0].value, ASYNC_READABLE);
  EXPECT_EQ(poll->triggered_events, ASYNC_READABLE);
  EXPECT_FALSE(log_[0].closed);
  EXPECT_EQ(log_[0].exception, "");
  // A poll event stays started after a notification.
  EXPECT_EQ(poll->base.loop_ref_count, 1u);
  EXPECT_FALSE(ZEND_ASYNC_EVENT_IS_CLOSED(&poll->base));
  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
}

TEST_F(PollEventTest, WritableAtOnceOnAnEmptySocket) {
  zend_async_poll_event_t* poll = StartedOnLeft(ASYNC_WRITABLE);

  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));

  EXPECT_EQ(log_[0].value, ASYNC_WRITABLE);
  EXPECT_EQ(poll->triggered_events, ASYNC_WRITABLE);
  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
}

TEST_F(PollEventTest, TriggeredMaskIsTheReadinessSeen) {
  sockets_.WriteRight();
  zend_async_poll_event_t* poll =
      StartedOnLeft(ASYNC_READABLE | ASYNC_WRITABLE);

  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));

  EXPECT_EQ(log_[0].value, ASYNC_READABLE | ASYNC_WRITABLE);
  EXPECT_EQ(poll->triggered_events, ASYNC_READABLE | ASYNC_WRITABLE);
  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
}

TEST_F(PollEventTest, DisconnectWhenThePeerCloses) {
  zend_async_poll_event_t* poll =
      StartedOnLeft(ASYNC_READABLE | ASYNC_DISCONNECT);
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_EXECUTE(true));
  EXPECT_TRUE(log_.empty());

  sockets_.CloseRight();
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));

  EXPECT_NE(log_[0].value & ASYNC_DISCONNECT, 0);
  EXPECT_EQ(poll->triggered_events, log_[0].value);
  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
}

TEST_F(PollEventTest, StoppedPollIsNotNotified) {
  zend_async_poll_event_t* poll = StartedOnLeft(ASYNC_WRITABLE);
  EXPECT_TRUE(poll->base.stop(&poll->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);

  EXPECT_FALSE(ZEND_ASYNC_REACTOR_EXECUTE(false));
  EXPECT_TRUE(log_.empty());
  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
}

TEST_F(PollEventTest, PollEventOnADescriptorAndItsInfo) {
  zend_async_poll_event_t* by_fd = ZEND_ASYNC_NEW_POLL_EVENT(
      sockets_.left(), 0, static_cast<async_poll_event>(ASYNC_READABLE));
  zend_async_poll_event_t* by_socket = ZEND_ASYNC_NEW_POLL_EVENT(
      ZEND_FD_NULL, sockets_.right(),
      static_cast<async_poll_event>(ASYNC_READABLE | ASYNC_WRITABLE));

  EXPECT_FALSE(by_fd->is_socket);
  EXPECT_EQ(by_fd->file, sockets_.left());
  EXPECT_TRUE(by_socket->is_socket);
  // An upstream fact: php-async's libuv reactor writes this very info().
  EXPECT_EQ(InfoOf(&by_fd->base),
            "Poll(fd=" + std::to_string(sockets_.left()) + ", events=r)");
  EXPECT_EQ(InfoOf(&by_socket->base),
            "Poll(socket=" + std::to_string(sockets_.right()) + ", events=rw)");

  AddRecorder(&by_fd->base, &log_, "fd", ResultKind::kPollMask);
  ASSERT_TRUE(by_fd->base.start(&by_fd->base));
  sockets_.WriteRight();
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));
  EXPECT_EQ(log_[0].value, ASYNC_READABLE);
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
  const int fd = dup(sockets_.left());
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
