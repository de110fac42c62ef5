// The reference's choices for poll proxies, which the ABI leaves open: a
// started proxy takes a loop reference on the shared poll and the poll's
// interest becomes the union of its started proxies' (and its own while it
// is started directly), restored as they stop; a poll started directly
// alongside its proxies is notified with them; a proxy of a closed poll does
// not start. php-async instead ORs a proxy's interest into the poll without
// a loop reference, notifies only the proxies while any is attached, and
// starts a proxy whatever its poll.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/reactor/support/poll_proxy_test.h"

namespace zar::reactor_testing {
namespace {

using ::testing::ElementsAre;

class PollProxyReferenceTest : public PollProxyTest {};

TEST_F(PollProxyReferenceTest,
       ProxiesStartTheSharedPollWithTheUnionAndRestore) {
  zend_async_poll_event_t* poll = NewPoll(ASYNC_DISCONNECT);
  zend_async_poll_proxy_t* reader = NewProxy(poll, ASYNC_READABLE);
  zend_async_poll_proxy_t* writer = NewProxy(poll, ASYNC_WRITABLE);
  EXPECT_EQ(reader->poll_event, poll);
  EXPECT_EQ(poll->base.ref_count, 3u);

  ASSERT_TRUE(reader->base.start(&reader->base));
  EXPECT_EQ(poll->base.loop_ref_count, 1u);
  EXPECT_EQ(poll->events, ASYNC_READABLE);
  ASSERT_TRUE(writer->base.start(&writer->base));
  EXPECT_EQ(poll->base.loop_ref_count, 2u);
  EXPECT_EQ(poll->events, ASYNC_READABLE | ASYNC_WRITABLE);
  // A proxy started twice still holds one reference on the poll.
  ASSERT_TRUE(writer->base.start(&writer->base));
  EXPECT_EQ(writer->base.loop_ref_count, 2u);
  EXPECT_EQ(poll->base.loop_ref_count, 2u);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 3u);

  EXPECT_TRUE(writer->base.stop(&writer->base));
  EXPECT_TRUE(writer->base.stop(&writer->base));
  EXPECT_EQ(poll->base.loop_ref_count, 1u);
  EXPECT_EQ(poll->events, ASYNC_READABLE);
  EXPECT_TRUE(reader->base.stop(&reader->base));
  EXPECT_EQ(poll->base.loop_ref_count, 0u);
  EXPECT_EQ(poll->events, ASYNC_DISCONNECT);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());

  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
  EXPECT_EQ(poll->base.ref_count, 2u);
  Release({&reader->base, &writer->base});
}

TEST_F(PollProxyReferenceTest,
       DirectlyStartedPollKeepsItsOwnInterestAlongside) {
  zend_async_poll_event_t* poll = NewPoll(ASYNC_READABLE);
  zend_async_poll_proxy_t* writer = NewProxy(poll, ASYNC_WRITABLE);
  AddRecorder(&poll->base, &log_, "poll", ResultKind::kPollMask);
  AddRecorder(&writer->base, &log_, "writer", ResultKind::kProxyMask);
  ASSERT_TRUE(poll->base.start(&poll->base));
  ASSERT_TRUE(writer->base.start(&writer->base));
  EXPECT_EQ(poll->events, ASYNC_READABLE | ASYNC_WRITABLE);
  EXPECT_EQ(poll->base.loop_ref_count, 2u);

  sockets_.WriteRight();
  ASSERT_TRUE(RunUntil([&] { return log_.size() >= 2; }));
  EXPECT_THAT(Names(log_), ElementsAre("poll", "writer"));
  EXPECT_EQ(log_[0].value, ASYNC_READABLE | ASYNC_WRITABLE);
  EXPECT_EQ(log_[1].value, ASYNC_WRITABLE);

  EXPECT_TRUE(writer->base.stop(&writer->base));
  EXPECT_EQ(poll->events, ASYNC_READABLE);
  EXPECT_EQ(poll->base.loop_ref_count, 1u);
  Release({&writer->base, &poll->base});
}

TEST_F(PollProxyReferenceTest,
       DirectStartAndStopWithProxiesAttachedRetuneTheMask) {
  zend_async_poll_event_t* poll = NewPoll(ASYNC_READABLE);
  zend_async_poll_proxy_t* writer = NewProxy(poll, ASYNC_WRITABLE);
  AddRecorder(&poll->base, &log_, "poll", ResultKind::kPollMask);
  ASSERT_TRUE(writer->base.start(&writer->base));
  EXPECT_EQ(poll->events, ASYNC_WRITABLE);

  // Started directly while the proxy is attached: its own interest joins.
  ASSERT_TRUE(poll->base.start(&poll->base));
  EXPECT_EQ(poll->events, ASYNC_READABLE | ASYNC_WRITABLE);
  sockets_.WriteRight();
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));
  EXPECT_NE(log_[0].value & ASYNC_READABLE, 0);

  // Stopped directly: back to the proxy's interest only, not notified.
  EXPECT_TRUE(poll->base.stop(&poll->base));
  EXPECT_EQ(poll->events, ASYNC_WRITABLE);
  EXPECT_EQ(poll->base.loop_ref_count, 1u);
  log_.clear();
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_EXECUTE(true));
  EXPECT_TRUE(log_.empty());

  EXPECT_TRUE(writer->base.stop(&writer->base));
  EXPECT_EQ(poll->events, ASYNC_READABLE);
  Release({&writer->base, &poll->base});
}

TEST_F(PollProxyReferenceTest, ProxyOfAClosedPollDoesNotStart) {
  zend_async_poll_event_t* poll = NewPoll(ASYNC_READABLE);
  zend_async_poll_proxy_t* proxy = NewProxy(poll, ASYNC_READABLE);
  ZEND_ASYNC_EVENT_SET_CLOSED(&poll->base);

  EXPECT_FALSE(proxy->base.start(&proxy->base));
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(proxy->base.loop_ref_count, 0u);
  EXPECT_EQ(poll->base.loop_ref_count, 0u);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  Release({&proxy->base, &poll->base});
}

TEST_F(PollProxyReferenceTest,
       AProxyDisposedWhileStartedRestoresThePollsInterest) {
  zend_async_poll_event_t* poll = NewPoll(ASYNC_DISCONNECT);
  zend_async_poll_proxy_t* proxy = NewProxy(poll, ASYNC_WRITABLE);
  ASSERT_TRUE(proxy->base.start(&proxy->base));

  ZEND_ASYNC_EVENT_RELEASE(&proxy->base);

  EXPECT_EQ(poll->events, ASYNC_DISCONNECT);
  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
}

}  // namespace
}  // namespace zar::reactor_testing
