// Async\Channel::recvAsync(): the Async\Future of the next value, served
// in turn with parked recv()s, rejected by close, and leaving the queue
// when it is dropped while pending.

#include <gtest/gtest.h>

#include "tests/channel/support/channel_test.h"

namespace zar::channel_testing {
namespace {

// $future->isCompleted() as "completed=yes|no".
std::string Completed(Zval& future) {
  Zval completed = CallMethod(future.get(), "isCompleted");
  return std::string("completed=") +
         (Z_TYPE_P(completed.get()) == IS_TRUE ? "yes" : "no");
}

// $future->await(): the value rendered, or the exception as
// TakeChannelException renders it.
std::string Await(Zval& future) {
  Zval value = CallMethod(future.get(), "await");
  return value.undef() ? TakeChannelException() : Render(value);
}

// $future->ignore(), then lets go of the future (unset($future)).
void Drop(Zval& future) {
  CallMethod(future.get(), "ignore");
  future = Zval();
}

class ChannelAsyncTest : public ChannelTest {
 protected:
  // $future = $channel->recvAsync(), pending; Drop($future); logs
  // "dropped".
  void DropPendingFuture() {
    Zval future = CallMethod(channel.get(), "recvAsync");
    Drop(future);
    log.push_back("dropped");
  }
};

// 019-channel_recvAsync_with_data
TEST_F(ChannelAsyncTest, RecvAsyncCompletesAtOnceWithBufferedValues) {
  RunWithChannel(2, [&] {
    Send(channel, Zval::String("value1"));
    Send(channel, Zval::String("value2"));
    Spawn([&] {
      Zval first = CallMethod(channel.get(), "recvAsync");
      Zval second = CallMethod(channel.get(), "recvAsync");
      log.push_back(Completed(first) + "," + Completed(second));
      log.push_back("future1=" + Await(first));
      log.push_back("future2=" + Await(second));
      LogCount();
    });
    log.push_back("Done");
  });
  EXPECT_EQ(Joined(log),
            "Done completed=yes,completed=yes future1='value1' "
            "future2='value2' count=0");
}

// 020-channel_recvAsync_closed
TEST_F(ChannelAsyncTest, RecvAsyncOnClosedChannelIsRejectedWithCloseException) {
  RunWithChannel(1, [&] {
    Close(channel);
    Spawn([&] {
      Zval future = CallMethod(channel.get(), "recvAsync");
      log.push_back(Completed(future));
      log.push_back(Await(future));
    });
    log.push_back("Done");
  });
  EXPECT_EQ(Joined(log),
            "Done completed=yes Async\\ChannelException: Channel is closed");
}

// Values buffered before close are still handed out by recvAsync().
TEST_F(ChannelAsyncTest, RecvAsyncAfterCloseStillGetsBufferedValue) {
  RunWithChannel(1, [&] {
    Send(channel, Zval::String("kept"));
    Close(channel);
    Zval kept = CallMethod(channel.get(), "recvAsync");
    Zval empty = CallMethod(channel.get(), "recvAsync");
    log.push_back(Await(kept));
    log.push_back(Await(empty));
  });
  EXPECT_EQ(Joined(log), "'kept' Async\\ChannelException: Channel is closed");
}

// 029-channel_recvAsync_pending
TEST_F(ChannelAsyncTest, PendingRecvAsyncCompletesWhenValueArrives) {
  RunWithChannel(0, [&] {
    Spawn([&] {
      Zval future = CallMethod(channel.get(), "recvAsync");
      log.push_back("pending " + Completed(future));
      Spawn([&] {
        Delay(10);
        const bool sent = SendAsync(channel, Zval::String("hello"));
        log.push_back(std::string("sendAsync=") + (sent ? "true" : "false"));
      });
      log.push_back("received=" + Await(future));
      LogCount();
    });
  });
  EXPECT_EQ(Joined(log),
            "pending completed=no sendAsync=true received='hello' count=0");
}

// A pending future on a rendezvous is a receiver: a parked send() hands
// its value to it and returns.
TEST_F(ChannelAsyncTest, PendingRecvAsyncTakesRendezvousSend) {
  Zval future;
  RunWithChannel(0, [&] {
    future = CallMethod(channel.get(), "recvAsync");
    Spawn([&] {
      Send(channel, Zval::String("direct"));
      log.push_back("sent");
    });
    log.push_back(Await(future));
    future = Zval();
  });
  EXPECT_EQ(Joined(log), "sent 'direct'");
}

// 030-channel_recvAsync_pending_close
TEST_F(ChannelAsyncTest, PendingRecvAsyncIsRejectedWhenChannelCloses) {
  RunWithChannel(0, [&] {
    Spawn([&] {
      Zval future = CallMethod(channel.get(), "recvAsync");
      Spawn([&] {
        Delay(10);
        log.push_back("closing");
        Close(channel);
      });
      log.push_back("caught " + Await(future));
    });
  });
  EXPECT_EQ(Joined(log),
            "closing caught Async\\ChannelException: Channel is closed");
}

// 066-channel_recvAsync_future_dropped
TEST_F(ChannelAsyncTest, DroppedPendingFutureLeavesTheQueue) {
  RunWithChannel(0, [&] {
    DropPendingFuture();
    Spawn([&] {
      Delay(20);
      // Nobody receives: the value is staged in the rendezvous slot.
      const bool sent = SendAsync(channel, Zval::String("hello"));
      log.push_back(std::string("sendAsync=") + (sent ? "true" : "false") +
                    " count=" + std::to_string(Count(channel)));
    });
    Delay(60);
    log.push_back("recv=" + Render(Recv(channel)));
  });
  EXPECT_EQ(Joined(log), "dropped sendAsync=true count=1 recv='hello'");
}

// 067-channel_recvAsync_in_await_any (the await-any's loser is dropped
// while its waiter is queued on its channel)
TEST_F(ChannelAsyncTest, LoserFutureOfTwoChannelsLeavesItsQueue) {
  Zval first;
  Zval second;
  EXPECT_TRUE(RunMain([&] {
    first = NewPhpChannel({0});
    second = NewPhpChannel({0});
    Spawn([&] {
      Delay(20);
      SendAsync(first, Zval::String("from-1"));
    });
    Zval winner = CallMethod(first.get(), "recvAsync");
    Zval loser = CallMethod(second.get(), "recvAsync");
    log.push_back("got=" + Await(winner));
    Drop(loser);
    const bool sent = SendAsync(second, Zval::String("ignored"));
    log.push_back(std::string("sendAsync=") + (sent ? "true" : "false") +
                  " count=" + std::to_string(Count(second)));
  }));
  EXPECT_EQ(Joined(log), "got='from-1' sendAsync=true count=1");
}

// 068-channel_recvAsync_dropped_then_close
TEST_F(ChannelAsyncTest, CloseAfterDroppedFutureRejectsNothing) {
  RunWithChannel(0, [&] {
    DropPendingFuture();
    Spawn([&] {
      Close(channel);
      log.push_back("closed");
    });
    Yield();
    log.push_back("ok");
  });
  EXPECT_EQ(Joined(log), "dropped closed ok");
  EXPECT_TRUE(zar::testing::ErrorLog().empty());
}

// 077-channel_recvAsync_does_not_take_reserved_value
TEST_F(ChannelAsyncTest, RecvAsyncDoesNotTakeReservedValue) {
  RunWithChannel(1, [&] {
    Spawn([&] { log.push_back("R1=" + Render(Recv(channel))); });
    Yield();
    Send(channel, Zval::String("first"));  // reserved for R1, which has not run
    Zval future = CallMethod(channel.get(), "recvAsync");
    log.push_back(Completed(future));
    Spawn([&] { Send(channel, Zval::String("second")); });
    log.push_back("future=" + Await(future));
  });
  EXPECT_EQ(Joined(log), "completed=no R1='first' future='second'");
}

// Future waiters and parked recv()s share one FIFO: each value is promised
// to the oldest waiting receiver of either kind. A future is completed on
// the spot with the oldest buffered value, while a woken recv() takes the
// oldest value when it runs (upstream's rule): "a" wakes R1, "b" completes
// the future with "a", R1 then takes "b".
TEST_F(ChannelAsyncTest, FutureAndCoroutineReceiversServedInArrivalOrder) {
  Zval future;
  RunWithChannel(3, [&] {
    Spawn([&] { log.push_back("R1=" + Render(Recv(channel))); });
    Yield();
    future = CallMethod(channel.get(), "recvAsync");
    Spawn([&] { log.push_back("R2=" + Render(Recv(channel))); });
    Yield();
    SendAsync(channel, Zval::String("a"));
    SendAsync(channel, Zval::String("b"));
    log.push_back("future " + Completed(future));
    SendAsync(channel, Zval::String("c"));
    log.push_back("future=" + Await(future));
    future = Zval();
  });
  EXPECT_EQ(Joined(log), "future completed=yes future='a' R1='b' R2='c'");
}

// A future cancelled while queued gives up its turn: the next value goes
// to whoever receives next.
TEST_F(ChannelAsyncTest, CancelledPendingFutureIsSkipped) {
  RunWithChannel(1, [&] {
    Zval future = CallMethod(channel.get(), "recvAsync");
    CallMethod(future.get(), "cancel");
    CallMethod(future.get(), "ignore");
    SendAsync(channel, Zval::String("kept"));
    LogCount();
    log.push_back("recv=" + Render(Recv(channel)));
  });
  EXPECT_EQ(Joined(log), "count=1 recv='kept'");
}

// A value that completes a pending future frees its slot for a parked
// sender.
TEST_F(ChannelAsyncTest, ServedFutureFreesSlotForParkedSender) {
  RunWithChannel(1, [&] {
    Send(channel, Zval::String("one"));
    Spawn([&] {
      Send(channel, Zval::String("two"));
      log.push_back("sent two");
    });
    Yield();
    Zval future = CallMethod(channel.get(), "recvAsync");
    log.push_back(Completed(future) + " " + Await(future));
    Yield();
    log.push_back("recv=" + Render(Recv(channel)));
  });
  EXPECT_EQ(Joined(log), "completed=yes 'one' sent two recv='two'");
}

}  // namespace
}  // namespace zar::channel_testing
