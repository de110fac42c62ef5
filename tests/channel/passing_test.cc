// Async\Channel: values passing from senders to receivers, buffered and
// rendezvous.

#include <gtest/gtest.h>

#include "tests/channel/support/channel_test.h"

namespace zar::channel_testing {
namespace {

using ChannelPassingTest = ChannelTest;

// 002-channel_buffered_basic
TEST_F(ChannelPassingTest, BufferedSendsDoNotWaitForTheReceiver) {
  RunWithChannel(3, [&] {
    Spawn([&] {
      for (zend_long i = 1; i <= 3; i++) {
        log.push_back("send" + std::to_string(i));
        Send(channel, Zval::Long(i));
      }
      log.push_back("sent");
    });
    Spawn([&] {
      log.push_back("receiving");
      for (int i = 0; i < 3; i++) log.push_back(Render(Recv(channel)));
    });
    log.push_back("Done");
  });
  EXPECT_EQ(Joined(log), "Done send1 send2 send3 sent receiving 1 2 3");
}

// 003-channel_unbuffered_rendezvous
TEST_F(ChannelPassingTest, UnbufferedSendWaitsUntilTheValueIsTaken) {
  RunWithChannel(0, [&] {
    Spawn([&] {
      log.push_back("sender:about-to-send");
      Send(channel, Zval::String("hello"));
      log.push_back("sender:completed");
    });
    Spawn([&] {
      log.push_back("receiver:about-to-recv");
      log.push_back("receiver:got:" + Render(Recv(channel)));
    });
    log.push_back("main:done");
  });
  EXPECT_EQ(Joined(log),
            "main:done sender:about-to-send receiver:about-to-recv "
            "receiver:got:'hello' sender:completed");
}

// 013-channel_blocking_on_full
TEST_F(ChannelPassingTest, SendWaitsWhileTheBufferIsFull) {
  RunWithChannel(2, [&] {
    Spawn([&] {
      for (zend_long i = 1; i <= 3; i++) {
        log.push_back("send" + std::to_string(i));
        Send(channel, Zval::Long(i));
      }
      log.push_back("send3-completed");
    });
    Spawn([&] {
      log.push_back("receiver-waits");
      YieldTimes(2);
      log.push_back("recv");
      log.push_back("got" + Render(Recv(channel)));
    });
    log.push_back("main-done");
  });
  EXPECT_EQ(Joined(log),
            "main-done send1 send2 send3 receiver-waits recv got1 "
            "send3-completed");
}

// 021-channel_capacity_one
TEST_F(ChannelPassingTest, CapacityOneHandsOverInOrder) {
  RunWithChannel(1, [&] {
    log.push_back(State(channel));
    Send(channel, Zval::String("one"));
    log.push_back(State(channel));
    Spawn([&] {
      log.push_back("sending-two");
      Send(channel, Zval::String("two"));
      log.push_back("sent-two");
    });
    Spawn([&] {
      log.push_back("recv1=" + Render(Recv(channel)));
      log.push_back("recv2=" + Render(Recv(channel)));
    });
    log.push_back("main-done");
  });
  EXPECT_EQ(Joined(log),
            "count=0 empty=Y full=N count=1 empty=N full=Y main-done "
            "sending-two recv1='one' sent-two recv2='two'");
}

// 018-channel_different_types
TEST_F(ChannelPassingTest, ValuesOfEveryTypePassUnchanged) {
  RunWithChannel(10, [&] {
    Zval values[6];
    ZVAL_NULL(values[0].get());
    ZVAL_TRUE(values[1].get());
    ZVAL_LONG(values[2].get(), 42);
    ZVAL_DOUBLE(values[3].get(), 3.5);
    values[4] = Zval::String("string");
    array_init(values[5].get());
    add_next_index_long(values[5].get(), 1);
    add_next_index_long(values[5].get(), 2);
    Zval object;
    object_init(object.get());
    const uint32_t handle = object.obj()->handle;
    for (Zval& value : values) Send(channel, Zval::Copy(value.get()));
    Send(channel, Zval::Copy(object.get()));
    Spawn([&, handle] {
      for (int i = 0; i < 6; i++) log.push_back(Render(Recv(channel)));
      Zval received = Recv(channel);
      log.push_back(received.type() == IS_OBJECT &&
                            received.obj()->handle == handle
                        ? "same-object"
                        : "other:" + Render(received));
    });
  });
  EXPECT_EQ(Joined(log), "null true 42 3.500000 'string' [1, 2] same-object");
}

// 010-channel_multiple_senders
TEST_F(ChannelPassingTest, ManySendersOneReceiver) {
  RunWithChannel(2, [&] {
    for (int i = 1; i <= 3; i++) {
      Spawn([&, i] {
        Send(channel, Zval::String("from-" + std::to_string(i)));
        log.push_back("sender" + std::to_string(i) + ":sent");
      });
    }
    Spawn([&] {
      std::string got;
      for (int i = 0; i < 3; i++) got += Render(Recv(channel));
      log.push_back("receiver:" + got);
      Close(channel);
    });
    log.push_back("main-done");
  });
  EXPECT_EQ(Joined(log),
            "main-done sender1:sent sender2:sent sender3:sent "
            "receiver:'from-1''from-2''from-3'");
}

// 011-channel_multiple_receivers
TEST_F(ChannelPassingTest, ManyReceiversShareTheValuesUntilClose) {
  RunWithChannel(0, [&] {
    Spawn([&] {
      for (zend_long i = 1; i <= 3; i++) {
        log.push_back("send" + std::to_string(i));
        Send(channel, Zval::Long(i));
      }
      Close(channel);
      log.push_back("closed");
    });
    for (const char* name : {"A", "B"}) {
      Spawn([&, name] {
        for (;;) {
          Zval value = Recv(channel);
          if (value.undef()) {
            log.push_back(std::string(name) + ":" + TakeChannelException());
            break;
          }
          log.push_back(std::string(name) + ":got" + Render(value));
        }
      });
    }
    log.push_back("main-done");
  });
  EXPECT_EQ(Joined(log),
            "main-done send1 A:got1 send2 send3 A:got2 closed B:got3 "
            "B:Async\\ChannelException: Channel is closed "
            "A:Async\\ChannelException: Channel is closed");
}

}  // namespace
}  // namespace zar::channel_testing
