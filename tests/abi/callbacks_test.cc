// Event callbacks: push/remove/notify/free, the single-walk rule, the
// notify_handler short-circuit, the callbacks-vector utilities and the
// heap callbacks (zend_async_callbacks_*() in true-async/php-src
// Zend/zend_async_API.h and Zend/zend_async_API.c, de8c19de).

#include <algorithm>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/abi/support/fake_async.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace zar::abi_testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// A callback that records its name in a shared trace and can run an
// action (remove another callback, notify again, throw, ...).
struct TestCallback {
  zend_async_event_callback_t base;  // must be first
  std::string name;
  std::vector<std::string>* trace;
  std::function<void(zend_async_event_t*)> action;
  int disposes = 0;
  zend_async_event_t* disposed_with = nullptr;
  void* last_result = nullptr;
  zend_object* last_exception = nullptr;
};

void TestCallbackFn(zend_async_event_t* event,
                    zend_async_event_callback_t* callback, void* result,
                    zend_object* exception) {
  auto* self = reinterpret_cast<TestCallback*>(callback);
  self->trace->push_back(self->name);
  self->last_result = result;
  self->last_exception = exception;
  if (self->action) {
    self->action(event);
  }
}

// Drops one holder; never frees (the test owns the memory).
void TestCallbackDispose(zend_async_event_callback_t* callback,
                         zend_async_event_t* event) {
  auto* self = reinterpret_cast<TestCallback*>(callback);
  self->disposes++;
  self->disposed_with = event;
  if (callback->ref_count > 0) {
    callback->ref_count--;
  }
}

class AbiCallbacksTest : public zar::testing::RequestFixture {
 protected:
  void SetUp() override {
    RequestFixture::SetUp();
    event_ = NewFakeEvent(&probe_);
  }

  void TearDown() override {
    if (event_ != nullptr) {
      ZEND_ASYNC_EVENT_RELEASE(event_);
    }
    RequestFixture::TearDown();
  }

  TestCallback& Add(const std::string& name,
                    std::function<void(zend_async_event_t*)> action = {}) {
    TestCallback& callback = callbacks_.emplace_back();
    callback.base.callback = TestCallbackFn;
    callback.base.dispose = TestCallbackDispose;
    callback.name = name;
    callback.trace = &trace_;
    callback.action = std::move(action);
    event_->add_callback(event_, &callback.base);
    return callback;
  }

  TestCallback& Find(const std::string& name) {
    for (TestCallback& callback : callbacks_) {
      if (callback.name == name) return callback;
    }
    ADD_FAILURE() << "no callback " << name;
    return callbacks_.front();
  }

  void Remove(const std::string& name) {
    EXPECT_TRUE(zend_async_callbacks_remove(event_, &Find(name).base));
  }

  EventProbe probe_;
  zend_async_event_t* event_ = nullptr;
  std::deque<TestCallback> callbacks_;
  std::vector<std::string> trace_;
};

TEST_F(AbiCallbacksTest, PushTakesAReferenceAndGrowsFromFourByDoubling) {
  for (int i = 0; i < 5; i++) Add("cb" + std::to_string(i));

  EXPECT_EQ(event_->callbacks.length, 5u);
  EXPECT_EQ(event_->callbacks.capacity, 8u);
  for (const TestCallback& callback : callbacks_) {
    EXPECT_EQ(callback.base.ref_count, 1u);
  }
}

TEST_F(AbiCallbacksTest, FirstPushAllocatesFourSlots) {
  Add("a");
  EXPECT_EQ(event_->callbacks.capacity, 4u);
  EXPECT_EQ(event_->callbacks.data[0], &Find("a").base);
}

TEST_F(AbiCallbacksTest, NotifyCallsEveryCallbackInOrderWithResultAndError) {
  Add("a");
  Add("b");
  Add("c");
  int result = 7;

  ZEND_ASYNC_CALLBACKS_NOTIFY(event_, &result, nullptr);

  EXPECT_THAT(trace_, ElementsAre("a", "b", "c"));
  EXPECT_EQ(Find("c").last_result, &result);
  EXPECT_EQ(Find("c").last_exception, nullptr);
  EXPECT_EQ(event_->callbacks.current_iterator, nullptr);
}

TEST_F(AbiCallbacksTest, NotifyHoldsAnEventReferenceWhileCallbacksRun) {
  uint32_t seen = 0;
  Add("a", [&](zend_async_event_t* event) { seen = event->ref_count; });

  ZEND_ASYNC_CALLBACKS_NOTIFY(event_, nullptr, nullptr);

  EXPECT_EQ(seen, 2u);
  EXPECT_EQ(event_->ref_count, 1u);
}

TEST_F(AbiCallbacksTest, ReleasingTheEventDuringNotifyDisposesItAfterwards) {
  Add("a", [&](zend_async_event_t* event) {
    ZEND_ASYNC_EVENT_RELEASE(event);  // the owner lets go
    EXPECT_EQ(probe_.disposes, 0);
  });
  Add("b");

  zend_async_event_t* event = event_;
  event_ = nullptr;  // the fixture no longer owns it
  ZEND_ASYNC_CALLBACKS_NOTIFY(event, nullptr, nullptr);

  EXPECT_THAT(trace_, ElementsAre("a", "b"));
  EXPECT_EQ(probe_.disposes, 1);
  EXPECT_EQ(probe_.ref_count_at_dispose, 0u);
}

TEST_F(AbiCallbacksTest, NotifyClearsExceptionHandledFirst) {
  bool handled_seen = true;
  Add("a", [&](zend_async_event_t* event) {
    handled_seen = ZEND_ASYNC_EVENT_IS_EXCEPTION_HANDLED(event);
  });
  ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event_);

  ZEND_ASYNC_CALLBACKS_NOTIFY(event_, nullptr, nullptr);

  EXPECT_FALSE(handled_seen);
}

std::vector<std::string>* handler_trace = nullptr;

void ForwardingNotifyHandler(zend_async_event_t* event, void* result,
                             zend_object* exception) {
  handler_trace->push_back("handler");
  ZEND_ASYNC_CALLBACKS_NOTIFY_FROM_HANDLER(event, result, exception);
}

void SwallowingNotifyHandler(zend_async_event_t*, void*, zend_object*) {
  handler_trace->push_back("handler");
}

TEST_F(AbiCallbacksTest, NotifyHandlerRunsInsteadOfTheCallbacks) {
  handler_trace = &trace_;
  Add("a");
  event_->notify_handler = SwallowingNotifyHandler;

  ZEND_ASYNC_CALLBACKS_NOTIFY(event_, nullptr, nullptr);

  EXPECT_THAT(trace_, ElementsAre("handler"));
  EXPECT_EQ(event_->ref_count, 1u);
}

TEST_F(AbiCallbacksTest, NotifyFromHandlerWalksTheCallbacks) {
  handler_trace = &trace_;
  Add("a");
  Add("b");
  event_->notify_handler = ForwardingNotifyHandler;

  ZEND_ASYNC_CALLBACKS_NOTIFY(event_, nullptr, nullptr);

  EXPECT_THAT(trace_, ElementsAre("handler", "a", "b"));
  EXPECT_EQ(event_->ref_count, 1u);
}

TEST_F(AbiCallbacksTest, NotifyWithoutCallbacksDoesNothing) {
  ZEND_ASYNC_CALLBACKS_NOTIFY(event_, nullptr, nullptr);
  EXPECT_EQ(event_->ref_count, 1u);
  EXPECT_EQ(probe_.disposes, 0);
}

TEST_F(AbiCallbacksTest, CallbackRemovingItselfDoesNotSkipOrRepeatOthers) {
  Add("a");
  Add("b", [&](zend_async_event_t*) { Remove("b"); });
  Add("c");
  Add("d");

  ZEND_ASYNC_CALLBACKS_NOTIFY(event_, nullptr, nullptr);

  // b's slot is filled by the last callback, which is visited next.
  EXPECT_THAT(trace_, ElementsAre("a", "b", "d", "c"));
  EXPECT_EQ(Find("b").disposes, 1);
  EXPECT_EQ(Find("b").disposed_with, event_);
  EXPECT_EQ(event_->callbacks.length, 3u);
}

TEST_F(AbiCallbacksTest, CallbackRemovingAnEarlierOneDoesNotSkipOrRepeat) {
  Add("a");
  Add("b");
  bool removed = false;
  Add("c", [&](zend_async_event_t*) {
    if (!removed) {
      removed = true;
      Remove("a");
    }
  });
  Add("d");
  Add("e");

  ZEND_ASYNC_CALLBACKS_NOTIFY(event_, nullptr, nullptr);

  // a's hole is filled from the visited part (c), c's slot by the last
  // callback (e), which is visited next: every callback runs exactly once.
  EXPECT_THAT(trace_, ElementsAre("a", "b", "c", "e", "d"));
  EXPECT_EQ(Find("a").disposes, 1);
  EXPECT_EQ(event_->callbacks.length, 4u);

  // Every remaining callback is still registered exactly once.
  trace_.clear();
  ZEND_ASYNC_CALLBACKS_NOTIFY(event_, nullptr, nullptr);
  std::sort(trace_.begin(), trace_.end());
  EXPECT_THAT(trace_, ElementsAre("b", "c", "d", "e"));
}

TEST_F(AbiCallbacksTest, LastCallbackRemovingAnEarlierOneEndsTheWalk) {
  Add("a");
  Add("b");
  Add("c", [&](zend_async_event_t*) { Remove("a"); });

  ZEND_ASYNC_CALLBACKS_NOTIFY(event_, nullptr, nullptr);

  EXPECT_THAT(trace_, ElementsAre("a", "b", "c"));
  ASSERT_EQ(event_->callbacks.length, 2u);
  EXPECT_EQ(event_->callbacks.data[0], &Find("c").base);
  EXPECT_EQ(event_->callbacks.data[1], &Find("b").base);
}

TEST_F(AbiCallbacksTest, CallbackRemovingALaterOneSkipsOnlyThatOne) {
  Add("a");
  Add("b", [&](zend_async_event_t*) { Remove("c"); });
  Add("c");
  Add("d");

  ZEND_ASYNC_CALLBACKS_NOTIFY(event_, nullptr, nullptr);

  EXPECT_THAT(trace_, ElementsAre("a", "b", "d"));
  EXPECT_EQ(Find("c").disposes, 1);
}

TEST_F(AbiCallbacksTest, RemoveOutsideNotifyMovesTheLastIntoTheHole) {
  Add("a");
  Add("b");
  Add("c");

  Remove("a");

  ASSERT_EQ(event_->callbacks.length, 2u);
  EXPECT_EQ(event_->callbacks.data[0], &Find("c").base);
  EXPECT_EQ(event_->callbacks.data[1], &Find("b").base);
  EXPECT_EQ(Find("a").disposes, 1);
  EXPECT_EQ(Find("a").base.ref_count, 0u);
}

TEST_F(AbiCallbacksTest, RemoveOfAnUnknownCallbackReturnsFalse) {
  Add("a");
  TestCallback stranger;
  stranger.base = {0, TestCallbackFn, TestCallbackDispose};

  EXPECT_FALSE(zend_async_callbacks_remove(event_, &stranger.base));
  EXPECT_EQ(stranger.disposes, 0);
  EXPECT_EQ(event_->callbacks.length, 1u);
}

TEST_F(AbiCallbacksTest, NestedNotifyIsRefusedWithACoreWarning) {
  Add("a", [&](zend_async_event_t* event) {
    ZEND_ASYNC_CALLBACKS_NOTIFY(event, nullptr, nullptr);
  });
  Add("b");

  ZEND_ASYNC_CALLBACKS_NOTIFY(event_, nullptr, nullptr);

  EXPECT_THAT(trace_, ElementsAre("a", "b"));
  EXPECT_THAT(ErrorLog(),
              ElementsAre("E_CORE_WARNING: Concurrent callback iteration "
                          "detected - nested notify() calls are not allowed"));
  EXPECT_EQ(event_->ref_count, 1u);
}

TEST_F(AbiCallbacksTest, NotifyStopsAtTheFirstPendingException) {
  Add("a");
  Add("b", [](zend_async_event_t*) { zend_throw_error(nullptr, "from b"); });
  Add("c");

  ZEND_ASYNC_CALLBACKS_NOTIFY(event_, nullptr, nullptr);

  EXPECT_THAT(trace_, ElementsAre("a", "b"));
  EXPECT_EQ(TakeExceptionText(), "Error: from b");
  EXPECT_EQ(event_->callbacks.current_iterator, nullptr);
}

TEST_F(AbiCallbacksTest, NotifyAndCloseStopsClosesThenNotifies) {
  bool closed_seen = false;
  Add("a", [&](zend_async_event_t* event) {
    closed_seen = ZEND_ASYNC_EVENT_IS_CLOSED(event);
  });

  ZEND_ASYNC_CALLBACKS_NOTIFY_AND_CLOSE(event_, nullptr, nullptr);

  EXPECT_EQ(probe_.stops, 1);
  EXPECT_TRUE(closed_seen);
  EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_CLOSED(event_));
  EXPECT_THAT(trace_, ElementsAre("a"));
}

TEST_F(AbiCallbacksTest, FreeDisposesEveryCallbackOnceAndZeroesTheVector) {
  Add("a");
  Add("b");
  Add("c");

  zend_async_callbacks_free(event_);

  for (const TestCallback& callback : callbacks_) {
    EXPECT_EQ(callback.disposes, 1) << callback.name;
    EXPECT_EQ(callback.disposed_with, event_) << callback.name;
  }
  EXPECT_EQ(event_->callbacks.data, nullptr);
  EXPECT_EQ(event_->callbacks.length, 0u);
  EXPECT_EQ(event_->callbacks.capacity, 0u);
  EXPECT_EQ(event_->callbacks.current_iterator, nullptr);

  zend_async_callbacks_free(event_);  // nothing left: no-op
  EXPECT_EQ(Find("a").disposes, 1);
}

// A dispose that asks the event to free its callbacks again.
void NestedFreeDispose(zend_async_event_callback_t* callback,
                       zend_async_event_t* event) {
  TestCallbackDispose(callback, event);
  zend_async_callbacks_free(event);
}

TEST_F(AbiCallbacksTest, NestedFreeIsRefusedWithACoreWarning) {
  Add("a").base.dispose = NestedFreeDispose;
  Add("b");

  zend_async_callbacks_free(event_);

  EXPECT_EQ(Find("a").disposes, 1);
  EXPECT_EQ(Find("b").disposes, 1);
  EXPECT_THAT(ErrorLog(),
              ElementsAre("E_CORE_WARNING: Concurrent callback iteration "
                          "detected - nested free() calls are not allowed"));
  EXPECT_EQ(event_->callbacks.data, nullptr);
}

// ---- Bare vectors
// -------------------------------------------------------------

TEST_F(AbiCallbacksTest, VectorPushStartsWithTwoSlotsAndDoubles) {
  zend_async_callbacks_vector_t vector = {0, 0, nullptr, nullptr};
  TestCallback a, b, c;
  for (TestCallback* cb : {&a, &b, &c}) {
    cb->base = {0, TestCallbackFn, TestCallbackDispose};
    cb->trace = &trace_;
  }

  EXPECT_TRUE(zend_async_callbacks_vector_push(&vector, &a.base));
  EXPECT_EQ(vector.capacity, 2u);
  EXPECT_TRUE(zend_async_callbacks_vector_push(&vector, &b.base));
  EXPECT_EQ(vector.capacity, 2u);
  EXPECT_TRUE(zend_async_callbacks_vector_push(&vector, &c.base));
  EXPECT_EQ(vector.capacity, 4u);
  EXPECT_EQ(vector.length, 3u);
  EXPECT_EQ(a.base.ref_count, 1u);

  zend_async_callbacks_vector_free(&vector, event_);
  EXPECT_EQ(a.disposes, 1);
  EXPECT_EQ(c.disposed_with, event_);
  EXPECT_EQ(vector.data, nullptr);
  EXPECT_EQ(vector.length, 0u);
  EXPECT_EQ(vector.capacity, 0u);
}

TEST_F(AbiCallbacksTest, VectorNotifySkipsEmptyEntriesAndPassesNoError) {
  zend_async_callbacks_vector_t vector = {0, 0, nullptr, nullptr};
  TestCallback a, silent, c;
  a.base = {0, TestCallbackFn, TestCallbackDispose};
  silent.base = {0, nullptr, nullptr};  // no callback, no dispose
  c.base = {0, TestCallbackFn, TestCallbackDispose};
  a.name = "a";
  c.name = "c";
  a.trace = c.trace = &trace_;
  zend_async_callbacks_vector_push(&vector, &a.base);
  zend_async_callbacks_vector_push(&vector, &silent.base);
  zend_async_callbacks_vector_push(&vector, &c.base);
  vector.data[1] = nullptr;  // a cleared slot
  int result = 1;

  zend_async_callbacks_vector_notify(&vector, event_, &result);
  EXPECT_THAT(trace_, ElementsAre("a", "c"));
  EXPECT_EQ(c.last_result, &result);
  EXPECT_EQ(c.last_exception, nullptr);

  vector.data[1] = &silent.base;
  trace_.clear();
  zend_async_callbacks_vector_notify(&vector, event_, &result);
  EXPECT_THAT(trace_, ElementsAre("a", "c"));

  zend_async_callbacks_vector_free(&vector, event_);
  EXPECT_EQ(a.disposes, 1);
  EXPECT_EQ(c.disposes, 1);
}

TEST_F(AbiCallbacksTest, VectorFreeOfAnEmptyVectorDoesNothing) {
  zend_async_callbacks_vector_t vector = {0, 0, nullptr, nullptr};
  zend_async_callbacks_vector_free(&vector, event_);
  EXPECT_EQ(vector.data, nullptr);
}

// ---- Heap callbacks
// -----------------------------------------------------------

void NoopCallback(zend_async_event_t*, zend_async_event_callback_t*, void*,
                  zend_object*) {}

TEST_F(AbiCallbacksTest, EventCallbackNewStartsUnownedAndFreesAtLastDispose) {
  zend_async_event_callback_t* callback =
      ZEND_ASYNC_EVENT_CALLBACK(NoopCallback);
  EXPECT_EQ(callback->ref_count, 0u);
  EXPECT_EQ(callback->callback, &NoopCallback);
  ASSERT_NE(callback->dispose, nullptr);

  zend_async_callbacks_push(event_, callback);
  ZEND_ASYNC_EVENT_CALLBACK_ADD_REF(callback);
  EXPECT_EQ(callback->ref_count, 2u);

  // The event lets go: one holder left, not freed.
  EXPECT_TRUE(zend_async_callbacks_remove(event_, callback));
  EXPECT_EQ(callback->ref_count, 1u);

  // The last holder: freed (the leak check would report it otherwise).
  ZEND_ASYNC_EVENT_CALLBACK_RELEASE(callback);
}

TEST_F(AbiCallbacksTest, EventCallbackNewAllocatesTheRequestedSize) {
  struct Extended {
    zend_async_event_callback_t base;
    char payload[64];
  };
  auto* extended = reinterpret_cast<Extended*>(
      ZEND_ASYNC_EVENT_CALLBACK_EX(NoopCallback, sizeof(Extended)));
  for (char c : extended->payload) EXPECT_EQ(c, 0);  // zeroed
  extended->payload[63] = 'x';                       // within the block
  extended->base.dispose(&extended->base, nullptr);
}

TEST_F(AbiCallbacksTest, CallbackDecRefNeverGoesBelowOne) {
  zend_async_event_callback_t callback = {2, NoopCallback, nullptr};
  zend_async_event_callback_t* cb = &callback;
  ZEND_ASYNC_EVENT_CALLBACK_DEC_REF(cb);
  EXPECT_EQ(callback.ref_count, 1u);
  ZEND_ASYNC_EVENT_CALLBACK_DEC_REF(cb);
  EXPECT_EQ(callback.ref_count, 1u);
}

TEST_F(AbiCallbacksTest, CoroutineCallbackNewUsesTheCoroutineDispose) {
  zend_coroutine_t coroutine = MakeCoroutine();
  zend_coroutine_event_callback_t* callback =
      zend_async_coroutine_callback_new(&coroutine, NoopCallback, 0);

  EXPECT_EQ(callback->coroutine, &coroutine);
  EXPECT_EQ(callback->event, nullptr);
  EXPECT_EQ(callback->base.ref_count, 0u);
  EXPECT_EQ(callback->base.dispose, &coroutine_event_callback_dispose);

  zend_async_callbacks_push(event_, &callback->base);
  // The coroutine has no waker: disposing only leaves the event.
  EXPECT_TRUE(zend_async_callbacks_remove(event_, &callback->base));
  EXPECT_EQ(event_->callbacks.length, 0u);
}

TEST_F(AbiCallbacksTest, CoroutineCallbackDisposeIgnoresReentrantFree) {
  zend_coroutine_t coroutine = MakeCoroutine();
  zend_coroutine_event_callback_t* callback =
      zend_async_coroutine_callback_new(&coroutine, NoopCallback, 0);
  callback->base.ref_count = 2;

  coroutine_event_callback_dispose(&callback->base, nullptr);
  EXPECT_EQ(callback->base.ref_count, 1u);

  callback->base.ref_count = 0;  // "being freed"
  coroutine_event_callback_dispose(&callback->base, nullptr);
  EXPECT_EQ(callback->base.ref_count, 0u);  // still alive, untouched

  callback->base.ref_count = 1;
  coroutine_event_callback_dispose(&callback->base, nullptr);  // freed
}

TEST_F(AbiCallbacksTest, ReleaseWithoutDisposeUsesTheCoroutineDispose) {
  zend_coroutine_t coroutine = MakeCoroutine();
  zend_coroutine_event_callback_t* callback =
      zend_async_coroutine_callback_new(&coroutine, NoopCallback, 0);
  callback->base.dispose = nullptr;
  callback->base.ref_count = 1;
  zend_async_event_callback_t* base = &callback->base;

  ZEND_ASYNC_EVENT_CALLBACK_RELEASE(base);  // freed through the default
  EXPECT_THAT(ErrorLog(), IsEmpty());
}

}  // namespace
}  // namespace zar::abi_testing
