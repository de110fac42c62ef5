// The group through the C ABI: ZEND_ASYNC_NEW_GROUP and the group's event
// (php-async task_group.c: async_new_group, the event vtable).

#include <string>

#include "gmock/gmock.h"
#include "tests/task_group/support/task_group_test.h"

namespace zar::task_group_testing {
namespace {

using ::testing::ElementsAre;

// A callback on the group's event that counts its notifications.
struct CountingCallback {
  zend_async_event_callback_t base;
  int* count;
};

void CountNotification(zend_async_event_t* event,
                       zend_async_event_callback_t* callback, void* result,
                       zend_object* exception) {
  (void)event;
  (void)result;
  (void)exception;
  ++*reinterpret_cast<CountingCallback*>(callback)->count;
}

void FreeCountingCallback(zend_async_event_callback_t* callback,
                          zend_async_event_t* event) {
  (void)event;
  efree(callback);
}

zend_async_event_callback_t* NewCountingCallback(int* count) {
  auto* callback =
      static_cast<CountingCallback*>(ecalloc(1, sizeof(CountingCallback)));
  callback->base.callback = CountNotification;
  callback->base.dispose = FreeCountingCallback;
  callback->count = count;
  return &callback->base;
}

TEST_F(TaskGroupTest, NewGroupReturnsTheEventOfAnAsyncTaskGroupObject) {
  std::string cls, info, limit;
  EXPECT_TRUE(RunMain([&] {
    zend_async_group_t* group = ZEND_ASYNC_NEW_GROUP(2, 0, nullptr);
    ASSERT_NE(group, nullptr);
    zend_object* object = ZEND_ASYNC_EVENT_TO_OBJECT(&group->event);
    cls = ZSTR_VAL(object->ce->name);
    zend_string* text = group->event.info(&group->event);
    info = ZSTR_VAL(text);
    zend_string_release(text);
    // The limit applies to the object's spawns.
    zval zobject;
    ZVAL_OBJ(&zobject, object);
    Zval a = Task(nullptr, "a", 1);
    Zval b = Task(nullptr, "b", 1);
    Zval c = Task(nullptr, "c", 1);
    CallMethod(&zobject, "spawn", {a.get()});
    CallMethod(&zobject, "spawn", {b.get()});
    CallMethod(&zobject, "spawn", {c.get()});
    zend_string* running = group->event.info(&group->event);
    limit = ZSTR_VAL(running);
    zend_string_release(running);
    CallMethod(&zobject, "close");
    CallMethod(&zobject, "awaitCompletion");
    ZEND_ASYNC_EVENT_RELEASE(&group->event);
  }));
  EXPECT_EQ(cls, "Async\\TaskGroup");
  EXPECT_EQ(info, "TaskGroup(total=0, active=0)");
  EXPECT_EQ(limit, "TaskGroup(total=3, active=2)");
}

TEST_F(TaskGroupTest, TheGroupEventNotifiesEachTimeTheGroupSettles) {
  // Multi-shot: one notification per settling; CLOSED once the group is
  // closed and settled. Whether the event is CLOSED in between, while the
  // group is open, the ABI leaves to the implementation (the reference's
  // answer is in unit/).
  int notifications = 0;
  Log log;
  EXPECT_TRUE(RunMain([&] {
    zend_async_group_t* group = ZEND_ASYNC_NEW_GROUP(0, 0, nullptr);
    ASSERT_NE(group, nullptr);
    zend_async_event_t* event = &group->event;
    event->add_callback(event, NewCountingCallback(&notifications));
    zval zobject;
    ZVAL_OBJ(&zobject, ZEND_ASYNC_EVENT_TO_OBJECT(event));
    Zval a = Task(nullptr, "a", 1);
    CallMethod(&zobject, "spawn", {a.get()});
    zar::testing::YieldTimes(3);
    log.push_back(std::to_string(notifications));
    Zval b = Task(nullptr, "b", 1);
    CallMethod(&zobject, "spawn", {b.get()});
    zar::testing::YieldTimes(3);
    log.push_back(std::to_string(notifications));
    CallMethod(&zobject, "close");
    log.push_back(std::to_string(notifications) + " " +
                  (ZEND_ASYNC_EVENT_IS_CLOSED(event) ? "closed" : "open"));
    ZEND_ASYNC_EVENT_RELEASE(event);
  }));
  EXPECT_THAT(log, ElementsAre("1", "2", "3 closed"));
}

TEST_F(TaskGroupTest, ReplayAnswersAtOnceOnlyWhileTheGroupIsSettled) {
  Log log;
  EXPECT_TRUE(RunMain([&] {
    zend_async_group_t* group = ZEND_ASYNC_NEW_GROUP(0, 0, nullptr);
    ASSERT_NE(group, nullptr);
    zend_async_event_t* event = &group->event;
    zval result;
    ZVAL_UNDEF(&result);
    zend_object* exception = nullptr;
    log.push_back(event->replay(event, nullptr, &result, &exception)
                      ? "settled " + Render(&result)
                      : "pending");
    zval zobject;
    ZVAL_OBJ(&zobject, ZEND_ASYNC_EVENT_TO_OBJECT(event));
    Zval a = Task(nullptr, "a", 1);
    CallMethod(&zobject, "spawn", {a.get()});
    ZVAL_UNDEF(&result);
    log.push_back(event->replay(event, nullptr, &result, &exception)
                      ? "settled"
                      : "pending");
    CallMethod(&zobject, "close");
    CallMethod(&zobject, "awaitCompletion");
    ZEND_ASYNC_EVENT_RELEASE(event);
  }));
  EXPECT_THAT(log, ElementsAre("settled null", "pending"));
}

// final class TaskGroup implements Awaitable, Countable,
// IteratorAggregate (php-async task_group.stub.php); that ZEND_ASYNC_GET_CE
// answers it is ClassesTest's.
TEST_F(TaskGroupTest, TheGroupClassIsAFinalCountableAwaitable) {
  bool awaitable = false, countable = false, is_final = false;
  EXPECT_TRUE(RunMain([&] {
    zend_class_entry* ce = TaskGroupClass();
    ASSERT_NE(ce, nullptr);
    zend_class_entry* awaitable_ce = mock_zend::LookupClass("Async\\Awaitable");
    ASSERT_NE(awaitable_ce, nullptr);
    awaitable = instanceof_function(ce, awaitable_ce);
    countable = instanceof_function(ce, zend_ce_countable);
    is_final = (ce->ce_flags & ZEND_ACC_FINAL) != 0;
  }));
  EXPECT_TRUE(awaitable);
  EXPECT_TRUE(countable);
  EXPECT_TRUE(is_final);
}

}  // namespace
}  // namespace zar::task_group_testing
