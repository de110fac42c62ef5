// Async\Channel: send() and recv() with a cancellation token (any
// Async\Completable: a coroutine stands in for upstream's timeout(); an
// Async\Future settled through its Async\FutureState).

#include <gtest/gtest.h>

#include "tests/channel/support/channel_test.h"

extern "C" {
#include "ext/spl/spl_exceptions.h"
}

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

// The pending exception as "Class: message", then " <- Class: message" of
// its previous when it has one (taken).
std::string TakeWithPreviousMessage() {
  zend_object* exception = EG(exception);
  std::string previous;
  if (exception != nullptr) {
    zval rv;
    zval* prev =
        zend_read_property_ex(zend_get_exception_base(exception), exception,
                              ZSTR_KNOWN(ZEND_STR_PREVIOUS), 1, &rv);
    if (prev != nullptr && Z_TYPE_P(prev) == IS_OBJECT) {
      zval message_rv;
      zval* message = zend_read_property_ex(
          zend_get_exception_base(Z_OBJ_P(prev)), Z_OBJ_P(prev),
          ZSTR_KNOWN(ZEND_STR_MESSAGE), 1, &message_rv);
      previous = std::string(" <- ") + ZSTR_VAL(Z_OBJCE_P(prev)->name) + ": " +
                 (message != nullptr && Z_TYPE_P(message) == IS_STRING
                      ? Z_STRVAL_P(message)
                      : "");
    }
  }
  return TakeExceptionText() + previous;
}

// A pending Async\Future token and the FutureState that settles it.
struct FutureToken {
  Zval state;
  Zval future;
};

FutureToken NewFutureToken() {
  FutureToken token;
  token.state = mock_zend::New("Async\\FutureState");
  token.future = mock_zend::New("Async\\Future", {token.state.get()});
  return token;
}

// $state->error(new RuntimeException($message)).
void FailState(Zval& state, const char* message) {
  Zval error;
  object_init_ex(error.get(), spl_ce_RuntimeException);
  zend_update_property_string(spl_ce_RuntimeException, Z_OBJ_P(error.get()),
                              "message", strlen("message"), message);
  CallMethod(state.get(), "error", {error.get()});
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
      Zval value = Zval::String("unsent");
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
    Send(channel, Zval::String("ready"));
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
    Send(channel, Zval::String("kept"));
    Zval value = CallMethod(channel.get(), "recv", {token.get()});
    log.push_back(value.undef() ? TakeWithPrevious() : Render(value));
    Zval other = Zval::String("other");
    CallMethod(channel.get(), "send", {other.get(), token.get()});
    log.push_back(TakeWithPrevious());
    log.push_back("count=" + std::to_string(Count(channel)));
  }));
  EXPECT_EQ(Joined(log),
            "Async\\OperationCanceledException: Operation has been cancelled "
            "Async\\OperationCanceledException: Operation has been cancelled "
            "count=1");
}

// 031-channel_recv_cancel_via_future
TEST_F(ChannelTokenTest, RecvThrowsWhenItsFutureTokenCompletes) {
  Log log;
  Zval channel;
  FutureToken token;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({0});
    token = NewFutureToken();
    Spawn([&] {
      log.push_back("waiting");
      Zval value = CallMethod(channel.get(), "recv", {token.future.get()});
      log.push_back(value.undef() ? TakeWithPreviousMessage() : Render(value));
    });
    Spawn([&] {
      log.push_back("signalling");
      Zval null;
      CallMethod(token.state.get(), "complete", {null.get()});
    });
  }));
  // The call consumed the token: no "never used" or "unhandled" warning.
  token = FutureToken();
  EXPECT_TRUE(zar::testing::ErrorLog().empty());
  EXPECT_EQ(Joined(log),
            "waiting signalling Async\\OperationCanceledException: Operation "
            "has been cancelled");
}

// 032-channel_send_cancel_via_future
TEST_F(ChannelTokenTest, SendThrowsWhenItsFutureTokenCompletes) {
  Log log;
  Zval channel;
  FutureToken token;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({0});
    SendAsync(channel, Zval::String("fill"));
    token = NewFutureToken();
    Spawn([&] {
      log.push_back("waiting");
      Zval value = Zval::String("blocked");
      CallMethod(channel.get(), "send", {value.get(), token.future.get()});
      log.push_back(EG(exception) ? TakeWithPreviousMessage() : "sent");
      log.push_back("count=" + std::to_string(Count(channel)));
    });
    Spawn([&] {
      log.push_back("signalling");
      Zval null;
      CallMethod(token.state.get(), "complete", {null.get()});
    });
  }));
  // The call consumed the token: no "never used" or "unhandled" warning.
  token = FutureToken();
  EXPECT_TRUE(zar::testing::ErrorLog().empty());
  EXPECT_EQ(Joined(log),
            "waiting signalling Async\\OperationCanceledException: Operation "
            "has been cancelled count=1");
}

// 033-channel_recv_cancel_via_future_error
TEST_F(ChannelTokenTest, RecvThrowsWithFutureTokenErrorAsPrevious) {
  Log log;
  Zval channel;
  FutureToken token;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({0});
    token = NewFutureToken();
    Spawn([&] {
      Zval value = CallMethod(channel.get(), "recv", {token.future.get()});
      log.push_back(value.undef() ? TakeWithPreviousMessage() : Render(value));
    });
    Spawn([&] { FailState(token.state, "Custom cancel reason"); });
  }));
  // The call consumed the token: no "never used" or "unhandled" warning.
  token = FutureToken();
  EXPECT_TRUE(zar::testing::ErrorLog().empty());
  EXPECT_EQ(Joined(log),
            "Async\\OperationCanceledException: Operation has been cancelled "
            "<- RuntimeException: Custom cancel reason");
}

// 034-channel_send_cancel_via_future_error
TEST_F(ChannelTokenTest, SendThrowsWithFutureTokenErrorAsPrevious) {
  Log log;
  Zval channel;
  FutureToken token;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({0});
    SendAsync(channel, Zval::String("fill"));
    token = NewFutureToken();
    Spawn([&] {
      Zval value = Zval::String("blocked");
      CallMethod(channel.get(), "send", {value.get(), token.future.get()});
      log.push_back(EG(exception) ? TakeWithPreviousMessage() : "sent");
    });
    Spawn([&] {
      Delay(10);
      FailState(token.state, "Custom cancel reason");
    });
  }));
  // The call consumed the token: no "never used" or "unhandled" warning.
  token = FutureToken();
  EXPECT_TRUE(zar::testing::ErrorLog().empty());
  EXPECT_EQ(Joined(log),
            "Async\\OperationCanceledException: Operation has been cancelled "
            "<- RuntimeException: Custom cancel reason");
}

// 036-channel_send_cancel_future_no_block
TEST_F(ChannelTokenTest, SendThatNeedNotWaitIgnoresItsFutureToken) {
  Log log;
  Zval channel;
  FutureToken token;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({1});
    token = NewFutureToken();
    Spawn([&] {
      Zval value = Zval::String("value");
      CallMethod(channel.get(), "send", {value.get(), token.future.get()});
      log.push_back(EG(exception) ? TakeWithPreviousMessage() : "sent");
    });
  }));
  // The call consumed the token: no "never used" or "unhandled" warning.
  token = FutureToken();
  EXPECT_TRUE(zar::testing::ErrorLog().empty());
  EXPECT_EQ(Joined(log), "sent");
}

}  // namespace
}  // namespace zar::channel_testing
