// Async\Channel: send() and recv() with a cancellation token (any
// Async\Completable; a coroutine stands in for upstream's timeout() and
// futures).

#include <gtest/gtest.h>

#include "tests/channel/support/channel_test.h"

namespace zar::channel_testing {
namespace {

using ChannelTokenTest = ChannelTest;

// The PHP object of `coroutine` as a zval (a new reference).
Zval ObjectOf(zend_coroutine_t* coroutine) {
  zval object;
  ZVAL_OBJ_COPY(&object, ZEND_ASYNC_EVENT_TO_OBJECT(&coroutine->event));
  return Zval::Adopt(&object);
}

// The pending exception as "Class: message", with its previous' class
// after " <- " when it has one (taken).
std::string TakeWithPrevious() {
  zend_object* exception = EG(exception);
  std::string previous;
  if (exception != nullptr) {
    zval rv;
    zval* prev =
        zend_read_property_ex(zend_get_exception_base(exception), exception,
                              ZSTR_KNOWN(ZEND_STR_PREVIOUS), 1, &rv);
    if (prev != nullptr && Z_TYPE_P(prev) == IS_OBJECT) {
      previous = std::string(" <- ") + ZSTR_VAL(Z_OBJCE_P(prev)->name);
    }
  }
  return TakeExceptionText() + previous;
}

// 027-channel_recv_timeout (a token that completes while recv waits)
TEST_F(ChannelTokenTest, RecvThrowsWhenItsTokenCompletes) {
  Log log;
  Zval channel;
  Zval token;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({0});
    zend_coroutine_t* timer = Spawn([] { Delay(5); });
    ASSERT_TRUE(ZEND_ASYNC_EVENT_IS_ZEND_OBJ(&timer->event));
    token = ObjectOf(timer);
    Spawn([&] {
      log.push_back("waiting");
      Zval value = CallMethod(channel.get(), "recv", {token.get()});
      log.push_back(value.undef() ? TakeWithPrevious() : Render(value));
      log.push_back("count=" + std::to_string(Count(channel)));
    });
  }));
  EXPECT_EQ(Joined(log),
            "waiting Async\\OperationCanceledException: Operation has been "
            "cancelled count=0");
}

// 028-channel_send_timeout
TEST_F(ChannelTokenTest, SendThrowsWhenItsTokenCompletes) {
  Log log;
  Zval channel;
  Zval token;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({0});
    zend_coroutine_t* timer = Spawn([] { Delay(5); });
    token = ObjectOf(timer);
    Spawn([&] {
      Zval value = Str("unsent");
      CallMethod(channel.get(), "send", {value.get(), token.get()});
      log.push_back(EG(exception) ? TakeWithPrevious() : "sent");
      // The withdrawn rendezvous value is not left behind.
      log.push_back("count=" + std::to_string(Count(channel)));
    });
  }));
  EXPECT_EQ(Joined(log),
            "Async\\OperationCanceledException: Operation has been cancelled "
            "count=0");
}

// 035-channel_recv_cancel_future_no_block
TEST_F(ChannelTokenTest, RecvThatNeedNotWaitIgnoresItsToken) {
  Log log;
  Zval channel;
  Zval token;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({1});
    Send(channel, Str("ready"));
    zend_coroutine_t* timer = Spawn([] { Delay(5); });
    token = ObjectOf(timer);
    Zval value = CallMethod(channel.get(), "recv", {token.get()});
    log.push_back(value.undef() ? TakeWithPrevious() : Render(value));
  }));
  EXPECT_EQ(Joined(log), "'ready'");
}

// 037/038-channel_*_cancel_future_pre_rejected: a token that already
// completed fails the call at once and leaves the channel as it was.
TEST_F(ChannelTokenTest, TokenAlreadyCompletedFailsTheCallAtOnce) {
  Log log;
  Zval channel;
  Zval token;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({1});
    zend_coroutine_t* finished = Spawn([] {});
    token = ObjectOf(finished);
    Yield();
    Send(channel, Str("kept"));
    Zval value = CallMethod(channel.get(), "recv", {token.get()});
    log.push_back(value.undef() ? TakeWithPrevious() : Render(value));
    Zval other = Str("other");
    CallMethod(channel.get(), "send", {other.get(), token.get()});
    log.push_back(TakeWithPrevious());
    log.push_back("count=" + std::to_string(Count(channel)));
  }));
  EXPECT_EQ(Joined(log),
            "Async\\OperationCanceledException: Operation has been cancelled "
            "Async\\OperationCanceledException: Operation has been cancelled "
            "count=1");
}

}  // namespace
}  // namespace zar::channel_testing
