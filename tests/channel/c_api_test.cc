// The channel through the ABI alone: ZEND_ASYNC_NEW_CHANNEL, the
// channel's send/receive/close, ZEND_ASYNC_NEW_CHANNEL_OBJ.

#include <gtest/gtest.h>

#include "tests/channel/support/channel_test.h"

namespace zar::channel_testing {
namespace {

using ChannelCApiTest = ChannelTest;

// Owns a channel made by ZEND_ASYNC_NEW_CHANNEL (released at scope end).
// Each test asserts `channel` before using it: an implementation without C
// channels fails there.
struct CChannel {
  explicit CChannel(size_t capacity)
      : channel(ZEND_ASYNC_NEW_CHANNEL(capacity, false, false)) {}
  ~CChannel() {
    if (channel != nullptr) ZEND_ASYNC_EVENT_RELEASE(&channel->event);
  }
  bool Send(zend_long value) {
    zval v;
    ZVAL_LONG(&v, value);
    return channel->send(channel, &v);
  }
  // The value received rendered, or the exception taken ("Class: message"),
  // or "cancelled" (false without an exception).
  std::string Receive(zend_async_event_t* cancellation = nullptr) {
    zval result;
    ZVAL_UNDEF(&result);
    if (!channel->receive(channel, &result, cancellation)) {
      return EG(exception) != nullptr ? TakeChannelException() : "cancelled";
    }
    std::string rendered = Render(&result);
    zval_ptr_dtor(&result);
    return rendered;
  }
  zend_async_channel_t* channel;
};

TEST_F(ChannelCApiTest, NewChannelHasEveryOperation) {
  EXPECT_TRUE(RunMain([&] {
    CChannel c(2);
    ASSERT_NE(c.channel, nullptr);
    EXPECT_NE(c.channel->send, nullptr);
    EXPECT_NE(c.channel->receive, nullptr);
    EXPECT_NE(c.channel->close, nullptr);
    EXPECT_FALSE(ZEND_ASYNC_EVENT_IS_CLOSED(&c.channel->event));
  }));
}

TEST_F(ChannelCApiTest, BufferedSendThenReceiveIsFifo) {
  EXPECT_TRUE(RunMain([&] {
    CChannel c(3);
    ASSERT_NE(c.channel, nullptr);
    for (zend_long i = 1; i <= 3; i++) EXPECT_TRUE(c.Send(i));
    for (int i = 0; i < 3; i++) log.push_back(c.Receive());
  }));
  EXPECT_EQ(Joined(log), "1 2 3");
}

TEST_F(ChannelCApiTest, UnbufferedSendParksUntilReceived) {
  EXPECT_TRUE(RunMain([&] {
    CChannel c(0);
    ASSERT_NE(c.channel, nullptr);
    Spawn([&] {
      log.push_back("sending");
      log.push_back(c.Send(5) ? "sent" : "failed");
    });
    Spawn([&] { log.push_back("got " + c.Receive()); });
    Yield();
    Yield();
  }));
  EXPECT_EQ(Joined(log), "sending got 5 sent");
}

TEST_F(ChannelCApiTest, CloseFailsSendAndReceiveWithTheException) {
  EXPECT_TRUE(RunMain([&] {
    CChannel c(1);
    ASSERT_NE(c.channel, nullptr);
    EXPECT_TRUE(c.Send(1));
    c.channel->close(c.channel);
    c.channel->close(c.channel);  // idempotent
    log.push_back(c.Send(2) ? "sent" : TakeChannelException());
    log.push_back(c.Receive());
    log.push_back(c.Receive());
  }));
  EXPECT_EQ(Joined(log),
            "Async\\ChannelException: Channel is closed 1 "
            "Async\\ChannelException: Channel is closed");
}

// receive with result NULL waits for a value without taking it.
TEST_F(ChannelCApiTest, ReceiveWithoutResultOnlyWaits) {
  EXPECT_TRUE(RunMain([&] {
    CChannel c(1);
    ASSERT_NE(c.channel, nullptr);
    Spawn([&] {
      log.push_back(c.channel->receive(c.channel, nullptr, nullptr) ? "ready"
                                                                    : "failed");
      log.push_back("count-after-wait=" + c.Receive());
    });
    Yield();
    log.push_back("sending");
    EXPECT_TRUE(c.Send(9));
    YieldTimes(2);  // c outlives the coroutine
  }));
  EXPECT_EQ(Joined(log), "sending ready count-after-wait=9");
}

// A fired cancellation ends the wait: false with no exception; the
// channel stays usable.
TEST_F(ChannelCApiTest, CancellationEndsTheWaitWithoutAnException) {
  EXPECT_TRUE(RunMain([&] {
    CChannel c(1);
    ASSERT_NE(c.channel, nullptr);
    zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(5, false);
    ASSERT_NE(timer, nullptr);
    Spawn([&] {
      log.push_back(c.Receive(&timer->base));
      EXPECT_TRUE(c.Send(3));
      log.push_back(c.Receive());
    });
    Delay(20);
    ZEND_ASYNC_EVENT_RELEASE(&timer->base);
  }));
  EXPECT_EQ(Joined(log), "cancelled 3");
}

TEST_F(ChannelCApiTest, CloseWakesEveryCWaiter) {
  EXPECT_TRUE(RunMain([&] {
    CChannel c(0);
    ASSERT_NE(c.channel, nullptr);
    Spawn([&] { log.push_back("r:" + c.Receive()); });
    Yield();
    c.channel->close(c.channel);
    Yield();
  }));
  EXPECT_EQ(Joined(log), "r:Async\\ChannelException: Channel is closed");
}

TEST_F(ChannelCApiTest, ExtraBytesFollowTheChannelZeroed) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_channel_t* channel =
        ZEND_ASYNC_NEW_CHANNEL_EX(0, false, false, 16);
    ASSERT_NE(channel, nullptr);
    ASSERT_GT(channel->event.extra_offset, 0u);
    const unsigned char* extra =
        reinterpret_cast<const unsigned char*>(channel) +
        channel->event.extra_offset;
    for (int i = 0; i < 16; i++) EXPECT_EQ(extra[i], 0) << i;
    ZEND_ASYNC_EVENT_RELEASE(&channel->event);
  }));
}

// The object for a C channel speaks to the same channel.
TEST_F(ChannelCApiTest, ObjectWrapsTheSameChannel) {
  EXPECT_TRUE(RunMain([&] {
    CChannel c(2);
    ASSERT_NE(c.channel, nullptr);
    EXPECT_TRUE(c.Send(1));
    zend_object* wrapper = ZEND_ASYNC_NEW_CHANNEL_OBJ(c.channel);
    ASSERT_NE(wrapper, nullptr);
    zval object;
    ZVAL_OBJ(&object, wrapper);
    Zval channel = Zval::Adopt(&object);
    EXPECT_EQ(ZEND_ASYNC_OBJECT_TO_EVENT(channel.obj()), &c.channel->event);
    log.push_back(std::to_string(Capacity(channel)));
    log.push_back(Render(Recv(channel)));
    Send(channel, Zval::Long(2));
    log.push_back(c.Receive());
  }));
  EXPECT_EQ(Joined(log), "2 1 2");
}

}  // namespace
}  // namespace zar::channel_testing
