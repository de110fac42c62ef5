// Async\TaskGroup through its methods (php-async task_group.c; the
// scenarios of tests/task_group, docs/task_groups.md lists them).

#include "tests/task_group/support/task_group_test.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"

extern "C" {
#include "Zend/zend_exceptions.h"
}

namespace zar::task_group_testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using zar::testing::TakeExceptionText;
using zar::testing::Yield;

zend_class_entry* Cancellation() {
  return mock_zend::LookupClass("Async\\AsyncCancellation");
}

// The rendering of a method's result, or "Class: message" of its throw.
std::string Outcome(Zval& object, const char* method,
                    std::initializer_list<zval*> args = {}) {
  Zval result = CallMethod(object, method, args);
  if (EG(exception) != nullptr) return TakeExceptionText();
  return Render(result);
}

TEST_F(TaskGroupTest, ANewGroupIsEmptyOpenAndFinished) {
  // tests/task_group/001-task_group_construct_basic
  std::string count, finished, closed, cls;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    cls = ZSTR_VAL(Z_OBJCE_P(group.get())->name);
    count = Outcome(group, "count");
    finished = Outcome(group, "isFinished");
    closed = Outcome(group, "isClosed");
  }));
  EXPECT_EQ(cls, "Async\\TaskGroup");
  EXPECT_EQ(count, "0");
  EXPECT_EQ(finished, "true");
  EXPECT_EQ(closed, "false");
}

TEST_F(TaskGroupTest, ConstructorRejectsNegativeLimits) {
  // tests/task_group/002-task_group_construct_concurrency (bad values)
  std::string concurrency, queue_limit;
  EXPECT_TRUE(RunMain([&] {
    Zval minus = Zval::Long(-1);
    Zval ok = Zval::Long(2);
    Zval a = NewGroup({minus.get()});
    concurrency = TakeExceptionText();
    Zval b = NewGroup({ok.get(), minus.get()});
    queue_limit = TakeExceptionText();
  }));
  // php-async task_group.c, TaskGroup::__construct.
  EXPECT_EQ(concurrency,
            "ValueError: Async\\TaskGroup::__construct(): Argument #1 "
            "($concurrency) must be between 0 and 4294967295");
  EXPECT_EQ(queue_limit,
            "ValueError: Async\\TaskGroup::__construct(): Argument #2 "
            "($queueLimit) must be between 0 and 4294967295");
}

TEST_F(TaskGroupTest, SpawnUsesAutoIncrementKeysAndAllResolvesInSpawnOrder) {
  // tests/task_group/003-task_group_spawn_auto_keys, 008-all_basic
  std::string results, count;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "a", 2));
    SpawnIn(group, Task(nullptr, "b"));
    SpawnIn(group, Task(nullptr, "c", 1));
    count = Outcome(group, "count");
    results = AwaitCall(group, "all");
  }));
  EXPECT_EQ(count, "3");
  EXPECT_EQ(results, "[0: 'a', 1: 'b', 2: 'c']");
}

TEST_F(TaskGroupTest, SpawnWithKeyKeepsStringAndIntKeys) {
  // tests/task_group/004-task_group_spawn_string_keys
  std::string results;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    Zval user = Zval::String("user");
    Zval seven = Zval::Long(7);
    Zval a = Task(nullptr, "u", 1);
    Zval b = Task(nullptr, "s");
    CallMethod(group, "spawnWithKey", {user.get(), a.get()});
    CallMethod(group, "spawnWithKey", {seven.get(), b.get()});
    results = AwaitCall(group, "all");
  }));
  EXPECT_EQ(results, "[user: 'u', 7: 's']");
}

TEST_F(TaskGroupTest, ADuplicateKeyThrows) {
  // tests/task_group/005-task_group_spawn_duplicate_key
  std::string string_key, int_key;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    Zval key = Zval::String("a");
    Zval zero = Zval::Long(0);
    Zval task = Task(nullptr, "t");
    CallMethod(group, "spawnWithKey", {key.get(), task.get()});
    string_key = Outcome(group, "spawnWithKey", {key.get(), task.get()});
    CallMethod(group, "spawn", {task.get()});  // key 0
    int_key = Outcome(group, "spawnWithKey", {zero.get(), task.get()});
    AwaitCall(group, "all");
  }));
  EXPECT_EQ(string_key,
            "Async\\AsyncException: Duplicate key \"a\" in TaskGroup");
  EXPECT_EQ(int_key, "Async\\AsyncException: Duplicate key 0 in TaskGroup");
}

TEST_F(TaskGroupTest, SpawnOnAClosedGroupThrows) {
  // tests/task_group/006-task_group_spawn_on_closed
  std::string outcome;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    CallMethod(group, "close");
    Zval task = Task(nullptr, "t");
    outcome = Outcome(group, "spawn", {task.get()});
  }));
  EXPECT_EQ(outcome,
            "Async\\AsyncException: Cannot spawn tasks on a closed TaskGroup");
}

TEST_F(TaskGroupTest, ConcurrencyLimitQueuesTasksInSpawnOrder) {
  // tests/task_group/007-task_group_concurrency_queuing
  Log log;
  int running = 0;
  int peak = 0;
  std::string results;
  EXPECT_TRUE(RunMain([&] {
    Zval two = Zval::Long(2);
    Zval group = NewGroup({two.get()});
    for (int i = 0; i < 5; i++) {
      Zval task = Closure([&, i](mock_zend::Call& call) {
        running++;
        peak = std::max(peak, running);
        log.push_back("start " + std::to_string(i));
        Yield();
        running--;
        ZVAL_LONG(call.result(), i * 10);
      });
      CallMethod(group, "spawn", {task.get()});
    }
    results = AwaitCall(group, "all");
  }));
  EXPECT_EQ(peak, 2);
  EXPECT_THAT(
      log, ElementsAre("start 0", "start 1", "start 2", "start 3", "start 4"));
  EXPECT_EQ(results, "[0: 0, 1: 10, 2: 20, 3: 30, 4: 40]");
}

TEST_F(TaskGroupTest, AllRejectsWithACompositeExceptionOfTheErrors) {
  // tests/task_group/009-task_group_all_composite_exception
  std::string cls;
  std::vector<std::string> messages;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "ok"));
    SpawnIn(group, Task(nullptr, "error 1", 1, true));
    SpawnIn(group, Task(nullptr, "error 2", 0, true));
    Zval all = CallMethod(group, "all");
    CallMethod(all, "await");
    zend_object* exception = EG(exception);
    if (exception != nullptr) {
      GC_ADDREF(exception);
      zend_clear_exception();
      cls = ZSTR_VAL(exception->ce->name);
      messages = CompositeMessages(exception);
      OBJ_RELEASE(exception);
    }
  }));
  EXPECT_EQ(cls, "Async\\CompositeException");
  EXPECT_THAT(messages,
              ElementsAre("Exception: error 1", "Exception: error 2"));
}

TEST_F(TaskGroupTest, AllWithIgnoreErrorsResolvesWithTheResultsOnly) {
  // tests/task_group/010-task_group_all_ignore_errors
  std::string results, errors;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "a"));
    SpawnIn(group, Task(nullptr, "bad", 0, true));
    SpawnIn(group, Task(nullptr, "c"));
    Zval yes = Zval::Long(1);
    ZVAL_TRUE(yes.get());
    Zval all = CallMethod(group, "all", {yes.get()});
    results = AwaitText(all);
    Zval errs = CallMethod(group, "getErrors");
    errors = std::to_string(errs.size()) + " " + MessageOf(Z_OBJ_P(errs.at(1)));
  }));
  EXPECT_EQ(results, "[0: 'a', 2: 'c']");
  EXPECT_EQ(errors, "1 bad");
}

TEST_F(TaskGroupTest, AllOnAnEmptyGroupResolvesWithAnEmptyArray) {
  // tests/task_group/011-task_group_all_empty
  std::string results;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    results = AwaitCall(group, "all");
  }));
  EXPECT_EQ(results, "[]");
}

TEST_F(TaskGroupTest, RaceResolvesWithTheFirstTaskToSettle) {
  // tests/task_group/012-task_group_race_basic
  std::string winner, results;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "slow", 3));
    SpawnIn(group, Task(nullptr, "fast", 1));
    winner = AwaitCall(group, "race");
    results = AwaitCall(group, "all");
  }));
  EXPECT_EQ(winner, "'fast'");
  EXPECT_EQ(results, "[0: 'slow', 1: 'fast']");
}

TEST_F(TaskGroupTest, RaceRejectsWhenTheFirstTaskToSettleFails) {
  // tests/task_group/036-task_group_race_synchronous_error
  std::string winner;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "slow", 3));
    SpawnIn(group, Task(nullptr, "boom", 1, true));
    winner = AwaitCall(group, "race");
    CallMethod(group, "suppressErrors");
    AwaitCall(group, "all");
  }));
  EXPECT_EQ(winner, "Exception: boom");
}

TEST_F(TaskGroupTest, RaceOrAnyOnAnEmptyGroupThrows) {
  // tests/task_group/013-task_group_race_empty
  std::string race, any;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    race = Outcome(group, "race");
    any = Outcome(group, "any");
  }));
  EXPECT_EQ(race, "Async\\AsyncException: Cannot race on an empty TaskGroup");
  EXPECT_EQ(any,
            "Async\\AsyncException: Cannot call any() on an empty TaskGroup");
}

TEST_F(TaskGroupTest, AnySkipsErrorsAndResolvesWithTheFirstSuccess) {
  // tests/task_group/014-task_group_any_first_success
  std::string first;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "bad", 0, true));
    SpawnIn(group, Task(nullptr, "good", 2));
    first = AwaitCall(group, "any");
    CallMethod(group, "suppressErrors");
    AwaitCall(group, "all");
  }));
  EXPECT_EQ(first, "'good'");
}

TEST_F(TaskGroupTest, AnyRejectsWithACompositeExceptionWhenAllFail) {
  // tests/task_group/015-task_group_any_all_fail
  std::string cls;
  std::vector<std::string> messages;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "e1", 1, true));
    SpawnIn(group, Task(nullptr, "e2", 0, true));
    Zval any = CallMethod(group, "any");
    CallMethod(any, "await");
    zend_object* exception = EG(exception);
    if (exception != nullptr) {
      GC_ADDREF(exception);
      zend_clear_exception();
      cls = ZSTR_VAL(exception->ce->name);
      messages = CompositeMessages(exception);
      OBJ_RELEASE(exception);
    }
    CallMethod(group, "suppressErrors");
  }));
  EXPECT_EQ(cls, "Async\\CompositeException");
  EXPECT_THAT(messages, ElementsAre("Exception: e1", "Exception: e2"));
}

TEST_F(TaskGroupTest, GetResultsAndGetErrorsSplitTheOutcomesByKey) {
  // tests/task_group/016-task_group_get_results_errors
  std::string results, errors;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    Zval bad = Task(nullptr, "bad", 0, true);
    Zval k = Zval::String("k");
    SpawnIn(group, Task(nullptr, "a"));
    CallMethod(group, "spawnWithKey", {k.get(), bad.get()});
    CloseAndAwaitCompletion(group);
    results = Keyed(CallMethod(group, "getResults"));
    Zval errs = CallMethod(group, "getErrors");
    errors =
        std::to_string(errs.size()) + " " + MessageOf(Z_OBJ_P(errs.at("k")));
  }));
  EXPECT_EQ(results, "[0: 'a']");
  EXPECT_EQ(errors, "1 bad");
}

TEST_F(TaskGroupTest, CloseKeepsRunningTasksAndAllStillResolves) {
  // tests/task_group/018-task_group_close
  std::string closed, results, again;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    Zval a = Task(nullptr, "a", 1);
    CallMethod(group, "spawn", {a.get()});
    CallMethod(group, "close");
    CallMethod(group, "close");  // a second close does nothing
    closed = Outcome(group, "isClosed");
    results = AwaitCall(group, "all");
  }));
  EXPECT_EQ(closed, "true");
  EXPECT_EQ(results, "[0: 'a']");
}

TEST_F(TaskGroupTest, CancelStopsRunningTasksAndDropsTheQueue) {
  // tests/task_group/019-task_group_cancel
  Log log;
  std::string closed, finished, results, after;
  EXPECT_TRUE(RunMain([&] {
    Zval one = Zval::Long(1);
    Zval group = NewGroup({one.get()});
    SpawnIn(group, Task(&log, "slow", 2));
    SpawnIn(group, Task(&log, "queued"));
    CallMethod(group, "cancel");
    closed = Outcome(group, "isClosed");
    finished = Outcome(group, "isFinished");
    results = std::to_string(CallMethod(group, "getResults").size());
    CallMethod(group, "awaitCompletion");
    after = Outcome(group, "isFinished");
  }));
  EXPECT_EQ(closed, "true");
  EXPECT_EQ(finished, "false");
  EXPECT_EQ(results, "0");
  EXPECT_EQ(after, "true");
  EXPECT_THAT(log, IsEmpty());
}

// A group made in the main scope inherits its dispose-safely flag (php-async
// scope.c async_new_scope: a scope without an object and without a parent is
// safe, and a child inherits it), so cancel() and dispose() cancel the tasks
// that have not started and leave a running one to finish as a zombie
// (task_group.c passes ZEND_ASYNC_SCOPE_IS_DISPOSE_SAFELY to
// ZEND_ASYNC_SCOPE_CANCEL; coroutine.c async_coroutine_cancel marks a started
// coroutine a zombie instead of cancelling it).
TEST_F(TaskGroupTest, CancelLetsARunningTaskOfTheMainScopeFinish) {
  // tests/task_group/019-task_group_cancel
  std::string results, errors;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "slow", 2));
    Yield();  // the task starts
    Zval reason = NewException(Cancellation(), "stop now");
    CallMethod(group, "cancel", {reason.get()});
    CallMethod(group, "awaitCompletion");
    results = Keyed(CallMethod(group, "getResults"));
    errors = std::to_string(CallMethod(group, "getErrors").size());
  }));
  EXPECT_EQ(results, "[0: 'slow']");
  EXPECT_EQ(errors, "0");
}

TEST_F(TaskGroupTest, DisposeLetsARunningTaskOfTheMainScopeFinish) {
  // tests/task_group/020-task_group_dispose
  std::string results, errors;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "slow", 3));
    Yield();
    CallMethod(group, "dispose");
    CloseAndAwaitCompletion(group);
    results = Keyed(CallMethod(group, "getResults"));
    errors = std::to_string(CallMethod(group, "getErrors").size());
  }));
  EXPECT_EQ(results, "[0: 'slow']");
  EXPECT_EQ(errors, "0");
}

TEST_F(TaskGroupTest, StateTransitionsFromOpenToClosedToFinished) {
  // tests/task_group/021-task_group_state_transitions
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    auto state = [&] {
      log.push_back(Render(CallMethod(group, "isFinished")) + "/" +
                    Render(CallMethod(group, "isClosed")));
    };
    state();
    SpawnIn(group, Task(nullptr, "a", 1));
    state();
    CallMethod(group, "close");
    state();
    CallMethod(group, "awaitCompletion");
    state();
  }));
  EXPECT_THAT(
      log, ElementsAre("true/false", "false/false", "false/true", "true/true"));
}

TEST_F(TaskGroupTest, CountIncludesQueuedRunningAndSettledTasks) {
  // tests/task_group/022-task_group_count
  Log counts;
  EXPECT_TRUE(RunMain([&] {
    Zval one = Zval::Long(1);
    Zval zero = Zval::Long(0);
    Zval group = NewGroup({one.get(), zero.get()});
    SpawnIn(group, Task(nullptr, "a", 1));
    SpawnIn(group, Task(nullptr, "b", 1));
    SpawnIn(group, Task(nullptr, "c", 1));
    counts.push_back(Render(CallMethod(group, "count")));
    AwaitCall(group, "all");
    counts.push_back(Render(CallMethod(group, "count")));
  }));
  EXPECT_THAT(counts, ElementsAre("3", "3"));
}

TEST_F(TaskGroupTest, FinallyRunsAfterTheGroupCompletesWithTheGroup) {
  // tests/task_group/023-task_group_on_finally
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    Zval handler = Closure([&](mock_zend::Call& call) {
      log.push_back("finally called");
      zval* g = call.arg(0);
      log.push_back("count: " + Render(CallMethod(g, "count")));
    });
    CallMethod(group, "finally", {handler.get()});
    SpawnIn(group, Task(nullptr, "a"));
    SpawnIn(group, Task(nullptr, "b"));
    CallMethod(group, "close");
    AwaitCall(group, "all");
    log.push_back("after all");
  }));
  EXPECT_THAT(log, ElementsAre("after all", "finally called", "count: 2"));
}

TEST_F(TaskGroupTest, FinallyOnACompletedGroupRunsAtOnce) {
  // tests/task_group/024-task_group_on_finally_completed
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "a"));
    CloseAndAwaitCompletion(group);
    Zval handler = Closure([&](mock_zend::Call& call) {
      log.push_back("finally " + std::to_string(call.argc()));
    });
    CallMethod(group, "finally", {handler.get()});
    log.push_back("after finally()");
  }));
  EXPECT_THAT(log, ElementsAre("finally 1", "after finally()"));
}

TEST_F(TaskGroupTest, SpawnPassesItsExtraArgumentsToTheTask) {
  // tests/task_group/027-task_group_spawn_with_args
  std::string results;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    Zval add = Closure([](mock_zend::Call& call) {
      ZVAL_LONG(call.result(), Z_LVAL_P(call.arg(0)) + Z_LVAL_P(call.arg(1)));
    });
    Zval two = Zval::Long(2);
    Zval three = Zval::Long(3);
    Zval key = Zval::String("sum");
    CallMethod(group, "spawn", {add.get(), two.get(), three.get()});
    CallMethod(group, "spawnWithKey",
               {key.get(), add.get(), three.get(), three.get()});
    results = AwaitCall(group, "all");
  }));
  EXPECT_EQ(results, "[0: 5, sum: 6]");
}

TEST_F(TaskGroupTest, AwaitCompletionWaitsForEveryTaskAndNeverThrows) {
  // tests/task_group/028-task_group_await_completion_basic, 029 (errors)
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(&log, "a", 2));
    SpawnIn(group, Task(&log, "bad", 1, true));
    CloseAndAwaitCompletion(group);
    log.push_back(EG(exception) == nullptr ? "completed" : "threw");
    log.push_back(Keyed(CallMethod(group, "getResults")));
    CallMethod(group, "suppressErrors");
  }));
  EXPECT_THAT(log,
              ElementsAre("a start", "bad start", "completed", "[0: 'a']"));
}

TEST_F(TaskGroupTest, AwaitCompletionOnAnOpenGroupThrows) {
  // tests/task_group/030-task_group_await_completion_not_sealed
  std::string outcome;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    outcome = Outcome(group, "awaitCompletion");
  }));
  EXPECT_EQ(outcome,
            "Async\\AsyncException: TaskGroup must be closed before calling "
            "awaitCompletion()");
}

TEST_F(TaskGroupTest, AwaitCompletionReturnsAfterCancel) {
  // tests/task_group/031-task_group_await_completion_after_cancel
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "slow", 2));
    SpawnIn(group, Task(nullptr, "fast"));
    CallMethod(group, "cancel");
    CallMethod(group, "awaitCompletion");
    log.push_back("completed after cancel");
    log.push_back(Render(CallMethod(group, "isFinished")));
    log.push_back(Render(CallMethod(group, "isClosed")));
  }));
  EXPECT_THAT(log, ElementsAre("completed after cancel", "true", "true"));
}

TEST_F(TaskGroupTest, AllCalledTwiceResolvesBothFutures) {
  // tests/task_group/032-task_group_all_multiple
  std::string first, second;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "a", 1));
    AwaitCallTwice(group, "all", &first, &second);
  }));
  EXPECT_EQ(first, "[0: 'a']");
  EXPECT_EQ(second, "[0: 'a']");
}

TEST_F(TaskGroupTest, AllAfterEverythingFailedRejectsAtOnce) {
  // tests/task_group/035-task_group_all_synchronous_reject
  std::string outcome, completed;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "bad", 0, true));
    CloseAndAwaitCompletion(group);
    outcome = AwaitCall(group, "all", &completed);
  }));
  EXPECT_EQ(completed, "true");
  EXPECT_EQ(outcome, "Async\\CompositeException: ");
}

TEST_F(TaskGroupTest, RaceAfterATaskSettledResolvesAtOnceWithTheFirstInOrder) {
  // tests/task_group/033-task_group_race_multiple
  std::string outcome;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "a"));
    SpawnIn(group, Task(nullptr, "b"));
    CloseAndAwaitCompletion(group);
    outcome = AwaitCall(group, "race");
  }));
  EXPECT_EQ(outcome, "'a'");
}

TEST_F(TaskGroupTest, AQueueLimitSuspendsTheSpawnerUntilATaskStarts) {
  // tests/task_group/041-task_group_queue_limit
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval one = Zval::Long(1);
    Zval group = NewGroup({one.get(), one.get()});
    Zval a = Task(&log, "a", 1);
    Zval b = Task(&log, "b", 1);
    Zval c = Task(&log, "c", 1);
    CallMethod(group, "spawn", {a.get()});  // runs
    CallMethod(group, "spawn", {b.get()});  // queued (queue full)
    log.push_back("spawning c");
    CallMethod(group, "spawn", {c.get()});  // waits for b to start
    log.push_back("c spawned");
    CloseAndAwaitCompletion(group);
    log.push_back(Keyed(CallMethod(group, "getResults")));
  }));
  EXPECT_THAT(log, ElementsAre("spawning c", "a start", "b start", "c spawned",
                               "c start", "[0: 'a', 1: 'b', 2: 'c']"));
}

TEST_F(TaskGroupTest, ASpawnerWaitingOnAFullQueueThrowsWhenTheGroupCloses) {
  std::string outcome;
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval one = Zval::Long(1);
    Zval group = NewGroup({one.get(), one.get()});
    SpawnIn(group, Task(nullptr, "a", 2));
    SpawnIn(group, Task(nullptr, "b"));
    zar::testing::CoroutineRef closer(zar::testing::Spawn([&] {
      log.push_back("close");
      CallMethod(group, "close");
    }));
    Zval c = Task(nullptr, "c");
    outcome = Outcome(group, "spawn", {c.get()});
    CallMethod(group, "awaitCompletion");
  }));
  EXPECT_THAT(log, ElementsAre("close"));
  EXPECT_EQ(outcome,
            "Async\\AsyncException: Cannot spawn tasks on a closed TaskGroup");
}

TEST_F(TaskGroupTest, GetIteratorCalledDirectlyThrows) {
  // tests/task_group/039-task_group_direct_getIterator
  std::string outcome;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    outcome = Outcome(group, "getIterator");
  }));
  EXPECT_EQ(outcome,
            "Error: An object of class Async\\TaskGroup is not a traversable "
            "object in an invalid state");
}

TEST_F(TaskGroupTest, UnhandledErrorsReachTheScopeWhenTheGroupIsDestroyed) {
  // A group dropped with errors nobody looked at hands a CompositeException
  // to its scope; suppressErrors() or getErrors() prevents it.
  std::string suppressed;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "bad", 0, true));
    CloseAndAwaitCompletion(group);
    CallMethod(group, "suppressErrors");
    group.Reset();
    suppressed = EG(exception) == nullptr ? "no exception" : "exception";
  }));
  EXPECT_EQ(suppressed, "no exception");
}

TEST_F(TaskGroupTest, QueueLimitDefaultsAndExplicitZeroIsUnbounded) {
  // tests/task_group/042-task_group_queue_limit_defaults
  Log log;
  std::string negative;
  EXPECT_TRUE(RunMain([&] {
    Zval one = Zval::Long(1);
    Zval zero = Zval::Long(0);
    Zval group = NewGroup({one.get(), zero.get()});
    for (int i = 1; i <= 5; i++) {
      Zval task = Closure([&log, i](mock_zend::Call&) {
        log.push_back("task" + std::to_string(i));
      });
      CallMethod(group, "spawn", {task.get()});
      log.push_back("after" + std::to_string(i));
    }
    CallMethod(group, "close");
    AwaitCall(group, "all");
    Zval minus = Zval::Long(-1);
    Zval bad = NewGroup({one.get(), minus.get()});
    negative = TakeExceptionText();
  }));
  EXPECT_THAT(log, ElementsAre("after1", "after2", "after3", "after4", "after5",
                               "task1", "task2", "task3", "task4", "task5"));
  EXPECT_EQ(negative,
            "ValueError: Async\\TaskGroup::__construct(): Argument #2 "
            "($queueLimit) must be between 0 and 4294967295");
}

TEST_F(TaskGroupTest, TheDefaultQueueLimitIsTwiceTheConcurrency) {
  // concurrency 1: one running, two queued; the fourth spawn waits.
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval one = Zval::Long(1);
    Zval group = NewGroup({one.get()});
    for (int i = 1; i <= 4; i++) {
      Zval task = Task(&log, "t" + std::to_string(i), 1);
      CallMethod(group, "spawn", {task.get()});
      log.push_back("spawned " + std::to_string(i));
    }
    CloseAndAwaitCompletion(group);
  }));
  // The fourth spawn returned only after a queued task started. Whether the
  // woken spawner or the next queued task runs first is the scheduler's
  // order, which the ABI leaves open.
  ASSERT_EQ(log.size(), 8u);
  EXPECT_THAT(std::vector<std::string>(log.begin(), log.begin() + 5),
              ElementsAre("spawned 1", "spawned 2", "spawned 3", "t1 start",
                          "t2 start"));
  EXPECT_THAT(
      std::vector<std::string>(log.begin() + 5, log.end()),
      ::testing::AnyOf(ElementsAre("t3 start", "spawned 4", "t4 start"),
                       ElementsAre("spawned 4", "t3 start", "t4 start")));
}

TEST_F(TaskGroupTest, NegativeConcurrencyIsAValueError) {
  // tests/task_group/038-task_group_error_branches
  std::string outcome;
  EXPECT_TRUE(RunMain([&] {
    Zval minus = Zval::Long(-1);
    Zval group = NewGroup({minus.get()});
    outcome = TakeExceptionText();
  }));
  EXPECT_EQ(outcome,
            "ValueError: Async\\TaskGroup::__construct(): Argument #1 "
            "($concurrency) must be between 0 and 4294967295");
}

TEST_F(TaskGroupTest, SuppressErrorsLeavesTheErrorsReadable) {
  // tests/task_group/017-task_group_suppress_errors
  std::string count;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "err", 0, true));
    CallMethod(group, "close");
    Zval yes;
    ZVAL_TRUE(yes.get());
    Zval all = CallMethod(group, "all", {yes.get()});
    AwaitText(all);
    CallMethod(group, "suppressErrors");
    count = std::to_string(CallMethod(group, "getErrors").size());
  }));
  EXPECT_EQ(count, "1");
}

TEST_F(TaskGroupTest, AnyCalledTwiceResolvesBothWithTheFirstSuccess) {
  // tests/task_group/034-task_group_any_multiple
  std::string first, second;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "bad", 0, true));
    SpawnIn(group, Task(nullptr, "good", 2));
    AwaitCallTwice(group, "any", &first, &second);
    CallMethod(group, "suppressErrors");
  }));
  EXPECT_EQ(first, "'good'");
  EXPECT_EQ(second, "'good'");
}

TEST_F(TaskGroupTest, AnyAfterEveryTaskFailedRejectsAtOnce) {
  // tests/task_group/037-task_group_any_synchronous_all_failed
  std::string completed, outcome;
  EXPECT_TRUE(RunMain([&] {
    Zval group = NewGroup();
    SpawnIn(group, Task(nullptr, "e1", 0, true));
    CloseAndAwaitCompletion(group);
    outcome = AwaitCall(group, "any", &completed);
    CallMethod(group, "suppressErrors");
  }));
  EXPECT_EQ(completed, "true");
  EXPECT_EQ(outcome, "Async\\CompositeException: ");
}

TEST_F(TaskGroupTest, AGroupRunsItsTasksInAnExternalScopeItKeepsAlive) {
  // tests/task_group/043-task_group_external_scope_uaf: the Scope object
  // is a temporary; the group holds it until it is destroyed.
  Log log;
  EXPECT_TRUE(RunMain([&] {
    zend_async_scope_t* scope =
        ZEND_ASYNC_NEW_SCOPE_WITH_OBJECT(ZEND_ASYNC_CURRENT_SCOPE);
    ASSERT_NE(scope, nullptr);
    // The script's temporary: the object's reference, which the creator
    // of a scope with an object holds (php-async scope.c async_new_scope).
    Zval scope_object;
    ZVAL_OBJ(scope_object.get(), scope->scope_object);
    Zval three = Zval::Long(3);
    Zval null_limit = Zval::Null();
    Zval group = NewGroup({three.get(), null_limit.get(), scope_object.get()});
    scope_object.Reset();  // the temporary goes
    for (int i = 0; i < 2; i++) {
      Zval task = Closure([&log, scope](mock_zend::Call&) {
        log.push_back(ZEND_ASYNC_CURRENT_SCOPE == scope ? "in scope"
                                                        : "elsewhere");
        zar::testing::Yield();
      });
      CallMethod(group, "spawn", {task.get()});
    }
    CloseAndAwaitCompletion(group);
    log.push_back("completed");
    group.Reset();
    log.push_back("destroyed");  // and with it the scope
  }));
  EXPECT_THAT(log,
              ElementsAre("in scope", "in scope", "completed", "destroyed"));
}

TEST_F(TaskGroupTest, MisuseOfAnEmptyCancelledOrDisposedGroupOnlyThrows) {
  Log log;
  EXPECT_TRUE(RunMain([&] {
    Zval empty = NewGroup();
    CallMethod(empty, "cancel");
    CallMethod(empty, "cancel");
    CallMethod(empty, "dispose");
    Zval task = Task(&log, "never");
    log.push_back(Outcome(empty, "spawn", {task.get()}));
    log.push_back(Outcome(empty, "isFinished"));
    log.push_back(AwaitCall(empty, "all"));
    CallMethod(empty, "awaitCompletion");
    empty.Reset();

    Zval disposed = NewGroup();
    CallMethod(disposed, "dispose");
    CallMethod(disposed, "dispose");
    Zval after = Task(&log, "after dispose");
    log.push_back(Outcome(disposed, "spawn", {after.get()}));
    CloseAndAwaitCompletion(disposed);
    log.push_back(Outcome(disposed, "count"));
    disposed.Reset();

    // A disposed group's scope is closed: the scheduler refuses the
    // coroutine and the task is not added. Constructed twice: the second
    // call changes nothing.
    Zval twice = NewGroup();
    Zval two = Zval::Long(2);
    CallMethod(twice, "__construct", {two.get()});
    log.push_back(Outcome(twice, "count"));
  }));
  EXPECT_THAT(
      log, ElementsAre("Async\\AsyncException: Cannot spawn tasks on a "
                       "closed TaskGroup",
                       "true", "[]",
                       "Async\\AsyncException: Cannot spawn a coroutine in a "
                       "closed scope",
                       "0", "0"));
}

}  // namespace
}  // namespace zar::task_group_testing
