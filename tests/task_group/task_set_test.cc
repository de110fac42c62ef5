// Async\TaskSet: TaskGroup's code with joinNext/joinAny/joinAll, whose
// delivered results leave the set (php-async task_group.c with
// ASYNC_TASK_GROUP_F_TASK_SET; the scenarios of tests/task_set).

#include <string>

#include "gmock/gmock.h"
#include "tests/task_group/support/task_group_test.h"

namespace zar::task_group_testing {
namespace {

using ::testing::ElementsAre;
using zar::testing::TakeExceptionText;

class TaskSetTest : public TaskGroupTest {};

zend_class_entry* TaskSetClass() {
  return mock_zend::LookupClass("Async\\TaskSet");
}

// new Async\TaskSet(...args).
Zval NewSet(const std::vector<zval*>& args = {}) {
  return mock_zend::New(TaskSetClass(), args);
}

TEST_F(TaskSetTest, ANewSetIsAnEmptyFinalAwaitableCountable) {
  // tests/task_set/001-task_set_construct_basic
  Log log;
  EXPECT_TRUE(RunMain([&] {
    zend_class_entry* ce = TaskSetClass();
    ASSERT_NE(ce, nullptr);
    log.push_back((ce->ce_flags & ZEND_ACC_FINAL) ? "final" : "open");
    zend_class_entry* awaitable = mock_zend::LookupClass("Async\\Awaitable");
    ASSERT_NE(awaitable, nullptr);
    log.push_back(instanceof_function(ce, awaitable) ? "awaitable" : "-");
    Zval set = NewSet();
    log.push_back(Render(CallMethod(set, "count")));
    log.push_back(Render(CallMethod(set, "isFinished")));
    log.push_back(Render(CallMethod(set, "isClosed")));
  }));
  EXPECT_THAT(log, ElementsAre("final", "awaitable", "0", "true", "false"));
}

TEST_F(TaskSetTest, JoinNextResolvesWithTheFirstTaskToSettle) {
  // tests/task_set/009-task_set_join_next_basic
  std::string result;
  EXPECT_TRUE(RunMain([&] {
    Zval set = NewSet();
    SpawnIn(set, Task(nullptr, "slow", 2));
    SpawnIn(set, Task(nullptr, "fast"));
    result = AwaitCall(set, "joinNext");
  }));
  EXPECT_EQ(result, "'fast'");
}

TEST_F(TaskSetTest, JoinNextRejectsWithTheFirstTasksError) {
  // tests/task_set/010-task_set_join_next_error
  std::string result;
  EXPECT_TRUE(RunMain([&] {
    Zval set = NewSet();
    SpawnIn(set, Task(nullptr, "task error", 0, true));
    result = AwaitCall(set, "joinNext");
  }));
  EXPECT_EQ(result, "Exception: task error");
}

TEST_F(TaskSetTest, JoinNextRemovesEachDeliveredTask) {
  // tests/task_set/014-task_set_auto_cleanup_join_next
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval set = NewSet();
    SpawnIn(set, Task(nullptr, "first"));
    SpawnIn(set, Task(nullptr, "second"));
    log.push_back("before " + Render(CallMethod(set, "count")));
    const std::string r1 = AwaitCall(set, "joinNext");
    log.push_back("after first " + Render(CallMethod(set, "count")));
    const std::string r2 = AwaitCall(set, "joinNext");
    log.push_back("after second " + Render(CallMethod(set, "count")));
    log.push_back(r1 + ", " + r2);
  }));
  EXPECT_THAT(log, ElementsAre("before 2", "after first 1", "after second 0",
                               "'first', 'second'"));
}

TEST_F(TaskSetTest, JoinAnySkipsErrorsAndRemovesTheDeliveredTask) {
  // tests/task_set/011-task_set_join_any_first_success
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval set = NewSet();
    SpawnIn(set, Task(nullptr, "error1", 0, true));
    SpawnIn(set, Task(nullptr, "success", 1));
    log.push_back(AwaitCall(set, "joinAny"));
    CloseAndAwaitCompletion(set);
    // Synchronously: the first success leaves the set; errors stay.
    log.push_back(AwaitCall(set, "joinAny"));
    log.push_back(Render(CallMethod(set, "count")));
    CallMethod(set, "cancel");  // marks the remaining error handled
  }));
  EXPECT_THAT(log, ElementsAre("'success'", "'success'", "1"));
}

TEST_F(TaskSetTest, JoinAnyRejectsWithACompositeExceptionWhenAllFail) {
  // tests/task_set/012-task_set_join_any_all_fail
  std::string result;
  EXPECT_TRUE(RunMain([&] {
    Zval set = NewSet();
    SpawnIn(set, Task(nullptr, "e1", 0, true));
    SpawnIn(set, Task(nullptr, "e2", 1, true));
    result = AwaitCall(set, "joinAny");
    CallMethod(set, "cancel");
  }));
  EXPECT_EQ(result, "Async\\CompositeException: ");
}

TEST_F(TaskSetTest, JoinAllDeliversEveryResultAndEmptiesTheSet) {
  // tests/task_set/005-task_set_join_all_basic, 013 (auto cleanup)
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval set = NewSet();
    for (const char* name : {"a", "b", "c"}) {
      SpawnIn(set, Task(nullptr, name));
    }
    log.push_back("before " + Render(CallMethod(set, "count")));
    CallMethod(set, "close");
    log.push_back(AwaitCall(set, "joinAll"));
    log.push_back("after " + Render(CallMethod(set, "count")));
  }));
  EXPECT_THAT(log,
              ElementsAre("before 3", "[0: 'a', 1: 'b', 2: 'c']", "after 0"));
}

TEST_F(TaskSetTest, JoinAllWithIgnoreErrorsKeepsOnlyTheResults) {
  // tests/task_set/006 (composite), 007-task_set_join_all_ignore_errors
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval set = NewSet();
    SpawnIn(set, Task(nullptr, "a"));
    SpawnIn(set, Task(nullptr, "bad", 0, true));
    Zval yes;
    ZVAL_TRUE(yes.get());
    Zval all = CallMethod(set, "joinAll", {yes.get()});
    log.push_back(AwaitText(all));
    log.push_back(Render(CallMethod(set, "count")));
  }));
  EXPECT_THAT(log, ElementsAre("[0: 'a']", "0"));
}

TEST_F(TaskSetTest, JoinAllOnAnEmptySetAndJoinNextOnAnEmptySet) {
  // tests/task_set/008-task_set_join_all_empty
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval set = NewSet();
    log.push_back(AwaitCall(set, "joinAll"));
    CallMethod(set, "joinNext");
    log.push_back(TakeExceptionText());
  }));
  EXPECT_THAT(log, ElementsAre("[]",
                               "Async\\AsyncException: Cannot race on "
                               "an empty TaskGroup"));
}

TEST_F(TaskSetTest, ConcurrencyQueueCancelAndSpawnArgumentsAsTaskGroup) {
  // tests/task_set/018 (cancel), 026 (spawn with args), 027 (queuing)
  Log log;
  int running = 0, peak = 0;
  EXPECT_TRUE(RunMain([&] {
    Zval two = Zval::Long(2);
    Zval set = NewSet({two.get()});
    for (int i = 0; i < 4; i++) {
      Zval task = Closure([&, i](mock_zend::Call& call) {
        running++;
        peak = std::max(peak, running);
        zar::testing::Yield();
        running--;
        ZVAL_LONG(call.result(), i + Z_LVAL_P(call.arg(0)));
      });
      Zval hundred = Zval::Long(100);
      CallMethod(set, "spawn", {task.get(), hundred.get()});
    }
    log.push_back(AwaitCall(set, "joinAll"));
    CallMethod(set, "cancel");
    log.push_back(Render(CallMethod(set, "isClosed")));
    Zval task = Task(nullptr, "late");
    CallMethod(set, "spawn", {task.get()});
    log.push_back(TakeExceptionText());
  }));
  EXPECT_EQ(peak, 2);
  EXPECT_THAT(log, ElementsAre("[0: 100, 1: 101, 2: 102, 3: 103]", "true",
                               "Async\\AsyncException: Cannot spawn tasks on "
                               "a closed TaskGroup"));
}

TEST_F(TaskSetTest, FinallyAndAwaitCompletionAsTaskGroup) {
  // tests/task_set/021-task_set_finally, 022, 023-task_set_await_completion
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval set = NewSet();
    Zval handler = Closure([&](mock_zend::Call& call) {
      log.push_back("finally " +
                    std::string(ZSTR_VAL(Z_OBJCE_P(call.arg(0))->name)));
    });
    CallMethod(set, "finally", {handler.get()});
    SpawnIn(set, Task(&log, "a", 1));
    CloseAndAwaitCompletion(set);
    log.push_back("completed");
    zar::testing::Yield();                        // the finally coroutine runs
    CallMethod(set, "finally", {handler.get()});  // completed: at once
  }));
  EXPECT_THAT(log, ElementsAre("a start", "completed", "finally Async\\TaskSet",
                               "finally Async\\TaskSet"));
}

}  // namespace
}  // namespace zar::task_group_testing
