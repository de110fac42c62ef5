// Async\Channel: send() and recv() with a cancellation token (any
// Async\Completable: a coroutine stands in for upstream's timeout(); an
// Async\Future settled through its Async\FutureState).

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "tests/channel/support/channel_test.h"

extern "C" {
#include "ext/spl/spl_exceptions.h"
}

namespace zar::channel_testing {
namespace {

// The PHP object of `coroutine` as a zval (a new reference).
Zval ObjectOf(zend_coroutine_t* coroutine) {
  zval object;
  ZVAL_OBJ_COPY(&object, ZEND_ASYNC_EVENT_TO_OBJECT(&coroutine->event));
  return Zval::Adopt(&object);
}

// The previous exception of `exception`, or NULL.
zend_object* PreviousOf(zend_object* exception) {
  zval rv;
  zval* previous =
      zend_read_property_ex(zend_get_exception_base(exception), exception,
                            ZSTR_KNOWN(ZEND_STR_PREVIOUS), 1, &rv);
  return previous != nullptr && Z_TYPE_P(previous) == IS_OBJECT
             ? Z_OBJ_P(previous)
             : nullptr;
}

// The pending exception as "Class: message", with its previous' class
// after " <- " when it has one (taken).
std::string TakeWithPrevious() {
  zend_object* previous = EG(exception) ? PreviousOf(EG(exception)) : nullptr;
  const std::string tail =
      previous ? std::string(" <- ") + ZSTR_VAL(previous->ce->name) : "";
  return TakeExceptionText() + tail;
}

// The pending exception as "Class: message", then " <- Class: message" of
// its previous when it has one (taken).
std::string TakeWithPreviousMessage() {
  zend_object* previous = EG(exception) ? PreviousOf(EG(exception)) : nullptr;
  if (previous == nullptr) return TakeExceptionText();
  zval rv;
  zval* message =
      zend_read_property_ex(zend_get_exception_base(previous), previous,
                            ZSTR_KNOWN(ZEND_STR_MESSAGE), 1, &rv);
  const std::string tail = std::string(" <- ") + ZSTR_VAL(previous->ce->name) +
                           ": " +
                           (message != nullptr && Z_TYPE_P(message) == IS_STRING
                                ? Z_STRVAL_P(message)
                                : "");
  return TakeExceptionText() + tail;
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

// How a failed call's exception is logged: TakeWithPrevious or
// TakeWithPreviousMessage.
using TakeText = std::string (*)();

class ChannelTokenTest : public ChannelTest {
 protected:
  // $channel->recv($token): the value received, or the exception as `take`
  // renders it.
  std::string RecvWith(Zval& token, TakeText take) {
    Zval value = CallMethod(channel.get(), "recv", {token.get()});
    return value.undef() ? take() : Render(value);
  }

  // $channel->send($value, $token): "sent", or the exception as `take`
  // renders it.
  std::string SendWith(const char* value, Zval& token, TakeText take) {
    Zval sent = Zval::String(value);
    CallMethod(channel.get(), "send", {sent.get(), token.get()});
    return EG(exception) ? take() : "sent";
  }

  // A coroutine's object as the token: it completes in 5 ms (UNDEF, the
  // test failed, when the coroutine has no object).
  static Zval TimerToken() {
    zend_coroutine_t* timer = Spawn([] { Delay(5); });
    if (!ZEND_ASYNC_EVENT_IS_ZEND_OBJ(&timer->event)) {
      ADD_FAILURE() << "the coroutine is no Completable object";
      return Zval();
    }
    return ObjectOf(timer);
  }

  // Runs `main` with a channel of `capacity`, full (of "fill") when
  // `filled` so that a send waits, and a pending Async\Future token; once
  // the request ended, the call consumed the token (let go now): no "never
  // used" or "unhandled" warning was logged.
  void RunWithFutureToken(zend_long capacity, bool filled,
                          const std::function<void()>& main) {
    RunWithChannel(capacity, [&] {
      if (filled) SendAsync(channel, Zval::String("fill"));
      future_token = NewFutureToken();
      main();
    });
    future_token = FutureToken();
    EXPECT_TRUE(zar::testing::ErrorLog().empty());
  }

  // Spawns a coroutine logging "signalling" and completing the token.
  void SpawnSignaller() {
    Spawn([this] {
      log.push_back("signalling");
      Zval null;
      CallMethod(future_token.state.get(), "complete", {null.get()});
    });
  }

  FutureToken future_token;
};

// 027-channel_recv_timeout (a token that completes while recv waits)
TEST_F(ChannelTokenTest, RecvThrowsWhenItsTokenCompletes) {
  Zval token;
  RunWithChannel(0, [&] {
    token = TimerToken();
    Spawn([&] {
      log.push_back("waiting");
      log.push_back(RecvWith(token, TakeWithPrevious));
      LogCount();
    });
  });
  EXPECT_EQ(Joined(log),
            "waiting Async\\OperationCanceledException: Operation has been "
            "cancelled count=0");
}

// 028-channel_send_timeout
TEST_F(ChannelTokenTest, SendThrowsWhenItsTokenCompletes) {
  Zval token;
  RunWithChannel(0, [&] {
    token = TimerToken();
    Spawn([&] {
      log.push_back(SendWith("unsent", token, TakeWithPrevious));
      // The withdrawn rendezvous value is not left behind.
      LogCount();
    });
  });
  EXPECT_EQ(Joined(log),
            "Async\\OperationCanceledException: Operation has been cancelled "
            "count=0");
}

// 035-channel_recv_cancel_future_no_block
TEST_F(ChannelTokenTest, RecvThatNeedNotWaitIgnoresItsToken) {
  Zval token;
  RunWithChannel(1, [&] {
    Send(channel, Zval::String("ready"));
    token = TimerToken();
    log.push_back(RecvWith(token, TakeWithPrevious));
  });
  EXPECT_EQ(Joined(log), "'ready'");
}

// 037/038-channel_*_cancel_future_pre_rejected: a token that already
// completed fails the call at once and leaves the channel as it was.
TEST_F(ChannelTokenTest, TokenAlreadyCompletedFailsTheCallAtOnce) {
  Zval token;
  RunWithChannel(1, [&] {
    zend_coroutine_t* finished = Spawn([] {});
    token = ObjectOf(finished);
    Yield();
    Send(channel, Zval::String("kept"));
    log.push_back(RecvWith(token, TakeWithPrevious));
    log.push_back(SendWith("other", token, TakeWithPrevious));
    LogCount();
  });
  EXPECT_EQ(Joined(log),
            "Async\\OperationCanceledException: Operation has been cancelled "
            "Async\\OperationCanceledException: Operation has been cancelled "
            "count=1");
}

// 031-channel_recv_cancel_via_future
TEST_F(ChannelTokenTest, RecvThrowsWhenItsFutureTokenCompletes) {
  RunWithFutureToken(0, false, [&] {
    Spawn([&] {
      log.push_back("waiting");
      log.push_back(RecvWith(future_token.future, TakeWithPreviousMessage));
    });
    SpawnSignaller();
  });
  EXPECT_EQ(Joined(log),
            "waiting signalling Async\\OperationCanceledException: Operation "
            "has been cancelled");
}

// 032-channel_send_cancel_via_future
TEST_F(ChannelTokenTest, SendThrowsWhenItsFutureTokenCompletes) {
  RunWithFutureToken(0, true, [&] {
    Spawn([&] {
      log.push_back("waiting");
      log.push_back(
          SendWith("blocked", future_token.future, TakeWithPreviousMessage));
      LogCount();
    });
    SpawnSignaller();
  });
  EXPECT_EQ(Joined(log),
            "waiting signalling Async\\OperationCanceledException: Operation "
            "has been cancelled count=1");
}

// 033-channel_recv_cancel_via_future_error
TEST_F(ChannelTokenTest, RecvThrowsWithFutureTokenErrorAsPrevious) {
  RunWithFutureToken(0, false, [&] {
    Spawn([&] {
      log.push_back(RecvWith(future_token.future, TakeWithPreviousMessage));
    });
    Spawn([&] { FailState(future_token.state, "Custom cancel reason"); });
  });
  EXPECT_EQ(Joined(log),
            "Async\\OperationCanceledException: Operation has been cancelled "
            "<- RuntimeException: Custom cancel reason");
}

// 034-channel_send_cancel_via_future_error
TEST_F(ChannelTokenTest, SendThrowsWithFutureTokenErrorAsPrevious) {
  RunWithFutureToken(0, true, [&] {
    Spawn([&] {
      log.push_back(
          SendWith("blocked", future_token.future, TakeWithPreviousMessage));
    });
    Spawn([&] {
      Delay(10);
      FailState(future_token.state, "Custom cancel reason");
    });
  });
  EXPECT_EQ(Joined(log),
            "Async\\OperationCanceledException: Operation has been cancelled "
            "<- RuntimeException: Custom cancel reason");
}

// 036-channel_send_cancel_future_no_block
TEST_F(ChannelTokenTest, SendThatNeedNotWaitIgnoresItsFutureToken) {
  RunWithFutureToken(1, false, [&] {
    Spawn([&] {
      log.push_back(
          SendWith("value", future_token.future, TakeWithPreviousMessage));
    });
  });
  EXPECT_EQ(Joined(log), "sent");
}

}  // namespace
}  // namespace zar::channel_testing
