// Wakers: creation and reuse, resume_when and its event references, the
// inline trigger/callback slots, the standard resume callbacks and the
// error merge rules (zend_async_waker_t in true-async/php-src
// Zend/zend_async_API.h and its functions in Zend/zend_async_API.c,
// de8c19de).

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mock_zend/inspect.h"
#include "tests/abi/support/fake_async.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace zar::abi_testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr char kNotRunning[] =
    "E_CORE_ERROR: Cannot create waker for a coroutine that is not running";

// The key of an event in waker->events: the pointer rotated right by 3.
zend_ulong EventKey(const void* event) {
  const auto key = static_cast<zend_ulong>(reinterpret_cast<uintptr_t>(event));
  return (key >> 3) | (key << 61);
}

void NoopCallback(zend_async_event_t*, zend_async_event_callback_t*, void*,
                  zend_object*) {}

class AbiWakerTest : public zar::testing::RequestFixture {
 protected:
  std::vector<zend_module_entry*> Modules() override {
    return {FakeAsyncModule()};
  }

  void TearDown() override {
    DestroyWaker();
    RequestFixture::TearDown();
  }

  // The default destroy leaves the waker's memory to its owner.
  void DestroyWaker() {
    zend_async_waker_t* waker = coroutine_.waker;
    if (waker != nullptr) {
      ZEND_ASYNC_WAKER_DESTROY(&coroutine_);
      efree(waker);
    }
  }

  zend_async_waker_trigger_t* TriggerOf(zend_async_event_t* event) {
    return static_cast<zend_async_waker_trigger_t*>(
        zend_hash_index_find_ptr(&coroutine_.waker->events, EventKey(event)));
  }

  // Subscribes coroutine_'s waker to `event` with NoopCallback, the
  // caller keeping its reference (trans_event false).
  bool ResumeWhen(zend_async_event_t* event,
                  zend_async_event_callback_fn callback = NoopCallback) {
    return zend_async_resume_when(&coroutine_, event, false, callback, nullptr);
  }

  // A fake event (probe_) coroutine_'s waker is subscribed to with the
  // waker's cancel callback, as a cancellation token is.
  zend_async_event_t* SubscribedCancellation() {
    zend_async_event_t* cancellation = NewFakeEvent(&probe_);
    EXPECT_TRUE(ResumeWhen(cancellation, zend_async_waker_callback_cancel));
    return cancellation;
  }

  zend_coroutine_t coroutine_ = MakeCoroutine();
  // What happened to the event a test made with NewFakeEvent(&probe_).
  EventProbe probe_;
};

// ---- define / new / init ---------------------------------------------------

TEST_F(AbiWakerTest, WithoutARunningCoroutineNoWakerIsCreated) {
  ExpectFatalErrors(
      {"Cannot create waker for a coroutine that is not running",
       "Cannot create waker for a coroutine that is not running",
       "Cannot create waker for a coroutine that is not running"});
  EXPECT_EQ(zend_async_waker_define(nullptr), nullptr);
  EXPECT_EQ(ZEND_ASYNC_WAKER_NEW(nullptr), nullptr);
  EXPECT_EQ(zend_async_waker_new_with_timeout(nullptr, 10, nullptr), nullptr);
  EXPECT_THAT(ErrorLog(), ElementsAre(kNotRunning, kNotRunning, kNotRunning));
}

TEST_F(AbiWakerTest, DefineUsesTheCurrentCoroutineAndKeepsItsWaker) {
  ZEND_ASYNC_CURRENT_COROUTINE = &coroutine_;
  zend_async_waker_t* waker = zend_async_waker_define(nullptr);
  ZEND_ASYNC_CURRENT_COROUTINE = nullptr;

  ASSERT_NE(waker, nullptr);
  EXPECT_EQ(coroutine_.waker, waker);
  waker->status = ZEND_ASYNC_WAKER_WAITING;
  EXPECT_EQ(zend_async_waker_define(&coroutine_), waker);
  EXPECT_EQ(waker->status, ZEND_ASYNC_WAKER_WAITING);  // not cleaned
}

TEST_F(AbiWakerTest, NewWakerIsInitialised) {
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);

  ASSERT_EQ(coroutine_.waker, waker);
  EXPECT_EQ(waker->status, ZEND_ASYNC_WAKER_NO_STATUS);
  EXPECT_EQ(waker->events_stopped, 0);
  EXPECT_EQ(zend_hash_num_elements(&waker->events), 0u);
  EXPECT_EQ(waker->triggered_events, nullptr);
  EXPECT_TRUE(Z_ISUNDEF(waker->result));
  EXPECT_EQ(waker->error, nullptr);
  EXPECT_EQ(waker->filename, nullptr);
  EXPECT_EQ(waker->lineno, 0u);
  EXPECT_EQ(waker->dtor, nullptr);
  for (int i = 0; i < ZEND_ASYNC_WAKER_INLINE_SLOTS; i++) {
    EXPECT_EQ(waker->inline_triggers[i].length, 0u);
    EXPECT_EQ(waker->inline_triggers[i].capacity, 0u);
    EXPECT_EQ(waker->inline_triggers[i].event, nullptr);
    EXPECT_EQ(waker->inline_callbacks[i].base.callback, nullptr);
  }
}

TEST_F(AbiWakerTest, NewReusesTheWakerAndCleansItOnlyWhenItHasAStatus) {
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  ZVAL_LONG(&waker->result, 5);

  EXPECT_EQ(ZEND_ASYNC_WAKER_NEW(&coroutine_), waker);
  EXPECT_EQ(Z_LVAL(waker->result), 5);  // NO_STATUS: left as is

  waker->status = ZEND_ASYNC_WAKER_RESULT;
  waker->error = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DEFAULT, "old");
  EXPECT_EQ(ZEND_ASYNC_WAKER_NEW(&coroutine_), waker);
  EXPECT_EQ(waker->status, ZEND_ASYNC_WAKER_NO_STATUS);
  EXPECT_EQ(waker->error, nullptr);  // released
  EXPECT_TRUE(Z_ISUNDEF(waker->result));
}

int waker_dtor_calls = 0;
zend_async_waker_t* waker_seen_by_dtor = nullptr;
void CountingWakerDtor(zend_coroutine_t* coroutine) {
  waker_dtor_calls++;
  waker_seen_by_dtor = coroutine->waker;
}

TEST_F(AbiWakerTest, CleanRunsTheDtorHookOnceAndResetsTheWaker) {
  waker_dtor_calls = 0;
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  waker->dtor = CountingWakerDtor;
  waker->status = ZEND_ASYNC_WAKER_WAITING;
  waker->filename = zend_string_init("suspend.php", strlen("suspend.php"), 0);
  waker->lineno = 12;
  ZVAL_STR(&waker->result, zend_string_init("result", 6, 0));

  zend_async_waker_clean(&coroutine_);

  EXPECT_EQ(waker_dtor_calls, 1);
  EXPECT_EQ(waker_seen_by_dtor, waker);
  EXPECT_EQ(waker->dtor, nullptr);
  EXPECT_EQ(waker->status, ZEND_ASYNC_WAKER_NO_STATUS);
  EXPECT_EQ(waker->filename, nullptr);
  EXPECT_EQ(waker->lineno, 0u);
  EXPECT_TRUE(Z_ISUNDEF(waker->result));
  EXPECT_EQ(coroutine_.waker, waker);

  zend_async_waker_clean(&coroutine_);
  EXPECT_EQ(waker_dtor_calls, 1);
}

TEST_F(AbiWakerTest, DestroyRunsTheDtorThenDetachesTheWaker) {
  waker_dtor_calls = 0;
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  waker->dtor = CountingWakerDtor;
  waker->filename = zend_string_init("suspend.php", strlen("suspend.php"), 0);
  waker->error = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DEFAULT, "x");
  ZVAL_STR(&waker->result, zend_string_init("result", 6, 0));

  ZEND_ASYNC_WAKER_DESTROY(&coroutine_);

  EXPECT_EQ(waker_dtor_calls, 1);
  EXPECT_EQ(waker_seen_by_dtor, waker);  // still attached while it ran
  EXPECT_EQ(coroutine_.waker, nullptr);
  EXPECT_EQ(waker->error, nullptr);
  EXPECT_EQ(waker->filename, nullptr);
  efree(waker);  // the owner frees the memory

  ZEND_ASYNC_WAKER_DESTROY(&coroutine_);  // no waker: nothing to do
}

TEST_F(AbiWakerTest, StatusMacros) {
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);

  EXPECT_TRUE(ZEND_ASYNC_WAKER_WAITING(waker));  // NO_STATUS counts
  EXPECT_TRUE(ZEND_COROUTINE_SUSPENDED(&coroutine_));
  EXPECT_FALSE(ZEND_ASYNC_WAKER_IN_QUEUE(waker));
  EXPECT_TRUE(ZEND_ASYNC_WAKER_NOT_IN_QUEUE(waker));

  waker->status = ZEND_ASYNC_WAKER_QUEUED;
  EXPECT_TRUE(ZEND_ASYNC_WAKER_IN_QUEUE(waker));
  waker->status = ZEND_ASYNC_WAKER_IGNORED;
  EXPECT_TRUE(ZEND_ASYNC_WAKER_IN_QUEUE(waker));
  EXPECT_FALSE(ZEND_ASYNC_WAKER_NOT_IN_QUEUE(waker));

  waker->status = ZEND_ASYNC_WAKER_RESULT;
  EXPECT_FALSE(ZEND_ASYNC_WAKER_WAITING(waker));
  EXPECT_FALSE(ZEND_COROUTINE_SUSPENDED(&coroutine_));

  zend_async_waker_t* none = nullptr;
  EXPECT_FALSE(ZEND_ASYNC_WAKER_IN_QUEUE(none));
  EXPECT_TRUE(ZEND_ASYNC_WAKER_NOT_IN_QUEUE(none));
  EXPECT_EQ(ZEND_ASYNC_WAKER_NO_STATUS, 0);
  EXPECT_EQ(ZEND_ASYNC_WAKER_RESULT, 4);
}

// ---- resume_when ------------------------------------------------------------

TEST_F(AbiWakerTest, ResumeWhenOnAClosedEventThrows) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  ZEND_ASYNC_WAKER_NEW(&coroutine_);
  ZEND_ASYNC_EVENT_SET_CLOSED(event);

  EXPECT_FALSE(ResumeWhen(event));

  EXPECT_EQ(TakeExceptionText(),
            "Error: The event cannot be used after it has been terminated");
  EXPECT_EQ(probe_.add_callbacks, 0);
  EXPECT_EQ(event->ref_count, 1u);
  ZEND_ASYNC_EVENT_RELEASE(event);
}

TEST_F(AbiWakerTest, ResumeWhenWithoutAnyCallbackWarns) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  ZEND_ASYNC_WAKER_NEW(&coroutine_);

  EXPECT_FALSE(
      zend_async_resume_when(&coroutine_, event, false, nullptr, nullptr));
  EXPECT_THAT(ErrorLog(), ElementsAre("E_WARNING: Callback cannot be NULL"));
  EXPECT_EQ(probe_.disposes, 0);

  // With trans_event the waker owned the event: it is disposed.
  EXPECT_FALSE(
      zend_async_resume_when(&coroutine_, event, true, nullptr, nullptr));
  EXPECT_EQ(probe_.disposes, 1);
  EXPECT_EQ(EG(exception), nullptr);
}

TEST_F(AbiWakerTest, TransEventFalseAddsExactlyOneEventReference) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  ZEND_ASYNC_WAKER_NEW(&coroutine_);

  ASSERT_TRUE(ResumeWhen(event));
  EXPECT_EQ(event->ref_count, 2u);
  // A second callback on the same event adds no reference.
  ASSERT_TRUE(ResumeWhen(event));
  EXPECT_EQ(event->ref_count, 2u);
  EXPECT_EQ(event->callbacks.length, 2u);
  EXPECT_TRUE(zend_async_waker_is_event_exists(&coroutine_, event));

  DestroyWaker();

  EXPECT_EQ(event->ref_count, 1u);
  EXPECT_EQ(event->callbacks.length, 0u);
  EXPECT_EQ(probe_.stops, 1);
  EXPECT_EQ(probe_.disposes, 0);
  ZEND_ASYNC_EVENT_RELEASE(event);
  EXPECT_EQ(probe_.disposes, 1);
}

TEST_F(AbiWakerTest, TransEventTrueHandsTheCallersReferenceToTheWaker) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  ZEND_ASYNC_WAKER_NEW(&coroutine_);

  ASSERT_TRUE(
      zend_async_resume_when(&coroutine_, event, true, NoopCallback, nullptr));
  EXPECT_EQ(event->ref_count, 1u);

  DestroyWaker();
  EXPECT_EQ(probe_.disposes, 1);
}

TEST_F(AbiWakerTest, CleanReleasesEventsAndFreesTheInlineCallbackSlots) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  ASSERT_TRUE(ResumeWhen(event));
  ASSERT_EQ(waker->inline_callbacks[0].base.callback, &NoopCallback);

  zend_async_waker_clean(&coroutine_);

  EXPECT_EQ(zend_hash_num_elements(&waker->events), 0u);
  EXPECT_FALSE(zend_async_waker_is_event_exists(&coroutine_, event));
  EXPECT_EQ(event->ref_count, 1u);
  EXPECT_EQ(event->callbacks.length, 0u);
  EXPECT_EQ(probe_.stops, 1);
  EXPECT_EQ(waker->events_stopped, 1);
  EXPECT_EQ(waker->inline_callbacks[0].base.callback, nullptr);
  EXPECT_EQ(waker->inline_triggers[0].event, nullptr);
  EXPECT_EQ(waker->inline_triggers[0].length, 0u);
  ZEND_ASYNC_EVENT_RELEASE(event);
}

TEST_F(AbiWakerTest, CallbacksUseInlineSlotsFirstThenTheHeap) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);

  for (int i = 0; i < 3; i++) {
    ASSERT_TRUE(ResumeWhen(event));
  }

  ASSERT_EQ(event->callbacks.length, 3u);
  EXPECT_EQ(event->callbacks.data[0], &waker->inline_callbacks[0].base);
  EXPECT_EQ(event->callbacks.data[1], &waker->inline_callbacks[1].base);
  auto* heap_callback = reinterpret_cast<zend_coroutine_event_callback_t*>(
      event->callbacks.data[2]);
  EXPECT_NE(heap_callback, &waker->inline_callbacks[0]);
  EXPECT_NE(heap_callback, &waker->inline_callbacks[1]);
  EXPECT_EQ(heap_callback->coroutine, &coroutine_);
  EXPECT_EQ(heap_callback->event, event);
  EXPECT_EQ(heap_callback->base.dispose, &coroutine_event_callback_dispose);
  EXPECT_EQ(heap_callback->base.ref_count, 1u);  // the event's vector

  // The event's trigger moved to the heap on its second callback and then
  // doubled: capacity 4, three callbacks, inline slot 0 free again.
  zend_async_waker_trigger_t* trigger = TriggerOf(event);
  ASSERT_NE(trigger, nullptr);
  EXPECT_EQ(trigger->capacity, 4u);
  EXPECT_EQ(trigger->length, 3u);
  EXPECT_EQ(trigger->event, event);
  EXPECT_EQ(trigger->data[2], &heap_callback->base);
  EXPECT_EQ(waker->inline_triggers[0].event, nullptr);
  EXPECT_EQ(waker->inline_triggers[0].length, 0u);

  DestroyWaker();  // frees the heap trigger and the heap callback
  EXPECT_EQ(event->ref_count, 1u);
  ZEND_ASYNC_EVENT_RELEASE(event);
}

TEST_F(AbiWakerTest, TriggersOfNewEventsUseFreeInlineSlotsThenTheHeap) {
  EventProbe probes[3];
  zend_async_event_t* events[3];
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);

  for (int i = 0; i < 3; i++) {
    events[i] = NewFakeEvent(&probes[i]);
    ASSERT_TRUE(zend_async_resume_when(&coroutine_, events[i], false,
                                       NoopCallback, nullptr));
  }

  EXPECT_EQ(TriggerOf(events[0]), reinterpret_cast<zend_async_waker_trigger_t*>(
                                      &waker->inline_triggers[0]));
  EXPECT_EQ(TriggerOf(events[1]), reinterpret_cast<zend_async_waker_trigger_t*>(
                                      &waker->inline_triggers[1]));
  zend_async_waker_trigger_t* heap = TriggerOf(events[2]);
  EXPECT_EQ(heap->capacity, 2u);
  EXPECT_EQ(heap->length, 1u);
  EXPECT_EQ(waker->inline_triggers[0].length, 1u);
  EXPECT_EQ(waker->inline_triggers[0].capacity, 0u);

  DestroyWaker();
  for (int i = 0; i < 3; i++) {
    EXPECT_EQ(events[i]->ref_count, 1u);
    EXPECT_EQ(probes[i].stops, 1);
    ZEND_ASYNC_EVENT_RELEASE(events[i]);
  }
}

TEST_F(AbiWakerTest, DisposingTheLastCallbackOfAnEventForgetsTheEvent) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  ASSERT_TRUE(ResumeWhen(event));
  zend_async_waker_add_triggered_event(&coroutine_, event);
  EXPECT_EQ(event->ref_count, 3u);

  // The event drops the callback (as an event does when it fires once).
  ASSERT_TRUE(
      zend_async_callbacks_remove(event, &waker->inline_callbacks[0].base));

  EXPECT_FALSE(zend_async_waker_is_event_exists(&coroutine_, event));
  EXPECT_EQ(zend_hash_num_elements(waker->triggered_events), 0u);
  EXPECT_EQ(probe_.stops, 1);
  EXPECT_EQ(event->ref_count, 1u);
  EXPECT_EQ(waker->inline_callbacks[0].base.callback, nullptr);
  EXPECT_EQ(waker->inline_triggers[0].event, nullptr);
  ZEND_ASYNC_EVENT_RELEASE(event);
}

TEST_F(AbiWakerTest, DetachDoesNotStopAnEventAfterTheBulkStop) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  ASSERT_TRUE(ResumeWhen(event));

  zend_async_waker_stop_events(waker);
  zend_async_waker_stop_events(waker);  // once per arming
  EXPECT_EQ(probe_.stops, 1);

  ASSERT_TRUE(
      zend_async_callbacks_remove(event, &waker->inline_callbacks[0].base));
  EXPECT_EQ(probe_.stops, 1);
  EXPECT_FALSE(zend_async_waker_is_event_exists(&coroutine_, event));
  ZEND_ASYNC_EVENT_RELEASE(event);
}

TEST_F(AbiWakerTest, OneOfTwoCallbacksLeavingKeepsTheEvent) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  ASSERT_TRUE(ResumeWhen(event));
  ASSERT_TRUE(ResumeWhen(event));

  ASSERT_TRUE(
      zend_async_callbacks_remove(event, &waker->inline_callbacks[0].base));

  EXPECT_TRUE(zend_async_waker_is_event_exists(&coroutine_, event));
  EXPECT_EQ(TriggerOf(event)->length, 1u);
  EXPECT_EQ(probe_.stops, 0);
  EXPECT_EQ(event->ref_count, 2u);

  DestroyWaker();
  EXPECT_EQ(event->ref_count, 1u);
  ZEND_ASYNC_EVENT_RELEASE(event);
}

TEST_F(AbiWakerTest, AddCallbackFailureUndoesEverything) {
  EventProbe probe;
  probe.fail_add_callback = true;
  zend_async_event_t* event = NewFakeEvent(&probe);
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);

  EXPECT_FALSE(ResumeWhen(event));
  EXPECT_EQ(TakeExceptionText(), "Error: add_callback failed");
  EXPECT_EQ(waker->inline_callbacks[0].base.callback, nullptr);
  EXPECT_EQ(zend_hash_num_elements(&waker->events), 0u);
  EXPECT_EQ(event->ref_count, 1u);

  // trans_event: the event is disposed as well.
  EXPECT_FALSE(
      zend_async_resume_when(&coroutine_, event, true, NoopCallback, nullptr));
  EXPECT_EQ(TakeExceptionText(), "Error: add_callback failed");
  EXPECT_EQ(probe.disposes, 1);
}

TEST_F(AbiWakerTest, AGivenUnownedCallbackGetsDefaultsAndIsFreedByTheWaker) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  ZEND_ASYNC_WAKER_NEW(&coroutine_);
  auto* callback = static_cast<zend_coroutine_event_callback_t*>(
      ecalloc(1, sizeof(zend_coroutine_event_callback_t)));
  callback->base.callback = NoopCallback;

  ASSERT_TRUE(
      zend_async_resume_when(&coroutine_, event, false, nullptr, callback));

  EXPECT_EQ(callback->base.dispose, &coroutine_event_callback_dispose);
  EXPECT_EQ(callback->event, event);
  EXPECT_EQ(callback->coroutine, &coroutine_);
  EXPECT_EQ(callback->base.ref_count, 1u);
  DestroyWaker();  // frees the callback (leak check)
  ZEND_ASYNC_EVENT_RELEASE(event);
}

TEST_F(AbiWakerTest, WithoutAWakerOnlyTheEventIsSubscribed) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  zend_coroutine_event_callback_t* callback =
      zend_async_coroutine_callback_new(&coroutine_, NoopCallback, 0);

  ASSERT_TRUE(
      zend_async_resume_when(&coroutine_, event, false, nullptr, callback));
  EXPECT_EQ(event->ref_count, 1u);
  EXPECT_EQ(event->callbacks.length, 1u);

  ZEND_ASYNC_EVENT_RELEASE(event);  // frees its callbacks
}

TEST_F(AbiWakerTest, TriggeredEventsHoldOneReferenceEach) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);

  zend_async_waker_add_triggered_event(&coroutine_, event);
  zend_async_waker_add_triggered_event(&coroutine_, event);
  ASSERT_NE(waker->triggered_events, nullptr);
  EXPECT_EQ(zend_hash_num_elements(waker->triggered_events), 1u);
  EXPECT_EQ(event->ref_count, 2u);

  zend_async_waker_clean(&coroutine_);
  EXPECT_EQ(event->ref_count, 1u);
  EXPECT_NE(waker->triggered_events, nullptr);  // kept for reuse

  zend_async_waker_add_triggered_event(&coroutine_, event);
  DestroyWaker();
  EXPECT_EQ(event->ref_count, 1u);
  ZEND_ASYNC_EVENT_RELEASE(event);
}

TEST_F(AbiWakerTest, WithoutAWakerTriggeredAndExistsQueriesDoNothing) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  zend_async_waker_add_triggered_event(&coroutine_, event);
  EXPECT_FALSE(zend_async_waker_is_event_exists(&coroutine_, event));
  EXPECT_EQ(event->ref_count, 1u);
  ZEND_ASYNC_EVENT_RELEASE(event);
}

// ---- Standard callbacks ---------------------------------------------------

TEST_F(AbiWakerTest, ResolveCopiesAZvalResultAndResumes) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  ZEND_ASYNC_EVENT_SET_ZVAL_RESULT(event);
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  ASSERT_TRUE(ResumeWhen(event, zend_async_waker_callback_resolve));
  zval result;
  ZVAL_STR(&result, zend_string_init("value", 5, 0));

  ZEND_ASYNC_CALLBACKS_NOTIFY(event, &result, nullptr);

  ASSERT_EQ(Z_TYPE(waker->result), IS_STRING);
  EXPECT_EQ(Z_STR(waker->result), Z_STR(result));
  EXPECT_EQ(Z_REFCOUNT(result), 2u);
  ASSERT_EQ(State().resumes.size(), 1u);
  EXPECT_EQ(State().resumes[0].coroutine, &coroutine_);
  EXPECT_FALSE(State().resumes[0].had_error);
  EXPECT_FALSE(State().resumes[0].transfer_error);
  EXPECT_FALSE(ZEND_ASYNC_EVENT_IS_EXCEPTION_HANDLED(event));

  zval_ptr_dtor(&result);
  DestroyWaker();
  ZEND_ASYNC_EVENT_RELEASE(event);
}

TEST_F(AbiWakerTest, ResolveIgnoresResultsOfNonZvalEvents) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  ASSERT_TRUE(ResumeWhen(event, zend_async_waker_callback_resolve));
  zval result;
  ZVAL_LONG(&result, 1);

  ZEND_ASYNC_CALLBACKS_NOTIFY(event, &result, nullptr);

  EXPECT_TRUE(Z_ISUNDEF(waker->result));
  EXPECT_EQ(State().resumes.size(), 1u);
  DestroyWaker();
  ZEND_ASYNC_EVENT_RELEASE(event);
}

TEST_F(AbiWakerTest, ResolveWithAnExceptionMarksItHandledAndResumesWithIt) {
  zend_async_event_t* event = NewFakeEvent(&probe_);
  ZEND_ASYNC_EVENT_SET_ZVAL_RESULT(event);
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  ASSERT_TRUE(ResumeWhen(event, zend_async_waker_callback_resolve));
  zend_object* error =
      zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DEFAULT, "boom");
  zval result;
  ZVAL_LONG(&result, 1);

  ZEND_ASYNC_CALLBACKS_NOTIFY(event, &result, error);

  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_EXCEPTION_HANDLED(event));
  EXPECT_TRUE(Z_ISUNDEF(waker->result));
  ASSERT_EQ(State().resumes.size(), 1u);
  EXPECT_EQ(State().resumes[0].error_class, "Async\\AsyncException");
  EXPECT_EQ(State().resumes[0].error_message, "boom");
  EXPECT_FALSE(State().resumes[0].transfer_error);
  EXPECT_EQ(waker->error, error);
  EXPECT_EQ(GC_REFCOUNT(error), 2u);  // ours + the waker's

  OBJ_RELEASE(error);
  DestroyWaker();
  ZEND_ASYNC_EVENT_RELEASE(event);
}

TEST_F(AbiWakerTest, CancelCallbackResumesWithOperationCanceled) {
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  zend_async_event_t* cancellation = SubscribedCancellation();

  ZEND_ASYNC_CALLBACKS_NOTIFY(cancellation, nullptr, nullptr);

  ASSERT_EQ(State().resumes.size(), 1u);
  EXPECT_EQ(State().resumes[0].error_class,
            "Async\\OperationCanceledException");
  EXPECT_EQ(State().resumes[0].error_message, "Operation has been cancelled");
  EXPECT_TRUE(State().resumes[0].transfer_error);
  ASSERT_NE(waker->error, nullptr);
  EXPECT_EQ(GC_REFCOUNT(waker->error), 1u);  // transferred to the waker
  EXPECT_EQ(zend_mock_exception_previous(waker->error), nullptr);

  DestroyWaker();
  ZEND_ASYNC_EVENT_RELEASE(cancellation);
}

TEST_F(AbiWakerTest, CancelCallbackChainsTheEventsExceptionAsPrevious) {
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  zend_async_event_t* cancellation = SubscribedCancellation();
  zend_object* cause =
      zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DEFAULT, "cause");

  ZEND_ASYNC_CALLBACKS_NOTIFY(cancellation, nullptr, cause);

  ASSERT_NE(waker->error, nullptr);
  EXPECT_THAT(mock_zend::ExceptionChain(waker->error),
              ElementsAre("Async\\OperationCanceledException: Operation has "
                          "been cancelled",
                          "Async\\AsyncException: cause"));
  EXPECT_EQ(GC_REFCOUNT(cause), 2u);  // ours + the chain's

  OBJ_RELEASE(cause);
  DestroyWaker();
  ZEND_ASYNC_EVENT_RELEASE(cancellation);
}

TEST_F(AbiWakerTest, TimeoutCallbackResumesWithTimeoutException) {
  ZEND_ASYNC_WAKER_NEW(&coroutine_);
  zend_coroutine_event_callback_t callback =
      Zeroed<zend_coroutine_event_callback_t>();
  callback.coroutine = &coroutine_;
  zend_async_event_t event = Zeroed<zend_async_event_t>();

  zend_async_waker_callback_timeout(&event, &callback.base, nullptr, nullptr);

  ASSERT_EQ(State().resumes.size(), 1u);
  EXPECT_EQ(State().resumes[0].error_class, "Async\\TimeoutException");
  EXPECT_EQ(State().resumes[0].error_message,
            "Operation has been cancelled by timeout");
  EXPECT_TRUE(State().resumes[0].transfer_error);
}

TEST_F(AbiWakerTest, TimeoutCallbackForwardsAnExceptionUntransferred) {
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  zend_coroutine_event_callback_t callback =
      Zeroed<zend_coroutine_event_callback_t>();
  callback.coroutine = &coroutine_;
  zend_async_event_t event = Zeroed<zend_async_event_t>();
  zend_object* error =
      zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DEFAULT, "timer broke");

  zend_async_waker_callback_timeout(&event, &callback.base, nullptr, error);

  ASSERT_EQ(State().resumes.size(), 1u);
  EXPECT_EQ(State().resumes[0].error_message, "timer broke");
  EXPECT_FALSE(State().resumes[0].transfer_error);
  EXPECT_EQ(waker->error, error);
  OBJ_RELEASE(error);
}

TEST_F(AbiWakerTest, NewWithTimeoutArmsATimerAndTheCancellation) {
  EventProbe probe;
  zend_async_event_t* cancellation = NewFakeEvent(&probe);

  zend_async_waker_t* waker =
      zend_async_waker_new_with_timeout(&coroutine_, 250, cancellation);

  ASSERT_NE(waker, nullptr);
  EXPECT_EQ(coroutine_.waker, waker);
  ASSERT_EQ(State().timers.size(), 1u);
  EXPECT_EQ(State().timers[0].timeout, 250u);
  EXPECT_FALSE(State().timers[0].is_periodic);
  EXPECT_EQ(zend_hash_num_elements(&waker->events), 2u);
  EXPECT_EQ(waker->inline_callbacks[0].base.callback,
            &zend_async_waker_callback_resolve);
  EXPECT_EQ(waker->inline_callbacks[1].base.callback,
            &zend_async_waker_callback_cancel);
  EXPECT_EQ(cancellation->ref_count, 2u);
  // A relative userland timeout: the reactor refreshes its clock before
  // arming it (v0.24, ZEND_ASYNC_TIMER_F_REFRESH_CLOCK).
  auto* timer = reinterpret_cast<zend_async_timer_event_t*>(
      waker->inline_callbacks[0].event);
  EXPECT_TRUE(ZEND_ASYNC_TIMER_IS_REFRESH_CLOCK(timer));
  EXPECT_FALSE(ZEND_ASYNC_TIMER_IS_MULTISHOT(timer));
  // The timer's only reference belongs to the waker.
  EXPECT_EQ(waker->inline_callbacks[0].event->ref_count, 1u);

  DestroyWaker();
  EXPECT_EQ(State().timer_probes[0].disposes, 1);
  EXPECT_EQ(cancellation->ref_count, 1u);
  ZEND_ASYNC_EVENT_RELEASE(cancellation);
}

TEST_F(AbiWakerTest, NewWithoutTimeoutOrCancellationArmsNothing) {
  ZEND_ASYNC_CURRENT_COROUTINE = &coroutine_;
  zend_async_waker_t* waker =
      zend_async_waker_new_with_timeout(nullptr, 0, nullptr);
  ZEND_ASYNC_CURRENT_COROUTINE = nullptr;

  EXPECT_EQ(coroutine_.waker, waker);
  EXPECT_TRUE(State().timers.empty());
  EXPECT_EQ(zend_hash_num_elements(&waker->events), 0u);
}

// ---- apply_error ----------------------------------------------------------

class AbiWakerErrorTest : public AbiWakerTest {
 protected:
  zend_object* NewError(zend_async_class type, const char* message) {
    return zend_async_new_exception(type, "%s", message);
  }
};

TEST_F(AbiWakerErrorTest, WithoutAWakerTheErrorIsDroppedAndReleased) {
  zend_object* error = NewError(ZEND_ASYNC_EXCEPTION_DEFAULT, "e");
  GC_ADDREF(error);

  EXPECT_FALSE(ZEND_ASYNC_WAKER_APPLY_ERROR(nullptr, error, true));
  EXPECT_EQ(GC_REFCOUNT(error), 1u);
  EXPECT_FALSE(ZEND_ASYNC_WAKER_APPLY_ERROR(nullptr, error, false));
  EXPECT_EQ(GC_REFCOUNT(error), 1u);
  OBJ_RELEASE(error);
}

TEST_F(AbiWakerErrorTest, TheFirstErrorIsStored) {
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  zend_object* error = NewError(ZEND_ASYNC_EXCEPTION_DEFAULT, "e");

  EXPECT_TRUE(ZEND_ASYNC_WAKER_APPEND_ERROR(waker, error, false));
  EXPECT_EQ(waker->error, error);
  EXPECT_EQ(GC_REFCOUNT(error), 2u);
  OBJ_RELEASE(error);
}

TEST_F(AbiWakerErrorTest, OverrideMakesTheNewErrorCurrentWithTheOldAsPrevious) {
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  zend_object* first = NewError(ZEND_ASYNC_EXCEPTION_DEFAULT, "first");
  zend_object* second = NewError(ZEND_ASYNC_EXCEPTION_TIMEOUT, "second");
  ASSERT_TRUE(ZEND_ASYNC_WAKER_APPLY_ERROR(waker, first, true));

  EXPECT_TRUE(ZEND_ASYNC_WAKER_APPLY_ERROR(waker, second, false));

  EXPECT_EQ(waker->error, second);
  EXPECT_THAT(mock_zend::ExceptionChain(waker->error),
              ElementsAre("Async\\TimeoutException: second",
                          "Async\\AsyncException: first"));
  EXPECT_EQ(GC_REFCOUNT(second), 2u);  // ours + the waker's
  EXPECT_EQ(GC_REFCOUNT(first), 1u);   // the chain's
  OBJ_RELEASE(second);
}

TEST_F(AbiWakerErrorTest, AppendChainsTheNewErrorUnderTheCurrentOne) {
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  zend_object* first = NewError(ZEND_ASYNC_EXCEPTION_DEFAULT, "first");
  zend_object* second = NewError(ZEND_ASYNC_EXCEPTION_TIMEOUT, "second");
  ASSERT_TRUE(ZEND_ASYNC_WAKER_APPLY_ERROR(waker, first, true));

  EXPECT_TRUE(ZEND_ASYNC_WAKER_APPEND_ERROR(waker, second, true));

  EXPECT_EQ(waker->error, first);
  EXPECT_THAT(mock_zend::ExceptionChain(waker->error),
              ElementsAre("Async\\AsyncException: first",
                          "Async\\TimeoutException: second"));
  EXPECT_EQ(GC_REFCOUNT(second), 1u);  // the chain's (transferred)
}

TEST_F(AbiWakerErrorTest, CancellationDoesNotReplaceAnExistingCancellation) {
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  zend_object* first = NewError(ZEND_ASYNC_EXCEPTION_CANCELLATION, "first");
  zend_object* second =
      NewError(ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED, "second");
  ASSERT_TRUE(ZEND_ASYNC_WAKER_APPLY_CANCELLATION(waker, first, true));
  GC_ADDREF(second);

  EXPECT_FALSE(ZEND_ASYNC_WAKER_APPLY_CANCELLATION(waker, second, true));

  EXPECT_EQ(waker->error, first);
  EXPECT_EQ(zend_mock_exception_previous(first), nullptr);
  EXPECT_EQ(GC_REFCOUNT(second), 1u);  // the transferred reference released
  OBJ_RELEASE(second);
}

TEST_F(AbiWakerErrorTest, CancellationOverridesANonCancellationError) {
  zend_async_waker_t* waker = ZEND_ASYNC_WAKER_NEW(&coroutine_);
  zend_object* first = NewError(ZEND_ASYNC_EXCEPTION_DEFAULT, "first");
  zend_object* second = NewError(ZEND_ASYNC_EXCEPTION_CANCELLATION, "second");
  ASSERT_TRUE(ZEND_ASYNC_WAKER_APPLY_ERROR(waker, first, true));

  EXPECT_TRUE(ZEND_ASYNC_WAKER_APPLY_CANCELLATION(waker, second, true));

  EXPECT_EQ(waker->error, second);
  EXPECT_THAT(mock_zend::ExceptionChain(waker->error),
              ElementsAre("Async\\AsyncCancellation: second",
                          "Async\\AsyncException: first"));
}

}  // namespace
}  // namespace zar::abi_testing
