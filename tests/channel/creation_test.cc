// Async\Channel: construction, argument checks and the counting methods.

#include <gtest/gtest.h>

#include "tests/channel/support/channel_test.h"

namespace zar::channel_testing {
namespace {

using ChannelCreationTest = ChannelTest;

// new Async\Channel(...args), which must throw: the exception as "Class:
// message" (taken).
std::string ConstructionError(std::initializer_list<zend_long> args) {
  Zval channel = NewPhpChannel(args);
  EXPECT_TRUE(channel.undef());
  return TakeExceptionText();
}

// 001-channel_construct
TEST_F(ChannelCreationTest, ConstructorSetsTheCapacity) {
  EXPECT_TRUE(RunMain([&] {
    Zval unbuffered = NewPhpChannel();
    Zval buffered = NewPhpChannel({5});
    Zval zero = NewPhpChannel({0});
    EXPECT_EQ(Capacity(unbuffered), 0);
    EXPECT_EQ(Capacity(buffered), 5);
    EXPECT_EQ(Capacity(zero), 0);
    EXPECT_FALSE(IsClosed(buffered));
  }));
}

// 012-channel_negative_capacity_error
TEST_F(ChannelCreationTest, NegativeCapacityIsAValueError) {
  EXPECT_TRUE(RunMain([&] {
    EXPECT_EQ(ConstructionError({-1}),
              "ValueError: Async\\Channel::__construct(): Argument #1 "
              "($capacity) must be between 0 and 2147483647");
  }));
}

TEST_F(ChannelCreationTest, CapacityAboveInt32MaxIsAValueError) {
  EXPECT_TRUE(RunMain([&] {
    EXPECT_EQ(ConstructionError({zend_long{INT32_MAX} + 1}),
              "ValueError: Async\\Channel::__construct(): Argument #1 "
              "($capacity) must be between 0 and 2147483647");
  }));
}

TEST_F(ChannelCreationTest, NegativeTimeoutsAreValueErrors) {
  EXPECT_TRUE(RunMain([&] {
    EXPECT_EQ(ConstructionError({0, -1}),
              "ValueError: Async\\Channel::__construct(): Argument #2 "
              "($noProducerTimeout) must be between 0 and 2147483647");
    EXPECT_EQ(ConstructionError({0, 0, -1}),
              "ValueError: Async\\Channel::__construct(): Argument #3 "
              "($noConsumerTimeout) must be between 0 and 2147483647");
  }));
}

// 009-channel_capacity_methods, 025-channel_state_consistency
TEST_F(ChannelCreationTest, CountsFollowSendsAndReceives) {
  EXPECT_TRUE(RunMain([&] {
    Zval channel = NewPhpChannel({3});
    log.push_back(State(channel));
    Send(channel, Zval::String("a"));
    log.push_back(State(channel));
    Send(channel, Zval::String("b"));
    Send(channel, Zval::String("c"));
    log.push_back(State(channel));
    log.push_back(SendAsync(channel, Zval::String("d")) ? "sendAsync=true"
                                                        : "sendAsync=false");
    Recv(channel);
    log.push_back(State(channel));
    Recv(channel);
    Recv(channel);
    log.push_back(State(channel));
  }));
  EXPECT_EQ(Joined(log),
            "count=0 empty=Y full=N count=1 empty=N full=N "
            "count=3 empty=N full=Y sendAsync=false count=2 empty=N full=N "
            "count=0 empty=Y full=N");
}

// 007-channel_sendAsync
TEST_F(ChannelCreationTest, SendAsyncFailsWhenFullOrClosed) {
  EXPECT_TRUE(RunMain([&] {
    Zval channel = NewPhpChannel({2});
    log.push_back(SendAsync(channel, Zval::Long(1)) ? "true" : "false");
    log.push_back(SendAsync(channel, Zval::Long(2)) ? "true" : "false");
    log.push_back(SendAsync(channel, Zval::Long(3)) ? "true" : "false");
    Recv(channel);
    log.push_back(SendAsync(channel, Zval::Long(4)) ? "true" : "false");
    Close(channel);
    log.push_back(SendAsync(channel, Zval::Long(5)) ? "true" : "false");
  }));
  EXPECT_EQ(Joined(log), "true true false true false");
}

// 016-channel_sendAsync_closed
TEST_F(ChannelCreationTest, SendAsyncAfterCloseLeavesTheCount) {
  EXPECT_TRUE(RunMain([&] {
    Zval channel = NewPhpChannel({1});
    log.push_back(SendAsync(channel, Zval::String("test")) ? "true" : "false");
    log.push_back(std::to_string(Count(channel)));
    Close(channel);
    log.push_back(SendAsync(channel, Zval::String("test2")) ? "true" : "false");
    log.push_back(std::to_string(Count(channel)));
  }));
  EXPECT_EQ(Joined(log), "true 1 false 1");
}

// 023-channel_unbuffered_sendAsync
TEST_F(ChannelCreationTest, UnbufferedSendAsyncFillsTheOneSlot) {
  RunWithChannel(0, [&] {
    log.push_back(SendAsync(channel, Zval::String("one")) ? "true" : "false");
    log.push_back(State(channel));
    log.push_back(SendAsync(channel, Zval::String("two")) ? "true" : "false");
    Spawn([&] {
      log.push_back("got " + Render(Recv(channel)));
      log.push_back(State(channel));
    });
    log.push_back("Done");
  });
  EXPECT_EQ(Joined(log),
            "true count=1 empty=N full=Y false Done got 'one' "
            "count=0 empty=Y full=N");
}

// Countable: count($channel) is count().
TEST_F(ChannelCreationTest, CountableCountIsTheNumberOfValues) {
  EXPECT_TRUE(RunMain([&] {
    Zval channel = NewPhpChannel({4});
    SendAsync(channel, Zval::Long(1));
    SendAsync(channel, Zval::Long(2));
    // What PHP's count() does with an object: its count_elements handler
    // when it has one, else Countable::count().
    zend_object* object = channel.obj();
    ASSERT_TRUE(instanceof_function(object->ce, zend_ce_countable));
    zend_long count = -1;
    if (object->handlers->count_elements != nullptr) {
      EXPECT_EQ(object->handlers->count_elements(object, &count), SUCCESS);
    } else {
      Zval result = CallMethod(channel, "count");
      ASSERT_EQ(Z_TYPE_P(result.get()), IS_LONG);
      count = Z_LVAL_P(result.get());
    }
    EXPECT_EQ(count, 2);
  }));
}

// The object is an Awaitable whose event is the channel's.
TEST_F(ChannelCreationTest, ObjectIsAnEventReference) {
  EXPECT_TRUE(RunMain([&] {
    Zval channel = NewPhpChannel();
    zend_class_entry* awaitable = mock_zend::LookupClass("Async\\Awaitable");
    ASSERT_NE(awaitable, nullptr);
    EXPECT_TRUE(instanceof_function(channel.obj()->ce, awaitable));
    zend_async_event_t* event = ZEND_ASYNC_OBJECT_TO_EVENT(channel.obj());
    ASSERT_NE(event, nullptr);
    EXPECT_FALSE(ZEND_ASYNC_EVENT_IS_CLOSED(event));
    Close(channel);
    EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_CLOSED(event));
  }));
}

}  // namespace
}  // namespace zar::channel_testing
