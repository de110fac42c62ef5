// The reference's own answers for channels, where upstream has none to
// compare with (label unit, not in the conformance runner): upstream's
// new_channel_fn and new_channel_obj_fn are stubs that return NULL without
// an exception (php-async async_API.c), its ThreadChannel is thread-safe,
// and its Async\Channel gets its channel from create_object (a second
// __construct re-initialises it in place). The reference refuses each of
// these with Async\AsyncException, the class of upstream's refusals.

#include <gtest/gtest.h>

#include "tests/channel/support/channel_test.h"

namespace zar::channel_testing {
namespace {

using ChannelReferenceTest = ChannelTest;

TEST_F(ChannelReferenceTest, ThreadSafeChannelsAreRefused) {
  EXPECT_TRUE(RunMain([&] {
    EXPECT_EQ(ZEND_ASYNC_NEW_CHANNEL(1, false, true), nullptr);
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: Thread-safe channels are not supported "
              "by zend-async-ref: no other thread runs PHP code to share them "
              "with");
  }));
}

TEST_F(ChannelReferenceTest, NewChannelObjectOfNullIsRefused) {
  EXPECT_TRUE(RunMain([&] {
    EXPECT_EQ(ZEND_ASYNC_NEW_CHANNEL_OBJ(nullptr), nullptr);
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: ZEND_ASYNC_NEW_CHANNEL_OBJ(): no "
              "channel");
  }));
}

TEST_F(ChannelReferenceTest, CSendAndReceiveRefuseANullChannel) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_channel_t* channel = ZEND_ASYNC_NEW_CHANNEL(1, false, false);
    ASSERT_NE(channel, nullptr);
    zval value;
    ZVAL_LONG(&value, 1);
    EXPECT_FALSE(channel->send(nullptr, &value));
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: ZEND_ASYNC channel send: no channel or "
              "value");
    EXPECT_FALSE(channel->send(channel, nullptr));
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: ZEND_ASYNC channel send: no channel or "
              "value");
    zval result;
    ZVAL_UNDEF(&result);
    EXPECT_FALSE(channel->receive(nullptr, &result, nullptr));
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: ZEND_ASYNC channel receive: no channel");
    ZEND_ASYNC_EVENT_RELEASE(&channel->event);
  }));
}

// An object whose constructor did not run has no channel.
TEST_F(ChannelReferenceTest, UnconstructedObjectRefusesEveryMethod) {
  EXPECT_TRUE(RunMain([&] {
    Zval object;
    object_init_ex(object.get(), ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_CHANNEL));
    Send(object, Zval::Long(1));
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: Async\\Channel is not initialized");
    Recv(object);
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: Async\\Channel is not initialized");
    EXPECT_TRUE(IsClosed(object));
  }));
}

TEST_F(ChannelReferenceTest, SecondConstructIsRefused) {
  EXPECT_TRUE(RunMain([&] {
    Zval channel = NewPhpChannel({2});
    Zval capacity = Zval::Long(5);
    CallMethod(channel.get(), "__construct", {capacity.get()});
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: Async\\Channel is already initialized");
    EXPECT_EQ(Capacity(channel), 2);
  }));
}

}  // namespace
}  // namespace zar::channel_testing
