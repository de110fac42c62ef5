// Poll proxies: narrower views sharing one poll event. How a proxy's start
// and stop change the shared poll's own interest and loop references, and
// whether a poll started directly alongside its proxies is notified too, the
// ABI leaves open (php-async notifies only the proxies while any is
// attached): the reference's choices are in unit/poll_proxy_reference_test.cc.

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/reactor/support/poll_proxy_test.h"

namespace zar::reactor_testing {
namespace {

using ::testing::ElementsAre;

class PollProxyEventTest : public PollProxyTest {};

TEST_F(PollProxyEventTest, EachProxySeesItsSubsetOfTheReadiness) {
  zend_async_poll_event_t* poll = NewPoll(ASYNC_READABLE);
  zend_async_poll_proxy_t* reader = NewProxy(poll, ASYNC_READABLE);
  zend_async_poll_proxy_t* writer = NewProxy(poll, ASYNC_WRITABLE);
  AddRecorder(&poll->base, &log_, "poll", ResultKind::kPollMask);
  AddRecorder(&reader->base, &log_, "reader", ResultKind::kProxyMask);
  AddRecorder(&writer->base, &log_, "writer", ResultKind::kProxyMask);
  ASSERT_TRUE(reader->base.start(&reader->base));
  ASSERT_TRUE(writer->base.start(&writer->base));

  // Nothing to read yet: only the writer.
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));
  EXPECT_THAT(Names(log_), ElementsAre("writer"));
  EXPECT_EQ(log_[0].value, ASYNC_WRITABLE);
  EXPECT_EQ(writer->triggered_events, ASYNC_WRITABLE);

  // Readable and writable: each proxy gets its own bit, in attach order;
  // the poll, not started directly, is not notified.
  log_.clear();
  sockets_.WriteRight();
  ASSERT_TRUE(RunUntil([&] { return log_.size() >= 2; }));
  EXPECT_THAT(Names(log_), ElementsAre("reader", "writer"));
  EXPECT_EQ(log_[0].value, ASYNC_READABLE);
  EXPECT_EQ(log_[1].value, ASYNC_WRITABLE);
  EXPECT_EQ(reader->triggered_events, ASYNC_READABLE);
  EXPECT_EQ(poll->triggered_events, ASYNC_READABLE | ASYNC_WRITABLE);

  Release({&reader->base, &writer->base, &poll->base});
}

TEST_F(PollProxyEventTest, ProxyDisposedWhileStartedDetachesAndReleasesPoll) {
  zend_async_poll_event_t* poll = NewPoll(ASYNC_DISCONNECT);
  zend_async_poll_proxy_t* proxy = NewProxy(poll, ASYNC_WRITABLE);
  ASSERT_TRUE(proxy->base.start(&proxy->base));

  ZEND_ASYNC_EVENT_RELEASE(&proxy->base);

  EXPECT_EQ(poll->base.ref_count, 1u);
  EXPECT_EQ(poll->base.loop_ref_count, 0u);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
}

TEST_F(PollProxyEventTest, InfoShowsTheProxyInterest) {
  zend_async_poll_event_t* poll = NewPoll(ASYNC_READABLE);
  zend_async_poll_proxy_t* proxy = NewProxy(poll, ASYNC_WRITABLE);
  // An upstream fact: php-async's libuv reactor writes this very info().
  EXPECT_EQ(InfoOf(&proxy->base), "PollProxy(events=w)");
  Release({&poll->base, &proxy->base});
}

}  // namespace
}  // namespace zar::reactor_testing
