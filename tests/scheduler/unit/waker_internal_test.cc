// The reference scheduler's wakers seen through its own layout: what the
// conformance suite cannot ask of another implementation. Each coroutine's
// waker is the storage embedded in its AsyncCoroutine, installed at
// creation; ZEND_ASYNC_WAKER_DESTROY empties it without taking it away (as
// upstream's does), and it goes only when the coroutine object is freed.

#include <gtest/gtest.h>

#include "core/scheduler/coroutine.h"
#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using zar::core::AsyncCoroutine;

class WakerInternalTest : public SchedulerTest {};

zend_async_waker_t* Embedded(zend_coroutine_t* coroutine) {
  return &AsyncCoroutine::FromAbi(coroutine)->waker_storage;
}

TEST_F(WakerInternalTest, EveryCoroutineCarriesItsEmbeddedWaker) {
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    EXPECT_EQ(ZEND_ASYNC_MAIN_COROUTINE->waker,
              Embedded(ZEND_ASYNC_MAIN_COROUTINE));
    EXPECT_EQ(ZEND_ASYNC_SCHEDULER->waker, Embedded(ZEND_ASYNC_SCHEDULER));
    Spawn([&](mock_zend::Call&) {
      zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
      EXPECT_EQ(self->waker, Embedded(self));
      zend_coroutine_t* created =
          ZEND_ASYNC_NEW_COROUTINE(ZEND_ASYNC_CURRENT_SCOPE);
      EXPECT_EQ(created->waker, Embedded(created));
      ZEND_ASYNC_EVENT_RELEASE(&created->event);
    });
  }));
}

TEST_F(WakerInternalTest, WakerDestroyEmptiesTheWakerAndKeepsIt) {
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
      zend_async_event_t* event = NewPlainEvent();
      ASSERT_TRUE(zend_async_resume_when(
          self, event, false, zend_async_waker_callback_resolve, nullptr));
      self->waker->status = ZEND_ASYNC_WAKER_WAITING;
      EXPECT_EQ(event->ref_count, 2u);  // the waker's

      ZEND_ASYNC_WAKER_DESTROY(self);
      EXPECT_EQ(self->waker, Embedded(self));
      EXPECT_EQ(self->waker->status, ZEND_ASYNC_WAKER_NO_STATUS);
      EXPECT_EQ(zend_hash_num_elements(&self->waker->events), 0u);
      EXPECT_EQ(event->ref_count, 1u);
      EXPECT_EQ(event->callbacks.length, 0u);
      ZEND_ASYNC_EVENT_RELEASE(event);
    });
  }));
}

// A finished coroutine keeps its emptied waker until it is freed; a later
// ZEND_ASYNC_WAKER_NEW hands out the same one.
TEST_F(WakerInternalTest, AFinishedCoroutineKeepsItsEmptiedWaker) {
  CoroutineRef finished;
  EXPECT_TRUE(RunMain([&] {
    finished = CoroutineRef(Spawn([](mock_zend::Call&) { Yield(); }));
    Await(finished.get());
    ASSERT_TRUE(ZEND_COROUTINE_IS_FINISHED(finished.get()));
    ASSERT_EQ(finished->waker, Embedded(finished.get()));
    EXPECT_EQ(finished->waker->status, ZEND_ASYNC_WAKER_NO_STATUS);
    EXPECT_EQ(zend_hash_num_elements(&finished->waker->events), 0u);
    EXPECT_EQ(finished->waker->error, nullptr);
    EXPECT_EQ(ZEND_ASYNC_WAKER_NEW(finished.get()), Embedded(finished.get()));
    finished.Reset();  // the leak check proves the waker's tables went
  }));
}

}  // namespace
}  // namespace zar::scheduler_testing
