// zend_async_ref_park (zend_async_ref/park.h), the park protocol written
// once: its one rule for errors (what it returns, what is left in
// EG(exception), what it took over), with the reference scheduler.

#include <gtest/gtest.h>

#include "tests/scheduler/support/scheduler_test.h"

extern "C" {
#include "zend_async_ref/park.h"
}

namespace zar::scheduler_testing {
namespace {

class ParkTest : public SchedulerTest {};

// A park on `event` alone, with the resolve callback.
zend_async_ref_park_t ParkOn(zend_async_event_t* event) {
  zend_async_ref_park_t park = {};
  park.events[0].event = event;
  return park;
}

void ExpectNothingArmed(zend_coroutine_t* self, zend_async_event_t* event) {
  EXPECT_EQ(zend_hash_num_elements(&self->waker->events), 0u);
  EXPECT_EQ(event->callbacks.length, 0u);
  EXPECT_EQ(event->ref_count, 1u);
}

TEST_F(ParkTest, AFiredEventResumesTheParkWhichReturnsTrueAndCleansTheWaker) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* event = NewPlainEvent();
    bool parked = false;
    Spawn([&](mock_zend::Call&) {
      zend_async_ref_park_t park = ParkOn(event);
      parked = zend_async_ref_park(ZEND_ASYNC_CURRENT_COROUTINE, &park);
      ExpectNothingArmed(ZEND_ASYNC_CURRENT_COROUTINE, event);
      EXPECT_EQ(ZEND_ASYNC_CURRENT_COROUTINE->waker->status,
                ZEND_ASYNC_WAKER_NO_STATUS);
    });
    Yield();
    EXPECT_EQ(event->callbacks.length, 1u);
    FirePlainEvent(event);
    Yield();
    EXPECT_TRUE(parked);
    ZEND_ASYNC_EVENT_RELEASE(event);
  }));
}

TEST_F(ParkTest, TheWakersResultIsCopiedOutBeforeTheClean) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* event = NewPlainEvent();
    ZEND_ASYNC_EVENT_SET_ZVAL_RESULT(event);
    zval result;
    ZVAL_UNDEF(&result);
    Spawn([&](mock_zend::Call&) {
      zend_async_ref_park_t park = ParkOn(event);
      park.result = &result;
      EXPECT_TRUE(zend_async_ref_park(ZEND_ASYNC_CURRENT_COROUTINE, &park));
      EXPECT_EQ(Z_TYPE(ZEND_ASYNC_CURRENT_COROUTINE->waker->result), IS_UNDEF);
    });
    Yield();
    zval value;
    ZVAL_LONG(&value, 42);
    ZEND_ASYNC_CALLBACKS_NOTIFY(event, &value, nullptr);
    Yield();
    ASSERT_EQ(Z_TYPE(result), IS_LONG);
    EXPECT_EQ(Z_LVAL(result), 42);
    ZEND_ASYNC_EVENT_RELEASE(event);
  }));
}

// The waker is not touched: an event its coroutine registered by hand
// before stays registered.
TEST_F(ParkTest, AnExceptionInFlightArmsNothingAndIsWhatTheFalseReturnLeaves) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* event = NewPlainEvent();
    zend_async_event_t* registered = NewPlainEvent();
    CoroutineRef body(Spawn([&](mock_zend::Call&) {
      zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
      ZEND_ASYNC_WAKER_NEW(self);
      zend_async_resume_when(self, registered, false,
                             zend_async_waker_callback_resolve, nullptr);
      zend_object* in_flight =
          zend_throw_exception(zend_ce_exception, "already failing", 0);
      zend_async_ref_park_t park = ParkOn(event);
      EXPECT_FALSE(zend_async_ref_park(self, &park));
      EXPECT_EQ(EG(exception), in_flight);
      EXPECT_EQ(TakeExceptionText(), "Exception: already failing");
      EXPECT_EQ(event->callbacks.length, 0u);
      EXPECT_EQ(event->ref_count, 1u);
      EXPECT_EQ(registered->callbacks.length, 1u);
      zend_async_waker_clean(self);
    }));
    EXPECT_EQ(Await(body.get()).error, "");
    ZEND_ASYNC_EVENT_RELEASE(event);
    ZEND_ASYNC_EVENT_RELEASE(registered);
  }));
}

TEST_F(ParkTest, OutsideACoroutineTheParkRefusesWithAsyncException) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* event = NewPlainEvent();
    zend_async_ref_park_t park = ParkOn(event);
    EXPECT_FALSE(zend_async_ref_park(nullptr, &park));
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: Cannot park outside a coroutine");
    EXPECT_EQ(event->callbacks.length, 0u);
    EXPECT_EQ(event->ref_count, 1u);
    ZEND_ASYNC_EVENT_RELEASE(event);
  }));
}

// The second event is closed: the first, armed already, is let go; nothing
// suspends; the refusal is resume_when's Error.
TEST_F(ParkTest, AClosedEventIsRefusedWithItsErrorAndTheArmedOnesAreLetGo) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* open = NewPlainEvent();
    zend_async_event_t* closed = NewPlainEvent();
    ZEND_ASYNC_EVENT_SET_CLOSED(closed);
    CoroutineRef body(Spawn([&](mock_zend::Call&) {
      zend_async_ref_park_t park = ParkOn(open);
      park.events[1].event = closed;
      EXPECT_FALSE(zend_async_ref_park(ZEND_ASYNC_CURRENT_COROUTINE, &park));
      EXPECT_EQ(TakeExceptionText(),
                "Error: The event cannot be used after it has been "
                "terminated");
      ExpectNothingArmed(ZEND_ASYNC_CURRENT_COROUTINE, open);
      ExpectNothingArmed(ZEND_ASYNC_CURRENT_COROUTINE, closed);
    }));
    EXPECT_EQ(Await(body.get()).error, "");
    ZEND_ASYNC_EVENT_RELEASE(open);
    ZEND_ASYNC_EVENT_RELEASE(closed);
  }));
}

// A transferred event after the refused one is released at once: the park
// took the caller's reference, whatever happened before its turn.
TEST_F(ParkTest, ATransferredEventNotReachedBeforeARefusalIsReleased) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* closed = NewPlainEvent();
    ZEND_ASYNC_EVENT_SET_CLOSED(closed);
    zend_async_event_t* transferred = NewPlainEvent();
    ZEND_ASYNC_EVENT_ADD_REF(transferred);  // the test keeps one
    CoroutineRef body(Spawn([&](mock_zend::Call&) {
      zend_async_ref_park_t park = ParkOn(closed);
      park.events[1].event = transferred;
      park.events[1].trans_event = true;
      EXPECT_FALSE(zend_async_ref_park(ZEND_ASYNC_CURRENT_COROUTINE, &park));
      EXPECT_EQ(TakeExceptionText(),
                "Error: The event cannot be used after it has been "
                "terminated");
      EXPECT_EQ(transferred->ref_count, 1u);
    }));
    EXPECT_EQ(Await(body.get()).error, "");
    ZEND_ASYNC_EVENT_RELEASE(transferred);
    ZEND_ASYNC_EVENT_RELEASE(closed);
  }));
}

TEST_F(ParkTest, TheTimeoutEndsTheWaitWithTimeoutException) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* event = NewPlainEvent();
    CoroutineRef body(Spawn([&](mock_zend::Call&) {
      zend_async_ref_park_t park = ParkOn(event);
      park.timeout_ms = 1;
      EXPECT_FALSE(zend_async_ref_park(ZEND_ASYNC_CURRENT_COROUTINE, &park));
      EXPECT_EQ(TakeExceptionText(),
                "Async\\TimeoutException: Operation has been cancelled by "
                "timeout");
      ExpectNothingArmed(ZEND_ASYNC_CURRENT_COROUTINE, event);
    }));
    EXPECT_EQ(Await(body.get()).error, "");
    ZEND_ASYNC_EVENT_RELEASE(event);
  }));
}

TEST_F(ParkTest, ACancellationEventWithTheCancelCallbackEndsTheWait) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* event = NewPlainEvent();
    zend_async_event_t* cancellation = NewPlainEvent();
    Spawn([&](mock_zend::Call&) {
      zend_async_ref_park_t park = ParkOn(event);
      park.events[1].event = cancellation;
      park.events[1].callback = zend_async_waker_callback_cancel;
      EXPECT_FALSE(zend_async_ref_park(ZEND_ASYNC_CURRENT_COROUTINE, &park));
      EXPECT_EQ(TakeExceptionText(),
                "Async\\OperationCanceledException: Operation has been "
                "cancelled");
      ExpectNothingArmed(ZEND_ASYNC_CURRENT_COROUTINE, event);
      ExpectNothingArmed(ZEND_ASYNC_CURRENT_COROUTINE, cancellation);
    });
    Yield();
    FirePlainEvent(cancellation);
    Yield();
    ZEND_ASYNC_EVENT_RELEASE(event);
    ZEND_ASYNC_EVENT_RELEASE(cancellation);
  }));
}

TEST_F(ParkTest, ACancelledCoroutineLeavesItsParkWithTheCancellation) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* event = NewPlainEvent();
    CoroutineRef parked(Spawn([&](mock_zend::Call&) {
      zend_async_ref_park_t park = ParkOn(event);
      EXPECT_FALSE(zend_async_ref_park(ZEND_ASYNC_CURRENT_COROUTINE, &park));
      EXPECT_EQ(TakeExceptionText(),
                "Async\\AsyncCancellation: Coroutine cancelled");
      ExpectNothingArmed(ZEND_ASYNC_CURRENT_COROUTINE, event);
    }));
    Yield();
    zar::testing::Cancel(parked.get());
    Yield();
    EXPECT_TRUE(parked.finished());
    ZEND_ASYNC_EVENT_RELEASE(event);
  }));
}

}  // namespace
}  // namespace zar::scheduler_testing
