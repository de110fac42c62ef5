// The reference's own guards and choices for task groups, where upstream
// has none or chose otherwise (label unit, not in the conformance runner):
// upstream's spawnWithKey() takes any zval and reads a key that is no string
// as an integer, its new_group_fn reads any scope object as an Async\Scope,
// and it closes the group's event each time the group settles (php-async
// task_group.c).

#include <gtest/gtest.h>

#include "tests/task_group/support/task_group_test.h"

namespace zar::task_group_testing {
namespace {

using TaskGroupReferenceTest = TaskGroupTest;

// As the engine's check of the declared `string|int $key` would say.
TEST_F(TaskGroupReferenceTest,
       SpawnWithKeyRejectsAKeyThatIsNeitherStringNorInt) {
  std::string outcome;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    Zval key = Zval::Null();
    Zval task = Task(nullptr, "t");
    CallMethod(group, "spawnWithKey", {key.get(), task.get()});
    outcome = zar::testing::TakeExceptionText();
  }));
  EXPECT_EQ(outcome,
            "TypeError: Async\\TaskGroup::spawnWithKey(): Argument #1 ($key) "
            "must be of type string|int, null given");
}

TEST_F(TaskGroupReferenceTest, NewGroupRefusesAScopeObjectThatIsNoScope) {
  std::string outcome;
  bool null_group = false;
  EXPECT_TRUE(RunMain([&] {
    Zval not_a_scope = NewGroup();
    null_group =
        ZEND_ASYNC_NEW_GROUP(0, 0, Z_OBJ_P(not_a_scope.get())) == nullptr;
    outcome = zar::testing::TakeExceptionText();
  }));
  EXPECT_TRUE(null_group);
  EXPECT_EQ(outcome,
            "Async\\AsyncException: TaskGroup scope must be an Async\\Scope, "
            "Async\\TaskGroup given");
}

// The group's event is CLOSED once the group is closed and settled, not
// while it is open: a group that settled can still take tasks (php-async
// closes it each time the group settles, task_group_try_complete).
TEST_F(TaskGroupReferenceTest, TheGroupEventStaysOpenWhileTheGroupIsOpen) {
  bool open_after_settling = false;
  bool closed_after_close = false;
  EXPECT_TRUE(RunMain([&] {
    zend_async_group_t* group = ZEND_ASYNC_NEW_GROUP(0, 0, nullptr);
    ASSERT_NE(group, nullptr);
    zval zobject;
    ZVAL_OBJ(&zobject, ZEND_ASYNC_EVENT_TO_OBJECT(&group->event));
    Zval task = Task(nullptr, "a", 1);
    CallMethod(&zobject, "spawn", {task.get()});
    zar::testing::YieldTimes(3);
    open_after_settling = !ZEND_ASYNC_EVENT_IS_CLOSED(&group->event);
    CallMethod(&zobject, "close");
    closed_after_close = ZEND_ASYNC_EVENT_IS_CLOSED(&group->event);
    ZEND_ASYNC_EVENT_RELEASE(&group->event);
  }));
  EXPECT_TRUE(open_after_settling);
  EXPECT_TRUE(closed_after_close);
}

}  // namespace
}  // namespace zar::task_group_testing
