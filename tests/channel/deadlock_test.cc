// Async\Channel: the deadlock timeouts ($noProducerTimeout,
// $noConsumerTimeout). Tests assert outcomes and order, never durations
// beyond "before" and "after" a much longer or shorter timer.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/channel/support/channel_test.h"

namespace zar::channel_testing {
namespace {

using ChannelDeadlockTest = ChannelTest;

// 041-channel_deadlock_hard_no_producers
TEST_F(ChannelDeadlockTest, ReceiverWithNoProducerClosesTheChannel) {
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel(0, 20, 0, true);
    Spawn([&] {
      Zval value = Recv(channel);
      log.push_back(value.undef() ? TakeChannelException("NO_PRODUCERS")
                                  : Render(value));
      log.push_back(IsClosed(channel) ? "closed" : "open");
    });
  }));
  EXPECT_EQ(Joined(log),
            "Async\\ChannelException: Channel deadlock: no producers closed");
}

// 042-channel_deadlock_hard_no_consumers
TEST_F(ChannelDeadlockTest, SenderWithNoConsumerClosesTheChannel) {
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel(0, 0, 20, true);
    Spawn([&] {
      Send(channel, Zval::Long(1));
      log.push_back(EG(exception) ? TakeChannelException("NO_CONSUMERS")
                                  : "sent");
      LogCount();
    });
  }));
  EXPECT_EQ(Joined(log),
            "Async\\ChannelException: Channel deadlock: no consumers count=0");
}

// 043-channel_deadlock_disabled
TEST_F(ChannelDeadlockTest, ZeroTimeoutsNeverClose) {
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel(0, 0, 0, true);
    Spawn([&] {
      Delay(30);
      Send(channel, Zval::String("late"));
    });
    Spawn([&] { log.push_back("got " + Render(Recv(channel))); });
  }));
  EXPECT_EQ(Joined(log), "got 'late'");
}

// 044-channel_deadlock_timer_reset: progress re-arms the timer; it
// measures one wait, not the sum of them.
TEST_F(ChannelDeadlockTest, ProgressRestartsTheTimer) {
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel(0, 200, 200, true);
    Spawn([&] {
      for (zend_long i = 0; i < 3; i++) {
        Delay(100);
        Send(channel, Zval::Long(i));
      }
    });
    Spawn([&] {
      for (int i = 0; i < 3; i++) log.push_back(Render(Recv(channel)));
      log.push_back(IsClosed(channel) ? "closed" : "open");
    });
  }));
  EXPECT_EQ(Joined(log), "0 1 2 open");
}

// 046-channel_deadlock_wakes_all_waiters
TEST_F(ChannelDeadlockTest, DeadlockWakesEveryWaiterWithTheReason) {
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel(0, 20, 0, true);
    for (int i = 1; i <= 3; i++) {
      Spawn([&, i] {
        Recv(channel);
        log.push_back("r" + std::to_string(i) + " " +
                      TakeChannelException("NO_PRODUCERS"));
      });
    }
  }));
  EXPECT_EQ(Joined(log),
            "r3 Async\\ChannelException: Channel deadlock: no producers "
            "r2 Async\\ChannelException: Channel deadlock: no producers "
            "r1 Async\\ChannelException: Channel deadlock: no producers");
}

// A soft timer (the default) is HIDDEN: it does not keep the request
// alive, but it fires while something else does.
TEST_F(ChannelDeadlockTest, SoftTimerFiresWhileTheRequestIsAlive) {
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel(0, 20, 0, false);
    Spawn([&] {
      Zval value = Recv(channel);
      log.push_back(value.undef() ? TakeChannelException("NO_PRODUCERS")
                                  : Render(value));
    });
    Delay(200);  // keeps the loop alive past the channel's timer
    log.push_back("main-done");
  }));
  EXPECT_EQ(Joined(log),
            "Async\\ChannelException: Channel deadlock: no producers "
            "main-done");
}

// A timeout longer than the wait never fires, and closing stops it.
TEST_F(ChannelDeadlockTest, CloseStopsTheTimer) {
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel(0, 20, 0, true);
    Spawn([&] {
      Recv(channel);
      log.push_back(TakeChannelException("EXPLICIT"));
    });
    Yield();
    Close(channel);
    Delay(60);
    log.push_back("after-timeout");
  }));
  EXPECT_EQ(Joined(log),
            "Async\\ChannelException: Channel is closed after-timeout");
}

// 065-channel_deadlock_cancels_coroutines: with no channel timer a lone
// receiver is a global deadlock the scheduler resolves by cancelling it;
// the channel stays open. (A soft timer behaves the same here: the global
// resolver that would close it with DEADLOCK is not implemented.)
TEST_F(ChannelDeadlockTest, LoneReceiverIsCancelledByTheSchedulersDeadlock) {
  ExpectUncaught(
      "Async\\DeadlockError: Deadlock detected: no active coroutines, 1 "
      "coroutines in waiting");
  EXPECT_FALSE(RunMain([&] {
    channel = NewPhpChannel(0, 0, 0, false);
    Spawn([&] {
      Zval value = Recv(channel);
      log.push_back(value.undef() ? TakeExceptionText() : Render(value));
      log.push_back(IsClosed(channel) ? "closed" : "open");
    });
  }));
  EXPECT_EQ(Joined(log), "Async\\AsyncCancellation: Deadlock detected open");
  EXPECT_THAT(zar::testing::ErrorLog(),
              ::testing::ElementsAre(
                  "E_ERROR: Uncaught Async\\DeadlockError: Deadlock "
                  "detected: no active coroutines, 1 coroutines in waiting"));
}

}  // namespace
}  // namespace zar::channel_testing
