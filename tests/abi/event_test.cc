// The event base: flags, reference counting, object <-> event conversion,
// replay wrappers, and the microtask macros (zend_async_event_t and its
// ZEND_ASYNC_EVENT_* / ZEND_ASYNC_MICROTASK_* macros in true-async/php-src
// Zend/zend_async_API.h, de8c19de).

#include <cstddef>

#include "gtest/gtest.h"
#include "tests/abi/support/fake_async.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace zar::abi_testing {
namespace {

class AbiEventTest : public zar::testing::RequestFixture {
 protected:
  std::vector<zend_module_entry*> Modules() override {
    return {FakeAsyncModule()};
  }
};

// An event whose dispose counts and keeps the memory.
struct CountingEvent {
  zend_async_event_t event;
  int disposes;
  uint32_t ref_count_at_dispose;
};

bool CountingDispose(zend_async_event_t* event) {
  auto* self = reinterpret_cast<CountingEvent*>(event);
  self->disposes++;
  self->ref_count_at_dispose = event->ref_count;
  return true;
}

CountingEvent MakeCountingEvent(uint32_t ref_count) {
  CountingEvent counting = Zeroed<CountingEvent>();
  counting.event.ref_count = ref_count;
  counting.event.dispose = CountingDispose;
  return counting;
}

TEST_F(AbiEventTest, ReleaseAtRefcountOneDisposesOnceAndLeavesZero) {
  CountingEvent counting = MakeCountingEvent(1);

  ZEND_ASYNC_EVENT_RELEASE(&counting.event);

  EXPECT_EQ(counting.disposes, 1);
  EXPECT_EQ(counting.ref_count_at_dispose, 0u);
  EXPECT_EQ(counting.event.ref_count, 0u);
}

TEST_F(AbiEventTest, ReleaseAboveOneOnlyDecrements) {
  CountingEvent counting = MakeCountingEvent(3);

  ZEND_ASYNC_EVENT_RELEASE(&counting.event);
  EXPECT_EQ(counting.event.ref_count, 2u);
  ZEND_ASYNC_EVENT_RELEASE(&counting.event);
  EXPECT_EQ(counting.event.ref_count, 1u);
  EXPECT_EQ(counting.disposes, 0);

  ZEND_ASYNC_EVENT_RELEASE(&counting.event);
  EXPECT_EQ(counting.disposes, 1);
}

TEST_F(AbiEventTest, AddRefAndDelRefCountPlainEvents) {
  CountingEvent counting = MakeCountingEvent(1);
  zend_async_event_t* event = &counting.event;

  EXPECT_EQ(ZEND_ASYNC_EVENT_ADD_REF(event), 2u);
  EXPECT_EQ(ZEND_ASYNC_EVENT_REFCOUNT(event), 2u);
  EXPECT_EQ(ZEND_ASYNC_EVENT_DEL_REF(event), 1u);
  EXPECT_EQ(ZEND_ASYNC_EVENT_REFCOUNT(event), 1u);
  EXPECT_EQ(counting.disposes, 0);
}

TEST_F(AbiEventTest, ObjectEventsUseTheObjectRefcount) {
  const uint32_t objects_before = zend_objects_store_live_count();
  ObjectEvent* object_event = NewObjectEvent();
  zend_async_event_t* event = &object_event->event;
  zend_object* object = &object_event->std;

  ASSERT_TRUE(ZEND_ASYNC_EVENT_IS_ZEND_OBJ(event));
  EXPECT_EQ(event->zend_object_offset, offsetof(ObjectEvent, std));
  EXPECT_EQ(ZEND_ASYNC_EVENT_TO_OBJECT(event), object);
  EXPECT_EQ(ZEND_ASYNC_OBJECT_TO_EVENT(object), event);
  EXPECT_EQ(ZEND_ASYNC_EVENT_REFCOUNT(event), 1u);

  ZEND_ASYNC_EVENT_ADD_REF(event);
  EXPECT_EQ(GC_REFCOUNT(object), 2u);
  EXPECT_EQ(ZEND_ASYNC_EVENT_REFCOUNT(event), 2u);
  // The union's other member (the offset) is untouched.
  EXPECT_EQ(event->zend_object_offset, offsetof(ObjectEvent, std));

  ZEND_ASYNC_EVENT_DEL_REF(event);
  EXPECT_EQ(GC_REFCOUNT(object), 1u);

  ZEND_ASYNC_EVENT_ADD_REF(event);
  ZEND_ASYNC_EVENT_RELEASE(event);
  EXPECT_EQ(GC_REFCOUNT(object), 1u);
  EXPECT_EQ(zend_objects_store_live_count(), objects_before + 1);

  // The last release frees the object (not through dispose).
  EXPECT_EQ(object_event->disposes, 0);
  ZEND_ASYNC_EVENT_RELEASE(event);
  EXPECT_EQ(zend_objects_store_live_count(), objects_before);
}

TEST_F(AbiEventTest, ObjectToEventFollowsAnEventReference) {
  EventProbe probe;
  zend_async_event_t* event = NewFakeEvent(&probe);
  EventReferenceObject* reference = NewEventReferenceObject(event);

  EXPECT_EQ(reference->ref.flags, ZEND_ASYNC_EVENT_REFERENCE_PREFIX);
  EXPECT_EQ(ZEND_ASYNC_EVENT_REFERENCE_PREFIX, 0x80u);
  EXPECT_EQ(reference->ref.zend_object_offset,
            offsetof(EventReferenceObject, std));
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_REFERENCE(&reference->ref));
  EXPECT_FALSE(ZEND_ASYNC_EVENT_IS_REFERENCE(event));
  EXPECT_EQ(ZEND_ASYNC_OBJECT_TO_EVENT(&reference->std), event);

  OBJ_RELEASE(&reference->std);
  ZEND_ASYNC_EVENT_RELEASE(event);
  EXPECT_EQ(probe.disposes, 1);
}

TEST_F(AbiEventTest, EventToObjectWithObjRefReadsThePointerAtExtraOffset) {
  struct {
    zend_async_event_t event;
    zend_object* object;
  } holder;
  memset(&holder, 0, sizeof(holder));
  zval object;
  object_init(&object);
  holder.object = Z_OBJ(object);
  holder.event.extra_offset = offsetof(decltype(holder), object);

  ZEND_ASYNC_EVENT_WITH_OBJECT_REF(&holder.event);

  EXPECT_EQ(holder.event.flags, ZEND_ASYNC_EVENT_F_OBJ_REF);
  EXPECT_EQ(ZEND_ASYNC_EVENT_TO_OBJECT(&holder.event), Z_OBJ(object));
  zval_ptr_dtor(&object);
}

TEST_F(AbiEventTest, FlagBitsHaveTheAbiValues) {
  EXPECT_EQ(ZEND_ASYNC_EVENT_F_CLOSED, 1u << 0);
  EXPECT_EQ(ZEND_ASYNC_EVENT_F_RESULT_USED, 1u << 1);
  EXPECT_EQ(ZEND_ASYNC_EVENT_F_EXC_CAUGHT, 1u << 2);
  EXPECT_EQ(ZEND_ASYNC_EVENT_F_ZVAL_RESULT, 1u << 3);
  EXPECT_EQ(ZEND_ASYNC_EVENT_F_ZEND_OBJ, 1u << 4);
  EXPECT_EQ(ZEND_ASYNC_EVENT_F_NO_FREE_MEMORY, 1u << 5);
  EXPECT_EQ(ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED, 1u << 6);
  EXPECT_EQ(ZEND_ASYNC_EVENT_F_REFERENCE, 1u << 7);
  EXPECT_EQ(ZEND_ASYNC_EVENT_F_OBJ_REF, 1u << 8);
  EXPECT_EQ(ZEND_ASYNC_EVENT_F_CLOSE_FD, 1u << 9);
  EXPECT_EQ(ZEND_ASYNC_EVENT_F_HIDDEN, 1u << 10);
  EXPECT_EQ(ZEND_ASYNC_EVENT_F_BAILOUT, 1u << 11);
  EXPECT_EQ(ZEND_COROUTINE_F_STARTED, 1u << 13);
  EXPECT_EQ(ZEND_COROUTINE_F_CANCELLED, 1u << 14);
  EXPECT_EQ(ZEND_COROUTINE_F_ZOMBIE, 1u << 15);
  EXPECT_EQ(ZEND_COROUTINE_F_PROTECTED, 1u << 16);
  EXPECT_EQ(ZEND_COROUTINE_F_MAIN, 1u << 17);
  EXPECT_EQ(ZEND_COROUTINE_F_FIBER, 1u << 18);
  EXPECT_EQ(ZEND_COROUTINE_F_YIELD, 1u << 19);
  EXPECT_EQ(ZEND_ASYNC_TIMER_F_MULTISHOT, 1u << 13);
  EXPECT_EQ(ZEND_ASYNC_SCOPE_F_DISPOSE_SAFELY, 1u << 14);
  EXPECT_EQ(ZEND_ASYNC_SCOPE_F_CANCELLED, 1u << 15);
  EXPECT_EQ(ZEND_ASYNC_SCOPE_F_DISPOSING, 1u << 16);
  EXPECT_EQ(ZEND_ASYNC_SCOPE_F_OWNER_PINNED, 1u << 17);
}

TEST_F(AbiEventTest, FlagMacrosSetTestAndClearTheirBitOnly) {
  zend_async_event_t event = Zeroed<zend_async_event_t>();

  ZEND_ASYNC_EVENT_SET_CLOSED(&event);
  ZEND_ASYNC_EVENT_SET_RESULT_USED(&event);
  ZEND_ASYNC_EVENT_SET_EXC_CAUGHT(&event);
  ZEND_ASYNC_EVENT_SET_ZVAL_RESULT(&event);
  ZEND_ASYNC_EVENT_SET_NO_FREE_MEMORY(&event);
  ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&event);
  ZEND_ASYNC_EVENT_SET_CLOSE_FD(&event);
  ZEND_ASYNC_EVENT_SET_HIDDEN(&event);
  ZEND_ASYNC_EVENT_SET_BAILOUT(&event);
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_CLOSED(&event));
  EXPECT_TRUE(ZEND_ASYNC_EVENT_WILL_RESULT_USED(&event));
  EXPECT_TRUE(ZEND_ASYNC_EVENT_WILL_EXC_CAUGHT(&event));
  EXPECT_TRUE(ZEND_ASYNC_EVENT_WILL_ZVAL_RESULT(&event));
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_NO_FREE_MEMORY(&event));
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_EXCEPTION_HANDLED(&event));
  EXPECT_TRUE(ZEND_ASYNC_EVENT_SHOULD_CLOSE_FD(&event));
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_HIDDEN(&event));
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_BAILOUT(&event));
  EXPECT_FALSE(ZEND_ASYNC_EVENT_IS_ZEND_OBJ(&event));

  ZEND_ASYNC_EVENT_CLR_CLOSED(&event);
  ZEND_ASYNC_EVENT_CLR_RESULT_USED(&event);
  ZEND_ASYNC_EVENT_CLR_EXC_CAUGHT(&event);
  ZEND_ASYNC_EVENT_CLR_ZVAL_RESULT(&event);
  ZEND_ASYNC_EVENT_CLR_EXCEPTION_HANDLED(&event);
  ZEND_ASYNC_EVENT_CLR_CLOSE_FD(&event);
  ZEND_ASYNC_EVENT_CLR_HIDDEN(&event);
  EXPECT_EQ(event.flags,
            ZEND_ASYNC_EVENT_F_NO_FREE_MEMORY | ZEND_ASYNC_EVENT_F_BAILOUT);
}

TEST_F(AbiEventTest, ReplayWrappersReturnFalseWithoutReplay) {
  zend_async_event_t event = Zeroed<zend_async_event_t>();
  zend_async_event_t* ev = &event;
  zval result;
  ZVAL_UNDEF(&result);
  zend_object* exception = nullptr;

  EXPECT_FALSE(ZEND_ASYNC_EVENT_REPLAY(ev, nullptr));
  EXPECT_FALSE(ZEND_ASYNC_EVENT_EXTRACT_RESULT(ev, &result));
  EXPECT_FALSE(
      ZEND_ASYNC_EVENT_EXTRACT_RESULT_OR_ERROR(ev, &result, &exception));
  EXPECT_TRUE(Z_ISUNDEF(result));
}

struct ReplayArgs {
  zend_async_event_callback_t* callback;
  zval* result;
  zend_object** exception;
};
ReplayArgs last_replay;

bool RecordingReplay(zend_async_event_t*, zend_async_event_callback_t* callback,
                     zval* result, zend_object** exception) {
  last_replay = {callback, result, exception};
  if (result != nullptr) {
    ZVAL_LONG(result, 42);
  }
  return true;
}

TEST_F(AbiEventTest, ReplayWrappersPassCallbackOrOutputs) {
  zend_async_event_t event = Zeroed<zend_async_event_t>();
  event.replay = RecordingReplay;
  zend_async_event_t* ev = &event;
  zend_async_event_callback_t callback = {0, nullptr, nullptr};
  zval result;
  ZVAL_UNDEF(&result);
  zend_object* exception = nullptr;

  EXPECT_TRUE(ZEND_ASYNC_EVENT_REPLAY(ev, &callback));
  EXPECT_EQ(last_replay.callback, &callback);
  EXPECT_EQ(last_replay.result, nullptr);
  EXPECT_EQ(last_replay.exception, nullptr);

  EXPECT_TRUE(ZEND_ASYNC_EVENT_EXTRACT_RESULT(ev, &result));
  EXPECT_EQ(last_replay.callback, nullptr);
  EXPECT_EQ(last_replay.result, &result);
  EXPECT_EQ(Z_LVAL(result), 42);

  EXPECT_TRUE(
      ZEND_ASYNC_EVENT_EXTRACT_RESULT_OR_ERROR(ev, &result, &exception));
  EXPECT_EQ(last_replay.exception, &exception);
}

int microtask_dtor_calls = 0;
void CountingMicrotaskDtor(zend_async_microtask_t*) { microtask_dtor_calls++; }
void NoopMicrotask(zend_async_microtask_t*) {}

TEST_F(AbiEventTest, MicrotaskReleaseRunsDtorAndFreesAtTheLastReference) {
  microtask_dtor_calls = 0;
  auto* microtask = static_cast<zend_async_microtask_t*>(
      ecalloc(1, sizeof(zend_async_microtask_t)));
  microtask->handler = NoopMicrotask;
  microtask->dtor = CountingMicrotaskDtor;
  microtask->ref_count = 1;

  ZEND_ASYNC_MICROTASK_ADD_REF(microtask);
  EXPECT_EQ(microtask->ref_count, 2u);
  ZEND_ASYNC_MICROTASK_RELEASE(microtask);
  EXPECT_EQ(microtask->ref_count, 1u);
  EXPECT_EQ(microtask_dtor_calls, 0);

  // Freed here (the fixture's leak check would report it otherwise).
  ZEND_ASYNC_MICROTASK_RELEASE(microtask);
  EXPECT_EQ(microtask_dtor_calls, 1);
}

TEST_F(AbiEventTest, TimerMultishotMacros) {
  zend_async_timer_event_t timer = Zeroed<zend_async_timer_event_t>();
  ZEND_ASYNC_TIMER_SET_MULTISHOT(&timer);
  EXPECT_TRUE(ZEND_ASYNC_TIMER_IS_MULTISHOT(&timer));
  ZEND_ASYNC_TIMER_CLR_MULTISHOT(&timer);
  EXPECT_FALSE(ZEND_ASYNC_TIMER_IS_MULTISHOT(&timer));
}

}  // namespace
}  // namespace zar::abi_testing
