// The reference scheduler's own choices and texts, which upstream's
// scheduler makes differently (docs/scheduler.md, "Differences from
// upstream"), so the conformance suite cannot ask them of another
// implementation: its messages for the groups it does not implement, its
// coroutine stacks (1 MiB under a guard page), get_coroutines and
// get_awaiting_info, the warning that starts a graceful shutdown, and its
// refusals where upstream only asserts or misbehaves.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/fiber/fiber_stack.h"
#include "core/fiber/stack_cache.h"
#include "mock_zend/inspect.h"
#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ::testing::ElementsAre;

class SchedulerInternalTest : public SchedulerTest {};

// Coroutine stacks in use on this thread (not those in the stack cache).
size_t CountFiberStacks() { return zar::core::FiberStack::InUse(); }

// Every stack goes back when its coroutine ends; the end of the request
// leaves StackCache::kWarmStacks of them holding memory in the cache, the
// rest cold (memory returned) or unmapped, none waiting for its memory to
// go back.
TEST_F(SchedulerInternalTest, EveryCoroutineStackIsReleased) {
  constexpr int kCoroutines = zar::core::StackCache::kWarmStacks + 100;
  const size_t before = CountFiberStacks();
  size_t during = 0;
  int finished = 0;
  EXPECT_TRUE(RunMain([&] {
    for (int i = 0; i < kCoroutines; i++) {
      Spawn([&](mock_zend::Call&) {
        Yield();
        finished++;
      });
    }
    Spawn([&](mock_zend::Call&) { during = CountFiberStacks(); });
  }));
  EXPECT_EQ(finished, kCoroutines);
  EXPECT_GE(during, before + kCoroutines);
  EXPECT_EQ(CountFiberStacks(), before);
  const zar::core::StackCache* cache = zar::core::StackCache::ForThread();
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->warm(), zar::core::StackCache::kWarmStacks);
  EXPECT_EQ(cache->pending(), 0u);
  // Beyond the bound the rest keep their address range only with guard
  // markers; with mprotect guards they were unmapped.
  if (zar::core::CurrentStackGuard() == zar::core::StackGuard::kMarker) {
    EXPECT_GE(cache->cold(), kCoroutines - zar::core::StackCache::kWarmStacks);
  } else {
    EXPECT_EQ(cache->cold(), 0u);
  }
}

// get_coroutines: a new array of coroutine objects the caller releases
// (upstream hands out its internal table of pointers).
TEST_F(SchedulerInternalTest, GetCoroutinesListsTheLiveOnes) {
  uint32_t count = 0;
  bool all_coroutines = true;
  EXPECT_TRUE(RunMain([&] {
    Spawn([](mock_zend::Call&) {});
    Spawn([](mock_zend::Call&) {});
    zend_array* coroutines = ZEND_ASYNC_GET_COROUTINES();
    count = zend_hash_num_elements(coroutines);
    zval* value;
    ZEND_HASH_FOREACH_VAL(coroutines, value) {
      all_coroutines =
          all_coroutines && Z_TYPE_P(value) == IS_OBJECT &&
          Z_OBJCE_P(value) == ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_COROUTINE);
    }
    ZEND_HASH_FOREACH_END();
    zend_array_release(coroutines);
  }));
  EXPECT_EQ(count, 3u);  // main and the two spawned
  EXPECT_TRUE(all_coroutines);
}

// get_awaiting_info: the info() of each awaited event (upstream: NULL).
TEST_F(SchedulerInternalTest, AwaitingInfoDescribesWhatACoroutineWaitsFor) {
  std::vector<std::string> infos;
  EXPECT_TRUE(RunMain([&] {
    CoroutineRef waiter(Spawn([](mock_zend::Call&) { Delay(1); }));
    Yield();  // the waiter suspends on its timer
    zend_array* info = ZEND_ASYNC_GET_AWAITING_INFO(waiter.get());
    zval* value;
    ZEND_HASH_FOREACH_VAL(info, value) {
      infos.push_back(Z_TYPE_P(value) == IS_STRING ? Z_STRVAL_P(value) : "?");
    }
    ZEND_HASH_FOREACH_END();
    zend_array_release(info);
    Await(waiter.get());
  }));
  ASSERT_EQ(infos.size(), 1u);
  EXPECT_FALSE(infos[0].empty());
}

// Upstream only asserts that the scheduler coroutine is never enqueued;
// the reference refuses it with the class of the scheduler's refusals.
TEST_F(SchedulerInternalTest, EnqueueingTheSchedulerCoroutineIsRefused) {
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    EXPECT_FALSE(ZEND_ASYNC_ENQUEUE_COROUTINE(ZEND_ASYNC_SCHEDULER));
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: The scheduler coroutine cannot be "
              "enqueued");
  }));
}

// A coroutine made without a scope and queued for the first time: upstream's
// class and text, but upstream has already put the coroutine in its run
// queue when it refuses (php-async scheduler.c), so a later turn runs a
// coroutine without a scope; the reference queues nothing.
TEST_F(SchedulerInternalTest, EnqueueingACoroutineWithoutAScopeIsRefused) {
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    zend_coroutine_t* coroutine = ZEND_ASYNC_NEW_COROUTINE(nullptr);
    ASSERT_NE(coroutine, nullptr);
    EXPECT_FALSE(ZEND_ASYNC_ENQUEUE_COROUTINE(coroutine));
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: The coroutine has no scope assigned");
    ZEND_ASYNC_EVENT_RELEASE(&coroutine->event);
  }));
}

// The reference reports a graceful shutdown with a core warning (upstream's
// is commented out); the conformance suite leaves it out of the error log.
TEST_F(SchedulerInternalTest, GracefulShutdownIsReportedAsACoreWarning) {
  EXPECT_TRUE(RunMain([&] {
    Spawn([](mock_zend::Call&) {});
    EXPECT_TRUE(ZEND_ASYNC_SHUTDOWN());
  }));
  EXPECT_THAT(
      ErrorLog(),
      ElementsAre("E_CORE_WARNING: Graceful shutdown mode was started"));
}

// Upstream only asserts that the scheduler coroutine is never cancelled
// (php-async coroutine.c async_coroutine_cancel: "A Scheduler coroutine
// cannot be canceled"); the reference refuses it and leaves it unmarked.
TEST_F(SchedulerInternalTest, CancellingTheSchedulerCoroutineIsRefused) {
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    EXPECT_FALSE(ZEND_ASYNC_CANCEL(ZEND_ASYNC_SCHEDULER, nullptr, false));
    EXPECT_FALSE(ZEND_COROUTINE_IS_CANCELLED(ZEND_ASYNC_SCHEDULER));
  }));
}

// A cancellation of the running coroutine is thrown at its next suspension
// (upstream only records it: php-async coroutine.c async_coroutine_cancel).
TEST_F(SchedulerInternalTest,
       CancellingTheRunningCoroutineThrowsAtItsNextSuspension) {
  std::string error;
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      ZEND_ASYNC_CANCEL(ZEND_ASYNC_CURRENT_COROUTINE, nullptr, false);
      log.push_back("still running");
      EXPECT_FALSE(Yield());
      error = TakeExceptionText();
    });
  }));
  EXPECT_THAT(log, ElementsAre("still running"));
  EXPECT_EQ(error, "Async\\AsyncCancellation: Coroutine cancelled");
}

// The first cancellation deferred by ZEND_COROUTINE_SET_PROTECTED is thrown
// at the first suspension after the flag is cleared (upstream delivers it
// only from Async\protect(), php-async async.c).
TEST_F(SchedulerInternalTest, ProtectedCoroutineGetsItsFirstCancellationLater) {
  std::string error;
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    zend_async_event_t* event = NewPlainEvent();
    CoroutineRef coroutine(Spawn([&](mock_zend::Call&) {
      ZEND_COROUTINE_SET_PROTECTED(ZEND_ASYNC_CURRENT_COROUTINE);
      WaitFor(event);
      log.push_back("protected part done");
      ZEND_COROUTINE_CLR_PROTECTED(ZEND_ASYNC_CURRENT_COROUTINE);
      EXPECT_FALSE(Yield());
      error = TakeExceptionText();
    }));
    Yield();
    ZEND_ASYNC_CANCEL(
        coroutine.get(),
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION, "first"),
        true);
    ZEND_ASYNC_CANCEL(
        coroutine.get(),
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION, "second"),
        true);
    FirePlainEvent(event);
    Await(coroutine.get());
    ZEND_ASYNC_EVENT_RELEASE(event);
  }));
  EXPECT_THAT(log, ElementsAre("protected part done"));
  EXPECT_EQ(error, "Async\\AsyncCancellation: first");
}

// The end of the scheduler clears ZEND_ASYNC_GRACEFUL_SHUTDOWN (upstream
// leaves it set until the next launch, php-async scheduler.c).
TEST_F(SchedulerInternalTest, TheEndOfTheSchedulerClearsTheGracefulShutdown) {
  EXPECT_TRUE(RunMain([&] {
    Spawn([](mock_zend::Call&) {});
    EXPECT_TRUE(ZEND_ASYNC_SHUTDOWN());
    EXPECT_TRUE(ZEND_ASYNC_GRACEFUL_SHUTDOWN);
  }));
  EXPECT_FALSE(ZEND_ASYNC_GRACEFUL_SHUTDOWN);
}

// A safely cancelled scope is completed only when its zombies are gone
// (upstream: a cancelled scope always counts as completed, php-async
// scope.c scope_can_be_disposed) and becomes CLOSED when its last member
// leaves (upstream leaves the flag to a later close or to the scope's
// disposal), also when the main flow awaits it after the cancellation.
TEST_F(SchedulerInternalTest, ACancelledScopeClosesWhenItsLastMemberLeaves) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    const auto closed = [](zend_async_scope_t* scope) {
      return std::string(ZEND_ASYNC_SCOPE_IS_CLOSED(scope) ? "closed" : "open");
    };
    zend_async_scope_t* scopes[2];
    for (zend_async_scope_t*& scope : scopes) {
      scope = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_MAIN_SCOPE);
      ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(scope);
      Spawn(
          [](mock_zend::Call&) {
            Yield();
            Yield();
          },
          scope);
    }
    Yield();
    for (zend_async_scope_t* scope : scopes) {
      ZEND_ASYNC_SCOPE_CANCEL(scope, nullptr, false, /*is_safely=*/true);
      log.push_back("cancelled: " + closed(scope) +
                    (ZEND_ASYNC_SCOPE_IS_COMPLETELY_DONE(scope)
                         ? ", completed"
                         : ", not completed"));
    }
    while (!ZEND_ASYNC_SCOPE_IS_CLOSED(scopes[0]) && Yield()) {
    }
    log.push_back("left: " + closed(scopes[0]));
    ZEND_ASYNC_SCOPE_AWAIT_AFTER_CANCELLATION(
        scopes[1], ZEND_ASYNC_CURRENT_COROUTINE, nullptr, nullptr, nullptr);
    log.push_back("awaited: " + closed(scopes[1]));
    for (zend_async_scope_t* scope : scopes) {
      ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(scope);
      ZEND_ASYNC_SCOPE_RELEASE(scope);
    }
  }));
  EXPECT_THAT(log, ElementsAre("cancelled: open, not completed",
                               "cancelled: open, not completed", "left: closed",
                               "awaited: closed"));
}

// The main scope has a context from the launch, and a coroutine's context
// (ZEND_ASYNC_GET_COROUTINE_CONTEXT) finds, with its parents, the values of
// the contexts of its enclosing scopes. Upstream makes a scope's context on
// demand (Async\current_context(), php-async async.c), and a context made
// through the ABI has no scope, so its search stops at itself (php-async
// context.c async_context_find).
TEST_F(SchedulerInternalTest, CoroutineContextFindsValuesOfEnclosingScopes) {
  std::string found;
  bool found_without_parents = true;
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    zval key, value;
    ZVAL_STRING(&key, "request-id");
    ZVAL_STRING(&value, "r-42");
    ZEND_ASYNC_MAIN_SCOPE->context->set(ZEND_ASYNC_MAIN_SCOPE->context, &key,
                                        &value);
    zval_ptr_dtor(&value);
    zend_async_scope_t* scope = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_MAIN_SCOPE);
    ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(scope);
    CoroutineRef coroutine(Spawn(
        [&](mock_zend::Call&) {
          zend_async_context_t* context = ZEND_ASYNC_GET_COROUTINE_CONTEXT();
          zval result;
          found_without_parents = context->find(context, &key, nullptr, false);
          if (context->find(context, &key, &result, true)) {
            found = mock_zend::Describe(&result);
            zval_ptr_dtor(&result);
          }
        },
        scope));
    Await(coroutine.get());
    coroutine.Reset();
    zval_ptr_dtor(&key);
    ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(scope);
    ZEND_ASYNC_SCOPE_RELEASE(scope);
  }));
  EXPECT_FALSE(found_without_parents);
  EXPECT_EQ(found, "string(\"r-42\")");
}

// A coroutine that waits for a 0 ms timer is resumed after the coroutines
// already queued (the reference polls its reactor every 64th tick,
// docs/scheduler.md). Upstream polls its reactor first on a tick when 100 ms
// have passed and then returns to the resumed coroutine at once (php-async
// scheduler.c scheduler_next_tick), so there it may run on first.
TEST_F(SchedulerInternalTest, ZeroDelayLetsOtherQueuedCoroutinesRunFirst) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    Spawn([&](mock_zend::Call&) {
      log.push_back("A before");
      Delay(0);
      log.push_back("A after");
    });
    Spawn([&](mock_zend::Call&) { log.push_back("B"); });
  }));
  EXPECT_THAT(log, ElementsAre("A before", "B", "A after"));
}

// A coroutine that waits on `never` (an event nothing fires) and then logs
// "waiter: " and the exception that ended its wait.
void SpawnWaiter(std::vector<std::string>* log, zend_async_event_t* never) {
  Spawn([log, never](mock_zend::Call&) {
    WaitFor(never);
    log->push_back("waiter: " + TakeExceptionText());
  });
}

constexpr const char* kWaiterShutDown =
    "waiter: Async\\AsyncCancellation: Graceful shutdown";

// After a fatal error the other coroutines are cancelled with "Graceful
// shutdown" and run to their end (upstream unwinds them with a bailout,
// php-async scheduler.c bailout_all_coroutines), and once everything has
// unwound the main flow bails out again, also when it had ended (upstream's
// returns normally then).
TEST_F(SchedulerInternalTest, AFatalErrorInACoroutineCancelsTheOthers) {
  ExpectFatalErrors({"Fatal in coroutine"});
  std::vector<std::string> log;
  zend_async_event_t* never = NewPlainEvent();
  EXPECT_FALSE(RunMain([&] {
    SpawnWaiter(&log, never);
    Spawn([&](mock_zend::Call&) {
      log.push_back("fatal");
      zend_error(E_ERROR, "Fatal in coroutine");
    });
    log.push_back("main end");
  }));
  ZEND_ASYNC_EVENT_RELEASE(never);
  EXPECT_THAT(log, ElementsAre("main end", "fatal", kWaiterShutDown));
}

TEST_F(SchedulerInternalTest, AFatalErrorInMainCancelsTheCoroutines) {
  ExpectFatalErrors({"Fatal in main"});
  std::vector<std::string> log;
  zend_async_event_t* never = NewPlainEvent();
  EXPECT_FALSE(RunMain([&] {
    SpawnWaiter(&log, never);
    Yield();
    zend_error(E_ERROR, "Fatal in main");
  }));
  ZEND_ASYNC_EVENT_RELEASE(never);
  EXPECT_THAT(log, ElementsAre(kWaiterShutDown));
}

}  // namespace
}  // namespace zar::scheduler_testing
