// Async\Channel: closing, and what it does to values and waiters.

#include <gtest/gtest.h>

#include "tests/channel/support/channel_test.h"

namespace zar::channel_testing {
namespace {

using ChannelCloseTest = ChannelTest;

// 004-channel_close, 014-channel_double_close, 062-channel_idempotent_close
TEST_F(ChannelCloseTest, CloseIsIdempotent) {
  EXPECT_TRUE(RunMain([&] {
    Zval channel = NewPhpChannel({3});
    log.push_back(IsClosed(channel) ? "closed" : "open");
    Send(channel, Zval::Long(1));
    Close(channel);
    log.push_back(IsClosed(channel) ? "closed" : "open");
    Close(channel);
    log.push_back(IsClosed(channel) ? "closed" : "open");
    log.push_back(std::to_string(Count(channel)));
  }));
  EXPECT_EQ(Joined(log), "open closed closed 1");
}

// 005-channel_exception_on_closed_send
TEST_F(ChannelCloseTest, SendOnAClosedChannelThrows) {
  RunWithChannel(3, [&] {
    Close(channel);
    Spawn([&] {
      Send(channel, Zval::String("value"));
      log.push_back(TakeChannelException());
    });
    log.push_back("Done");
  });
  EXPECT_EQ(Joined(log), "Done Async\\ChannelException: Channel is closed");
}

// 006-channel_exception_on_closed_recv
TEST_F(ChannelCloseTest, RecvOnAClosedEmptyChannelThrows) {
  RunWithChannel(3, [&] {
    Close(channel);
    Spawn([&] {
      Zval value = Recv(channel);
      log.push_back(value.undef() ? TakeChannelException() : Render(value));
    });
    log.push_back("Done");
  });
  EXPECT_EQ(Joined(log), "Done Async\\ChannelException: Channel is closed");
}

// 015-channel_recv_closed_with_data
TEST_F(ChannelCloseTest, ValuesBufferedBeforeCloseAreStillReceived) {
  RunWithChannel(3, [&] {
    for (const char* value : {"one", "two", "three"})
      Send(channel, Zval::String(value));
    Close(channel);
    log.push_back("closed-with-" + std::to_string(Count(channel)));
    Spawn([&] {
      for (int i = 0; i < 4; i++) {
        Zval value = Recv(channel);
        log.push_back(value.undef() ? TakeChannelException() : Render(value));
      }
    });
    log.push_back("Done");
  });
  EXPECT_EQ(Joined(log),
            "closed-with-3 Done 'one' 'two' 'three' "
            "Async\\ChannelException: Channel is closed");
}

// 022-channel_dtor_wakes_waiters, 045-channel_close_reason_explicit
TEST_F(ChannelCloseTest, CloseWakesAParkedReceiver) {
  RunWithChannel(0, [&] {
    Spawn([&] {
      log.push_back("receiver-waiting");
      Zval value = Recv(channel);
      log.push_back(value.undef() ? TakeChannelException("EXPLICIT")
                                  : Render(value));
    });
    Spawn([&] {
      log.push_back("closer-closing");
      Close(channel);
      log.push_back("closer-done");
    });
    log.push_back("main-done");
  });
  EXPECT_EQ(Joined(log),
            "main-done receiver-waiting closer-closing closer-done "
            "Async\\ChannelException: Channel is closed");
}

// 024-channel_close_interrupts_waiters
TEST_F(ChannelCloseTest, CloseWakesASenderWaitingForSpace) {
  RunWithChannel(1, [&] {
    Send(channel, Zval::String("fill"));
    Spawn([&] {
      log.push_back("sender-waiting");
      Send(channel, Zval::String("blocked"));
      log.push_back(EG(exception) ? TakeChannelException() : "sent");
    });
    Spawn([&] {
      log.push_back("closer");
      Close(channel);
      log.push_back("closed");
    });
    log.push_back("main-done");
  });
  EXPECT_EQ(Joined(log),
            "main-done sender-waiting closer closed "
            "Async\\ChannelException: Channel is closed");
}

// 026-channel_close_wakes_sender
TEST_F(ChannelCloseTest, CloseWakesASenderBehindAnUnbufferedValue) {
  RunWithChannel(0, [&] {
    log.push_back(SendAsync(channel, Zval::String("block")) ? "filled"
                                                            : "not-filled");
    Spawn([&] {
      log.push_back("sender-waiting");
      Send(channel, Zval::String("waiting"));
      log.push_back(EG(exception) ? TakeChannelException() : "sent");
    });
    Spawn([&] {
      Close(channel);
      log.push_back("closed");
    });
  });
  EXPECT_EQ(Joined(log),
            "filled sender-waiting closed "
            "Async\\ChannelException: Channel is closed");
}

// Every waiter is woken, receivers and senders alike, each with the
// exception.
TEST_F(ChannelCloseTest, CloseWakesEveryWaiter) {
  Zval receivers;
  Zval senders;
  EXPECT_TRUE(RunMain([&] {
    receivers = NewPhpChannel({0});
    senders = NewPhpChannel({1});
    Send(senders, Zval::Long(0));
    for (int i = 1; i <= 3; i++) {
      Spawn([&, i] {
        Recv(receivers);
        log.push_back("r" + std::to_string(i) + ":" + TakeChannelException());
      });
      Spawn([&, i] {
        Send(senders, Zval::Long(i));
        log.push_back("s" + std::to_string(i) + ":" + TakeChannelException());
      });
    }
    Yield();
    Close(receivers);
    Close(senders);
    log.push_back("closed");
  }));
  // Close fails the waiters newest first (upstream walks its queues from the
  // tail); they run in the order they were woken.
  EXPECT_EQ(log, (Log{"closed", "r3:Async\\ChannelException: Channel is closed",
                      "r2:Async\\ChannelException: Channel is closed",
                      "r1:Async\\ChannelException: Channel is closed",
                      "s3:Async\\ChannelException: Channel is closed",
                      "s2:Async\\ChannelException: Channel is closed",
                      "s1:Async\\ChannelException: Channel is closed"}));
}

// 069-channel0_send_close_split_brain
TEST_F(ChannelCloseTest, UnmatchedRendezvousValueDoesNotOutliveClose) {
  RunWithChannel(0, [&] {
    Spawn([&] {
      Send(channel, Zval::Long(42));
      log.push_back(EG(exception) ? "send: " + TakeChannelException()
                                  : "send-ok");
    });
    Yield();
    Close(channel);
    Spawn([&] {
      Zval value = Recv(channel);
      log.push_back(value.undef() ? "recv: " + TakeChannelException()
                                  : "recv=" + Render(value));
    });
  });
  EXPECT_EQ(log, (Log{"send: Async\\ChannelException: Channel is closed",
                      "recv: Async\\ChannelException: Channel is closed"}));
}

// 081-channel0_committed_value_survives_close
TEST_F(ChannelCloseTest, CommittedRendezvousValueSurvivesClose) {
  RunWithChannel(0, [&] {
    Spawn([&] {
      Zval value = Recv(channel);
      log.push_back(value.undef() ? TakeExceptionText()
                                  : "recv=" + Render(value));
    });
    Yield();
    Spawn([&] {
      Send(channel, Zval::Long(7));
      log.push_back(EG(exception) ? TakeExceptionText() : "send-ok");
      Close(channel);
      log.push_back("closed");
    });
  });
  EXPECT_EQ(Joined(log), "send-ok closed recv=7");
}

// 082-channel0_close_while_sender_awaits_ack
TEST_F(ChannelCloseTest, CloseAfterTheValueWasTakenDoesNotFailItsSender) {
  RunWithChannel(0, [&] {
    Spawn([&] {
      Send(channel, Zval::String("the-value"));
      log.push_back(EG(exception) ? "sender " + TakeChannelException()
                                  : "sender delivered");
    });
    Yield();
    log.push_back("recv " + Render(Recv(channel)));
    Close(channel);
  });
  EXPECT_EQ(Joined(log), "recv 'the-value' sender delivered");
}

// Awaiting the channel object waits for close (the event is notified with
// the close exception).
TEST_F(ChannelCloseTest, AwaitingTheChannelEndsAtClose) {
  RunWithChannel(1, [&] {
    Spawn([&] {
      zend_async_event_t* event = ZEND_ASYNC_OBJECT_TO_EVENT(channel.obj());
      const bool resumed = zar::testing::WaitFor(event);
      log.push_back(resumed ? "resumed" : "resumed:" + TakeChannelException());
    });
    Yield();
    log.push_back("closing");
    Close(channel);
  });
  EXPECT_EQ(Joined(log),
            "closing resumed:Async\\ChannelException: Channel is closed");
}

// A wrapper object that is not the channel's last owner leaves it open
// when it goes.
TEST_F(ChannelCloseTest, WrapperDestructionLeavesAChannelACUserHolds) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_channel_t* channel = ZEND_ASYNC_NEW_CHANNEL(1, false, false);
    ASSERT_NE(channel, nullptr);
    zend_object* object = ZEND_ASYNC_NEW_CHANNEL_OBJ(channel);
    ASSERT_NE(object, nullptr);
    OBJ_RELEASE(object);
    log.push_back(ZEND_ASYNC_EVENT_IS_CLOSED(&channel->event) ? "closed"
                                                              : "open");
    zval value;
    ZVAL_LONG(&value, 1);
    log.push_back(channel->send(channel, &value) ? "sent" : "refused");
    ZEND_ASYNC_EVENT_RELEASE(&channel->event);
  }));
  EXPECT_EQ(Joined(log), "open sent");
}

// A channel holding a value that holds the channel is a cycle the
// collector frees (get_gc reports the buffered values).
TEST_F(ChannelCloseTest, ChannelHoldingItselfIsCollected) {
  int collected = 0;
  EXPECT_TRUE(RunMain([&] {
    Zval channel = NewPhpChannel({2});
    Zval holder;
    object_init(holder.get());
    zend_update_property(nullptr, holder.obj(), ZEND_STRL("channel"),
                         channel.get());
    Send(channel, Zval::Copy(holder.get()));
    holder.Reset();
    channel.Reset();
    collected = gc_collect_cycles();
  }));
  EXPECT_GE(collected, 2);
}

}  // namespace
}  // namespace zar::channel_testing
