// Strict mode and disposed events: the reference implementation's events
// go to a quarantine instead of being freed, so a release that drives a
// disposed event's ref_count below zero (ZEND_ASYNC_EVENT_RELEASE is a
// header macro) is found at the next dispose or at request end, and named
// with the info() captured at dispose; any later use of the event hits a
// trap that reports it. Memory is freed by request end.

#include <string>
#include <vector>

#include "tests/strict/support/strict_test.h"

extern "C" {
#include "zend_async_ref/strict.h"
}

namespace zar::strict_testing {
namespace {

class EventStrictTest : public StrictTest {};

TEST_F(EventStrictTest, PoolReleasedBelowZeroIsFoundAtTheNextDispose) {
  RunMain([&] {
    zend_async_pool_t* pool = IntPool(2);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);  // disposed: quarantined
    EXPECT_EQ(zend_async_ref_strict_quarantined(), 1u);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);  // below zero
    EXPECT_EQ(Diagnostics(), Strings{});

    zend_async_pool_t* next = IntPool(1);
    ZEND_ASYNC_EVENT_RELEASE(&next->event);  // the next dispose checks
    EXPECT_EQ(Diagnostics(),
              Strings{"ZEND_ASYNC_EVENT_RELEASE: Pool#1 Pool(idle=0, "
                      "active=0, reserved=0, max=2): released 1 time(s) after "
                      "it was disposed: its reference count went below zero "
                      "(4294967295)"});
  });
}

TEST_F(EventStrictTest, TimerReleasedBelowZeroIsFoundAtRequestEnd) {
  RunMain([&] {
    zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(10, false);
    ASSERT_NE(timer, nullptr);
    ZEND_ASYNC_EVENT_RELEASE(&timer->base);  // disposed (closing)
    ZEND_ASYNC_EVENT_RELEASE(&timer->base);  // below zero
  });
  const php_mock_request_report report = EndRequest();
  EXPECT_EQ(report.leaked_blocks, 0u);
  EXPECT_EQ(Diagnostics(),
            Strings{"ZEND_ASYNC_EVENT_RELEASE: Timer#1 Timer(timeout=10ms, "
                    "once): released 1 time(s) after it was disposed: its "
                    "reference count went below zero (4294967295)"});
}

TEST_F(EventStrictTest, UseOfADisposedEventIsTrapped) {
  RunMain([&] {
    zend_async_pool_t* pool = IntPool(1);
    zend_async_event_t* event = &pool->event;
    ZEND_ASYNC_EVENT_RELEASE(event);

    zend_async_event_callback_t callback = {};
    callback.callback = Ignore;
    callback.dispose = KeepCallback;
    EXPECT_FALSE(event->add_callback(event, &callback));
    EXPECT_FALSE(event->start(event));
    EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_CLOSED(event));
    // A reference taken and dropped again: the release disposes it twice.
    ZEND_ASYNC_EVENT_ADD_REF(event);
    ZEND_ASYNC_EVENT_RELEASE(event);
    const std::string name = "Pool#1 Pool(idle=0, active=0, reserved=0, max=1)";
    EXPECT_EQ(Diagnostics(),
              (Strings{"add_callback: " + name + ": used after it was disposed",
                       "start: " + name + ": used after it was disposed",
                       "dispose: " + name + ": disposed twice"}));
  });
}

// Disposed events are quarantined while strict mode is on; the memory is
// freed by the end of the request (the fixture fails on a leaked block)
// and the quarantine is bounded.
TEST_F(EventStrictTest, QuarantineIsBoundedAndEmptiedAtRequestEnd) {
  RunMain([&] {
    for (int i = 0; i < ZEND_ASYNC_REF_QUARANTINE_SIZE + 10; i++) {
      zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(1, false);
      ZEND_ASYNC_EVENT_RELEASE(&timer->base);
      zend_async_pool_t* pool = IntPool(1);
      ZEND_ASYNC_EVENT_RELEASE(&pool->event);
    }
    EXPECT_EQ(zend_async_ref_strict_quarantined(),
              uint32_t{ZEND_ASYNC_REF_QUARANTINE_SIZE});
  });
  EndRequest();
  EXPECT_EQ(zend_async_ref_strict_quarantined(), 0u);
  EXPECT_EQ(Diagnostics(), Strings{});
}

TEST_F(EventStrictTest, EventsAreFreedAtOnceWithoutStrictMode) {
  RunMain([&] {
    zend_async_ref_strict_enable(false);
    zend_async_pool_t* pool = IntPool(1);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
    EXPECT_EQ(zend_async_ref_strict_quarantined(), 0u);
    zend_async_ref_strict_enable(true);
  });
}

}  // namespace
}  // namespace zar::strict_testing
