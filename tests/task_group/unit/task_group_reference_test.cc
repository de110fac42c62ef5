// The reference's own guards for task groups, where upstream has none
// (label unit, not in the conformance runner): upstream's spawnWithKey()
// takes any zval and reads a key that is no string as an integer, and its
// new_group_fn reads any scope object as an Async\Scope (php-async
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

}  // namespace
}  // namespace zar::task_group_testing
