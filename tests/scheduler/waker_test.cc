// The scheduler's wakers. Upstream's coroutines carry a waker from
// creation (php-async coroutine.c: coroutine_object_create installs the
// coroutine's embedded waker; the main coroutine the scheduler launches is
// made the same way), and extension code relies on it: upstream's pool
// waits with zend_async_resume_when() on the current coroutine without
// ZEND_ASYNC_WAKER_NEW. The waker constructor (ZEND_ASYNC_WAKER_NEW), whatever
// storage it uses, behaves as the ABI's default one: NULL means the current
// coroutine, a coroutine's waker is reused for every suspension (cleaned
// first unless its status is NO_STATUS). What a finished coroutine carries
// is the implementation's choice; only what WAKER_NEW returns is checked.

#include <gtest/gtest.h>

#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

class WakerTest : public SchedulerTest {};

void ExpectInitialised(const zend_async_waker_t* waker) {
  EXPECT_EQ(waker->status, ZEND_ASYNC_WAKER_NO_STATUS);
  EXPECT_EQ(zend_hash_num_elements(&waker->events), 0u);
  EXPECT_EQ(waker->triggered_events, nullptr);
  EXPECT_EQ(Z_TYPE(waker->result), IS_UNDEF);
  EXPECT_EQ(waker->error, nullptr);
  EXPECT_EQ(waker->filename, nullptr);
  EXPECT_EQ(waker->dtor, nullptr);
}

TEST_F(WakerTest, ANewCoroutineCarriesAWaker) {
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      zend_coroutine_t* created =
          ZEND_ASYNC_NEW_COROUTINE(ZEND_ASYNC_CURRENT_SCOPE);
      ASSERT_NE(created, nullptr);
      ASSERT_NE(created->waker, nullptr);
      ExpectInitialised(created->waker);
      EXPECT_EQ(ZEND_ASYNC_WAKER_NEW(created), created->waker);
      ZEND_ASYNC_EVENT_RELEASE(&created->event);  // never queued
    });
  }));
}

TEST_F(WakerTest, ASpawnedCoroutineStartsWithItsWakerClean) {
  const zend_async_waker_t* seen = nullptr;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
      seen = self->waker;
      ASSERT_NE(self->waker, nullptr);
      ExpectInitialised(self->waker);
      EXPECT_EQ(ZEND_ASYNC_WAKER_NEW(nullptr), self->waker);
    });
  }));
  EXPECT_NE(seen, nullptr);
}

TEST_F(WakerTest, TheLaunchedMainCoroutineCarriesAWaker) {
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    zend_coroutine_t* main = ZEND_ASYNC_CURRENT_COROUTINE;
    ASSERT_NE(main, nullptr);
    EXPECT_TRUE(ZEND_COROUTINE_IS_MAIN(main));
    ASSERT_NE(main->waker, nullptr);
    ExpectInitialised(main->waker);
    EXPECT_EQ(ZEND_ASYNC_WAKER_NEW(main), main->waker);
  }));
}

// What upstream's pool does: resume_when on the current coroutine, then
// suspend, with no ZEND_ASYNC_WAKER_NEW first.
TEST_F(WakerTest, ACoroutineWaitsWithoutWakerNew) {
  bool woke = false;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
      zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(1, false);
      ASSERT_TRUE(zend_async_resume_when(self, &timer->base, true,
                                         zend_async_waker_callback_resolve,
                                         nullptr));
      EXPECT_EQ(zend_hash_num_elements(&self->waker->events), 1u);
      woke = ZEND_ASYNC_SUSPEND();
      EXPECT_EQ(TakeExceptionText(), "");
    });
  }));
  EXPECT_TRUE(woke);
}

TEST_F(WakerTest, TheLaunchedMainFlowWaitsWithoutWakerNew) {
  bool woke = false;
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    zend_coroutine_t* main = ZEND_ASYNC_CURRENT_COROUTINE;
    zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(1, false);
    ASSERT_TRUE(zend_async_resume_when(
        main, &timer->base, true, zend_async_waker_callback_timeout, nullptr));
    woke = ZEND_ASYNC_SUSPEND();
    // The timeout callback resumes with a TimeoutException, as upstream's
    // pool expects of an acquire that timed out.
    EXPECT_EQ(TakeExceptionText(),
              "Async\\TimeoutException: Operation has been cancelled by "
              "timeout");
  }));
  EXPECT_FALSE(woke);
}

TEST_F(WakerTest, TheWakerIsReusedAndCleanedForEverySuspension) {
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
      zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(nullptr);
      ASSERT_NE(waker, nullptr);
      EXPECT_EQ(self->waker, waker);
      ExpectInitialised(waker);

      for (int i = 0; i < 3; i++) {
        EXPECT_TRUE(Yield());
        EXPECT_EQ(self->waker, waker);
        EXPECT_EQ(waker->status, ZEND_ASYNC_WAKER_RESULT);
        EXPECT_EQ(ZEND_ASYNC_WAKER_NEW(self), waker);
        ExpectInitialised(waker);
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
    ExpectInitialised(waker);
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
