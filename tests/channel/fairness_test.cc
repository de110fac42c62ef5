// Async\Channel: FIFO service of senders and receivers, reservations, and
// waiters that leave (cancelled) handing their place on.

#include <gtest/gtest.h>

#include <deque>
#include <string>

#include "tests/channel/support/channel_test.h"

namespace zar::channel_testing {
namespace {

using zar::testing::YieldUntil;

// A receiver or sender the test spawned: its coroutine, and whether it has
// logged its outcome.
struct Party {
  zend_coroutine_t* coroutine = nullptr;
  bool done = false;
};

class ChannelFairnessTest : public ChannelTest {
 protected:
  // Spawns a receiver on `channel` logging "<name> got <value>" or
  // "<name> <Class: message>".
  Party* SpawnReceiver(const std::string& name) {
    Party* party = &parties_.emplace_back();
    party->coroutine = Spawn([this, name, party] {
      Zval value = Recv(channel);
      log.push_back(value.undef() ? name + " " + TakeChannelException()
                                  : name + " got " + Render(value));
      party->done = true;
    });
    return party;
  }

  // Spawns a sender on `channel` of the string `name`, logging "<name> sent"
  // or "<name> <Class: message>".
  Party* SpawnSender(const std::string& name) {
    Party* party = &parties_.emplace_back();
    party->coroutine = Spawn([this, name, party] {
      Send(channel, Zval::String(name));
      log.push_back(EG(exception) ? name + " " + TakeChannelException()
                                  : name + " sent");
      party->done = true;
    });
    return party;
  }

  // The same, each yielding once so that it has parked when this returns.
  Party* ParkReceiver(const std::string& name) {
    Party* party = SpawnReceiver(name);
    Yield();
    return party;
  }
  Party* ParkSender(const std::string& name) {
    Party* party = SpawnSender(name);
    Yield();
    return party;
  }

  // Cancels `cancelled` and yields until `next` has logged its outcome.
  static void CancelAndWaitFor(Party* cancelled, Party* next) {
    Cancel(cancelled->coroutine);
    YieldUntil([next] { return next->done; });
  }

 private:
  std::deque<Party> parties_;  // stable addresses for the coroutines
};

// 087-channel_senders_are_served_in_arrival_order
TEST_F(ChannelFairnessTest, SendersAreServedInArrivalOrder) {
  std::string order;
  RunWithChannel(1, [&] {
    Send(channel, Zval::String("fill"));
    for (const char* name : {"a", "b", "c"}) ParkSender(name);
    for (int i = 0; i < 4; i++) order += Render(Recv(channel));
  });
  EXPECT_EQ(order, "'fill''a''b''c'");
}

TEST_F(ChannelFairnessTest, ReceiversAreServedInArrivalOrder) {
  RunWithChannel(3, [&] {
    for (const char* name : {"r1", "r2", "r3"}) SpawnReceiver(name);
    Yield();
    for (zend_long i = 1; i <= 3; i++) Send(channel, Zval::Long(i));
  });
  EXPECT_EQ(Joined(log), "r1 got 1 r2 got 2 r3 got 3");
}

// 076-channel_recv_does_not_take_reserved_value
TEST_F(ChannelFairnessTest, RecvDoesNotTakeAValueKeptForAWokenReceiver) {
  RunWithChannel(1, [&] {
    ParkReceiver("r1");
    Send(channel, Zval::String("first"));
    Spawn([&] { Send(channel, Zval::String("second")); });
    log.push_back("main got " + Render(Recv(channel)));
  });
  EXPECT_EQ(Joined(log), "r1 got 'first' main got 'second'");
}

// 078-channel_sendAsync_does_not_take_reserved_slot
TEST_F(ChannelFairnessTest, SendAsyncDoesNotTakeASlotKeptForAWokenSender) {
  RunWithChannel(1, [&] {
    Send(channel, Zval::String("fill"));
    Party* s1 = ParkSender("s1");
    log.push_back("taken " + Render(Recv(channel)));
    log.push_back(IsFull(channel) ? "full" : "not-full");
    log.push_back(SendAsync(channel, Zval::String("barge")) ? "barged"
                                                            : "refused");
    YieldUntil([&] { return s1->done; });
    log.push_back("left " + Render(Recv(channel)));
  });
  EXPECT_EQ(Joined(log), "taken 'fill' not-full refused s1 sent left 's1'");
}

// 073-channel_cancelled_receiver_hands_value_on
TEST_F(ChannelFairnessTest, CancelledReceiverHandsItsValueOn) {
  RunWithChannel(1, [&] {
    Party* r1 = ParkReceiver("r1");
    Party* r2 = ParkReceiver("r2");
    Send(channel, Zval::String("the-value"));
    CancelAndWaitFor(r1, r2);
    LogCount();
  });
  EXPECT_EQ(Joined(log),
            "r1 Async\\AsyncCancellation: Coroutine cancelled r2 got "
            "'the-value' count=0");
}

// 080-channel_last_receiver_cancelled_releases_value
TEST_F(ChannelFairnessTest, CancelledLastReceiverReleasesTheValue) {
  RunWithChannel(1, [&] {
    Party* only = ParkReceiver("r1");
    Send(channel, Zval::String("the-value"));
    CancelAndWaitFor(only, only);
    log.push_back("main got " + Render(Recv(channel)));
    LogCount();
  });
  EXPECT_EQ(Joined(log),
            "r1 Async\\AsyncCancellation: Coroutine cancelled main got "
            "'the-value' count=0");
}

// 083-channel_handed_reservation_keeps_arrival_order
TEST_F(ChannelFairnessTest, HandedOnReservationKeepsArrivalOrder) {
  RunWithChannel(1, [&] {
    Party* r1 = ParkReceiver("r1");
    Party* r2 = ParkReceiver("r2");
    Party* r3 = ParkReceiver("r3");
    Send(channel, Zval::String("first"));
    CancelAndWaitFor(r1, r2);
    Send(channel, Zval::String("second"));
    YieldUntil([r3] { return r3->done; });
  });
  EXPECT_EQ(Joined(log),
            "r1 Async\\AsyncCancellation: Coroutine cancelled r2 got 'first' "
            "r3 got 'second'");
}

// 074-channel0_cancelled_receiver_keeps_message
TEST_F(ChannelFairnessTest, RendezvousValueSurvivesItsReceiversCancellation) {
  RunWithChannel(0, [&] {
    Party* r1 = ParkReceiver("r1");
    Party* r2 = ParkReceiver("r2");
    Spawn([&] {
      Send(channel, Zval::String("the-value"));
      log.push_back("sender delivered");
    });
    Yield();
    CancelAndWaitFor(r1, r2);
    LogCount();
  });
  EXPECT_EQ(Joined(log),
            "sender delivered r1 Async\\AsyncCancellation: Coroutine cancelled "
            "r2 got 'the-value' "
            "count=0");
}

// 075-channel_cancelled_sender_hands_slot_on
TEST_F(ChannelFairnessTest, CancelledSenderHandsItsSlotOn) {
  RunWithChannel(1, [&] {
    Send(channel, Zval::String("fill"));
    Party* s1 = ParkSender("s1");
    Party* s2 = ParkSender("s2");
    log.push_back("taken " + Render(Recv(channel)));
    CancelAndWaitFor(s1, s2);
    log.push_back("left " + Render(Recv(channel)));
  });
  EXPECT_EQ(Joined(log),
            "taken 'fill' s1 Async\\AsyncCancellation: Coroutine cancelled s2 "
            "sent left 's2'");
}

// 084-channel0_cancelled_sender_withdraws_value
TEST_F(ChannelFairnessTest, CancelledRendezvousSenderWithdrawsItsValue) {
  RunWithChannel(0, [&] {
    Party* sender = ParkSender("s");
    CancelAndWaitFor(sender, sender);
    log.push_back(State(channel));
  });
  EXPECT_EQ(
      Joined(log),
      "s Async\\AsyncCancellation: Coroutine cancelled count=0 empty=Y full=N");
}

// 085-channel0_ack_does_not_swallow_the_slot
TEST_F(ChannelFairnessTest, RendezvousAcknowledgementPassesTheSlotOn) {
  RunWithChannel(0, [&] {
    ParkSender("first");
    Party* second = ParkSender("second");
    log.push_back("recv " + Render(Recv(channel)));
    log.push_back(SendAsync(channel, Zval::String("barge")) ? "barged"
                                                            : "refused");
    SpawnReceiver("drain");
    YieldUntil([second] { return second->done; });
  });
  EXPECT_EQ(Joined(log),
            "recv 'first' refused first sent drain got 'second' second sent");
}

// 086-channel_close_keeps_the_reserved_receiver_whole
TEST_F(ChannelFairnessTest, CloseKeepsTheValueOfAWokenReceiver) {
  RunWithChannel(2, [&] {
    ParkReceiver("r1");
    ParkReceiver("r2");
    Send(channel, Zval::String("the-value"));
    Close(channel);
  });
  EXPECT_EQ(Joined(log),
            "r1 got 'the-value' r2 Async\\ChannelException: Channel is closed");
}

// 060-channel_coroutine_cancelled_during_recv
TEST_F(ChannelFairnessTest, ReceiverCancelledWhileWaitingLeavesTheChannelOpen) {
  RunWithChannel(0, [&] {
    Party* victim = ParkReceiver("victim");
    CancelAndWaitFor(victim, victim);
    log.push_back(IsClosed(channel) ? "closed" : "open");
    Spawn([&] {
      Delay(5);
      Send(channel, Zval::String("late"));
    });
    SpawnReceiver("consumer");
  });
  EXPECT_EQ(Joined(log),
            "victim Async\\AsyncCancellation: Coroutine cancelled open "
            "consumer got 'late'");
}

}  // namespace
}  // namespace zar::channel_testing
