// The scheduler's wakers, as the ABI defines them: the waker constructor
// (ZEND_ASYNC_WAKER_NEW), whatever storage it uses, behaves as the ABI's
// default one: NULL means the current coroutine, a coroutine's waker is
// reused for every suspension (cleaned first unless its status is
// NO_STATUS). Who makes a coroutine's waker, and when, is the
// implementation's choice: the suite always asks for one with
// ZEND_ASYNC_WAKER_NEW before it waits. (The reference, like upstream, gives
// every coroutine its waker at creation; tests/scheduler/unit/
// waker_from_creation_test.cc holds it to that.) What a finished coroutine
// carries is the implementation's choice too; only what WAKER_NEW returns is
// checked.

#include <gtest/gtest.h>

#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

class WakerTest : public SchedulerTest {};

TEST_F(WakerTest, TheWakerIsReusedAndCleanedForEverySuspension) {
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
      zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(nullptr);
      ASSERT_NE(waker, nullptr);
      EXPECT_EQ(self->waker, waker);
      ExpectWakerInitialised(waker);

      for (int i = 0; i < 3; i++) {
        EXPECT_TRUE(Yield());
        EXPECT_EQ(self->waker, waker);
        EXPECT_EQ(waker->status, ZEND_ASYNC_WAKER_RESULT);
        EXPECT_EQ(ZEND_ASYNC_WAKER_NEW(self), waker);
        ExpectWakerInitialised(waker);
      }
    });
  }));
}

TEST_F(WakerTest, AWakerWithoutStatusKeepsItsEvents) {
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
      zend_async_event_t* event = NewPlainEvent();
      zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(self);
      ASSERT_TRUE(zend_async_resume_when(
          self, event, false, zend_async_waker_callback_resolve, nullptr));
      EXPECT_EQ(ZEND_ASYNC_WAKER_NEW(self), waker);
      EXPECT_EQ(zend_hash_num_elements(&waker->events), 1u);
      EXPECT_EQ(event->ref_count, 2u);  // the waker's
      zend_async_waker_clean(self);
      EXPECT_EQ(event->ref_count, 1u);
      EXPECT_EQ(event->callbacks.length, 0u);
      ZEND_ASYNC_EVENT_RELEASE(event);
    });
  }));
}

// A waker made for a finished coroutine works and goes (releasing its
// event) when the coroutine is freed. Whether a finished coroutine still
// carries a waker is the implementation's choice (upstream's coroutines
// carry one for life), so only what ZEND_ASYNC_WAKER_NEW returns is checked.
TEST_F(WakerTest, AFinishedCoroutineGetsAFreshWakerFreedWithIt) {
  CoroutineRef finished;
  EXPECT_TRUE(RunMain([&] {
    finished = CoroutineRef(Spawn([](mock_zend::Call&) {}));
    Await(finished.get());
    ASSERT_TRUE(ZEND_COROUTINE_IS_FINISHED(finished.get()));

    zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(finished.get());
    ASSERT_NE(waker, nullptr);
    EXPECT_EQ(finished->waker, waker);
    ExpectWakerInitialised(waker);
    zend_async_event_t* event = NewPlainEvent();
    ASSERT_TRUE(zend_async_resume_when(finished.get(), event, false,
                                       zend_async_waker_callback_resolve,
                                       nullptr));
    EXPECT_EQ(event->ref_count, 2u);
    finished.Reset();  // the last reference: the coroutine and its waker go
    EXPECT_EQ(event->ref_count, 1u);
    EXPECT_EQ(event->callbacks.length, 0u);
    ZEND_ASYNC_EVENT_RELEASE(event);
  }));
}

}  // namespace
}  // namespace zar::scheduler_testing
