// Async\Channel: FIFO service of senders and receivers, reservations, and
// waiters that leave (cancelled) handing their place on.

#include <gtest/gtest.h>

#include "tests/channel/support/channel_test.h"

namespace zar::channel_testing {
namespace {

using ChannelFairnessTest = ChannelTest;
using zar::testing::YieldUntil;

// A receiver logging "<name> got <value>" or "<name> <Class: message>".
void SpawnReceiver(Zval& channel, Log& log, const std::string& name,
                   zend_coroutine_t** coroutine = nullptr,
                   bool* done = nullptr) {
  zend_coroutine_t* spawned = Spawn([&channel, &log, name, done] {
    Zval value = Recv(channel);
    log.push_back(value.undef() ? name + " " + TakeChannelException()
                                : name + " got " + Render(value));
    if (done != nullptr) *done = true;
  });
  if (coroutine != nullptr) *coroutine = spawned;
}

// A sender logging "<name> sent" or "<name> <Class: message>".
void SpawnSender(Zval& channel, Log& log, const std::string& name,
                 zend_coroutine_t** coroutine = nullptr, bool* done = nullptr) {
  zend_coroutine_t* spawned = Spawn([&channel, &log, name, done] {
    Send(channel, Zval::String(name));
    log.push_back(EG(exception) ? name + " " + TakeChannelException()
                                : name + " sent");
    if (done != nullptr) *done = true;
  });
  if (coroutine != nullptr) *coroutine = spawned;
}

// 087-channel_senders_are_served_in_arrival_order
TEST_F(ChannelFairnessTest, SendersAreServedInArrivalOrder) {
  std::string order;
  Log log;
  Zval channel;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({1});
    Send(channel, Zval::String("fill"));
    for (const char* name : {"a", "b", "c"}) {
      SpawnSender(channel, log, name);
      Yield();
    }
    for (int i = 0; i < 4; i++) order += Render(Recv(channel));
  }));
  EXPECT_EQ(order, "'fill''a''b''c'");
}

TEST_F(ChannelFairnessTest, ReceiversAreServedInArrivalOrder) {
  Log log;
  Zval channel;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({3});
    for (const char* name : {"r1", "r2", "r3"}) {
      SpawnReceiver(channel, log, name);
    }
    Yield();
    for (zend_long i = 1; i <= 3; i++) Send(channel, Zval::Long(i));
  }));
  EXPECT_EQ(Joined(log), "r1 got 1 r2 got 2 r3 got 3");
}

// 076-channel_recv_does_not_take_reserved_value
TEST_F(ChannelFairnessTest, RecvDoesNotTakeAValueKeptForAWokenReceiver) {
  Log log;
  Zval channel;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({1});
    SpawnReceiver(channel, log, "r1");
    Yield();
    Send(channel, Zval::String("first"));
    Spawn([&] { Send(channel, Zval::String("second")); });
    log.push_back("main got " + Render(Recv(channel)));
  }));
  EXPECT_EQ(Joined(log), "r1 got 'first' main got 'second'");
}

// 078-channel_sendAsync_does_not_take_reserved_slot
TEST_F(ChannelFairnessTest, SendAsyncDoesNotTakeASlotKeptForAWokenSender) {
  Log log;
  Zval channel;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({1});
    Send(channel, Zval::String("fill"));
    bool sent = false;
    SpawnSender(channel, log, "s1", nullptr, &sent);
    Yield();
    log.push_back("taken " + Render(Recv(channel)));
    log.push_back(IsFull(channel) ? "full" : "not-full");
    log.push_back(SendAsync(channel, Zval::String("barge")) ? "barged"
                                                            : "refused");
    YieldUntil([&] { return sent; });
    log.push_back("left " + Render(Recv(channel)));
  }));
  EXPECT_EQ(Joined(log), "taken 'fill' not-full refused s1 sent left 's1'");
}

// 073-channel_cancelled_receiver_hands_value_on
TEST_F(ChannelFairnessTest, CancelledReceiverHandsItsValueOn) {
  Log log;
  Zval channel;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({1});
    zend_coroutine_t* first = nullptr;
    bool second_done = false;
    SpawnReceiver(channel, log, "r1", &first);
    Yield();
    SpawnReceiver(channel, log, "r2", nullptr, &second_done);
    Yield();
    Send(channel, Zval::String("the-value"));
    Cancel(first);
    YieldUntil([&] { return second_done; });
    log.push_back("count=" + std::to_string(Count(channel)));
  }));
  EXPECT_EQ(Joined(log),
            "r1 Async\\AsyncCancellation: Coroutine cancelled r2 got "
            "'the-value' count=0");
}

// 080-channel_last_receiver_cancelled_releases_value
TEST_F(ChannelFairnessTest, CancelledLastReceiverReleasesTheValue) {
  Log log;
  Zval channel;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({1});
    zend_coroutine_t* only = nullptr;
    bool done = false;
    SpawnReceiver(channel, log, "r1", &only, &done);
    Yield();
    Send(channel, Zval::String("the-value"));
    Cancel(only);
    YieldUntil([&] { return done; });
    log.push_back("main got " + Render(Recv(channel)));
    log.push_back("count=" + std::to_string(Count(channel)));
  }));
  EXPECT_EQ(Joined(log),
            "r1 Async\\AsyncCancellation: Coroutine cancelled main got "
            "'the-value' count=0");
}

// 083-channel_handed_reservation_keeps_arrival_order
TEST_F(ChannelFairnessTest, HandedOnReservationKeepsArrivalOrder) {
  Log log;
  Zval channel;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({1});
    zend_coroutine_t* first = nullptr;
    bool second_done = false;
    bool third_done = false;
    SpawnReceiver(channel, log, "r1", &first);
    Yield();
    SpawnReceiver(channel, log, "r2", nullptr, &second_done);
    Yield();
    SpawnReceiver(channel, log, "r3", nullptr, &third_done);
    Yield();
    Send(channel, Zval::String("first"));
    Cancel(first);
    YieldUntil([&] { return second_done; });
    Send(channel, Zval::String("second"));
    YieldUntil([&] { return third_done; });
  }));
  EXPECT_EQ(Joined(log),
            "r1 Async\\AsyncCancellation: Coroutine cancelled r2 got 'first' "
            "r3 got 'second'");
}

// 074-channel0_cancelled_receiver_keeps_message
TEST_F(ChannelFairnessTest, RendezvousValueSurvivesItsReceiversCancellation) {
  Log log;
  Zval channel;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({0});
    zend_coroutine_t* first = nullptr;
    bool second_done = false;
    SpawnReceiver(channel, log, "r1", &first);
    Yield();
    SpawnReceiver(channel, log, "r2", nullptr, &second_done);
    Yield();
    Spawn([&] {
      Send(channel, Zval::String("the-value"));
      log.push_back("sender delivered");
    });
    Yield();
    Cancel(first);
    YieldUntil([&] { return second_done; });
    log.push_back("count=" + std::to_string(Count(channel)));
  }));
  EXPECT_EQ(Joined(log),
            "sender delivered r1 Async\\AsyncCancellation: Coroutine cancelled "
            "r2 got 'the-value' "
            "count=0");
}

// 075-channel_cancelled_sender_hands_slot_on
TEST_F(ChannelFairnessTest, CancelledSenderHandsItsSlotOn) {
  Log log;
  Zval channel;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({1});
    Send(channel, Zval::String("fill"));
    zend_coroutine_t* first = nullptr;
    bool second_done = false;
    SpawnSender(channel, log, "s1", &first);
    Yield();
    SpawnSender(channel, log, "s2", nullptr, &second_done);
    Yield();
    log.push_back("taken " + Render(Recv(channel)));
    Cancel(first);
    YieldUntil([&] { return second_done; });
    log.push_back("left " + Render(Recv(channel)));
  }));
  EXPECT_EQ(Joined(log),
            "taken 'fill' s1 Async\\AsyncCancellation: Coroutine cancelled s2 "
            "sent left 's2'");
}

// 084-channel0_cancelled_sender_withdraws_value
TEST_F(ChannelFairnessTest, CancelledRendezvousSenderWithdrawsItsValue) {
  Log log;
  Zval channel;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({0});
    zend_coroutine_t* sender = nullptr;
    bool done = false;
    SpawnSender(channel, log, "s", &sender, &done);
    Yield();
    Cancel(sender);
    YieldUntil([&] { return done; });
    log.push_back(State(channel));
  }));
  EXPECT_EQ(
      Joined(log),
      "s Async\\AsyncCancellation: Coroutine cancelled count=0 empty=Y full=N");
}

// 085-channel0_ack_does_not_swallow_the_slot
TEST_F(ChannelFairnessTest, RendezvousAcknowledgementPassesTheSlotOn) {
  Log log;
  Zval channel;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({0});
    SpawnSender(channel, log, "first");
    Yield();
    bool second_done = false;
    SpawnSender(channel, log, "second", nullptr, &second_done);
    Yield();
    log.push_back("recv " + Render(Recv(channel)));
    log.push_back(SendAsync(channel, Zval::String("barge")) ? "barged"
                                                            : "refused");
    SpawnReceiver(channel, log, "drain");
    YieldUntil([&] { return second_done; });
  }));
  EXPECT_EQ(Joined(log),
            "recv 'first' refused first sent drain got 'second' second sent");
}

// 086-channel_close_keeps_the_reserved_receiver_whole
TEST_F(ChannelFairnessTest, CloseKeepsTheValueOfAWokenReceiver) {
  Log log;
  Zval channel;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({2});
    SpawnReceiver(channel, log, "r1");
    Yield();
    SpawnReceiver(channel, log, "r2");
    Yield();
    Send(channel, Zval::String("the-value"));
    Close(channel);
  }));
  EXPECT_EQ(Joined(log),
            "r1 got 'the-value' r2 Async\\ChannelException: Channel is closed");
}

// 060-channel_coroutine_cancelled_during_recv
TEST_F(ChannelFairnessTest, ReceiverCancelledWhileWaitingLeavesTheChannelOpen) {
  Log log;
  Zval channel;
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({0});
    zend_coroutine_t* victim = nullptr;
    bool victim_done = false;
    SpawnReceiver(channel, log, "victim", &victim, &victim_done);
    Yield();
    Cancel(victim);
    YieldUntil([&] { return victim_done; });
    log.push_back(IsClosed(channel) ? "closed" : "open");
    Spawn([&] {
      Delay(5);
      Send(channel, Zval::String("late"));
    });
    SpawnReceiver(channel, log, "consumer");
  }));
  EXPECT_EQ(Joined(log),
            "victim Async\\AsyncCancellation: Coroutine cancelled open "
            "consumer got 'late'");
}

}  // namespace
}  // namespace zar::channel_testing
