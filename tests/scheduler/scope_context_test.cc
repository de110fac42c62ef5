// Scopes and contexts, as far as spawning, cancelling and disposing use
// them.

#include <initializer_list>
#include <string>
#include <vector>

#include "mock_zend/inspect.h"
#include "mock_zend/zval.h"
#include "tests/scheduler/support/scheduler_test.h"

extern "C" {
#include "ext/spl/spl_exceptions.h"
}

namespace zar::scheduler_testing {
namespace {

using ::testing::ElementsAre;

using ScopeTest = SchedulerTest;

// Spawns into `scope` a coroutine that waits on `never` and logs `name`,
// ": " and the exception that ended its wait.
void SpawnWaiter(std::vector<std::string>* log, const char* name,
                 zend_async_event_t* never, zend_async_scope_t* scope) {
  Spawn(
      [log, name, never](mock_zend::Call&) {
        WaitFor(never);
        log->push_back(std::string(name) + ": " + TakeExceptionText());
      },
      scope);
}

// A pinned scope under the main scope and a pinned child of it, with a
// SpawnWaiter in each (logging `outer` and `inner`) on `never`, an event
// nothing fires.
struct WaitingScopes {
  zend_async_event_t* never;
  zend_async_scope_t* scope;
  zend_async_scope_t* child;

  // Lets go of the child, the scope and the event.
  void Release() const {
    ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(child);
    ZEND_ASYNC_SCOPE_RELEASE(child);
    ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(scope);
    ZEND_ASYNC_SCOPE_RELEASE(scope);
    ZEND_ASYNC_EVENT_RELEASE(never);
  }
};

WaitingScopes NewWaitingScopes(std::vector<std::string>* log, const char* outer,
                               const char* inner) {
  WaitingScopes waiting;
  waiting.never = NewPlainEvent();
  waiting.scope = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_MAIN_SCOPE);
  ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(waiting.scope);
  waiting.child = ZEND_ASYNC_NEW_SCOPE(waiting.scope);
  ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(waiting.child);
  SpawnWaiter(log, outer, waiting.never, waiting.scope);
  SpawnWaiter(log, inner, waiting.never, waiting.child);
  return waiting;
}

TEST_F(ScopeTest, CoroutinesJoinTheScopeTheyAreSpawnedIn) {
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    zend_async_scope_t* scope = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_MAIN_SCOPE);
    ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(scope);
    EXPECT_EQ(scope->parent_scope, ZEND_ASYNC_MAIN_SCOPE);
    zend_async_scope_t* inner = nullptr;
    CoroutineRef coroutine(Spawn(
        [&](mock_zend::Call&) { inner = ZEND_ASYNC_CURRENT_SCOPE; }, scope));
    EXPECT_EQ(coroutine->scope, scope);
    EXPECT_FALSE(ZEND_ASYNC_SCOPE_IS_COMPLETED(scope));
    Await(coroutine.get());
    EXPECT_EQ(inner, scope);
    EXPECT_TRUE(ZEND_ASYNC_SCOPE_IS_COMPLETED(scope));
    EXPECT_EQ(coroutine->scope, nullptr);
    ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(scope);
    ZEND_ASYNC_SCOPE_RELEASE(scope);
  }));
}

TEST_F(ScopeTest, CancellingAScopeCancelsItsCoroutinesAndChildren) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    const WaitingScopes waiting = NewWaitingScopes(&log, "outer", "inner");
    Yield();
    ZEND_ASYNC_SCOPE_CANCEL(
        waiting.scope,
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION,
                                 "scope cancelled"),
        true, false);
    EXPECT_TRUE(ZEND_ASYNC_SCOPE_IS_CANCELLED(waiting.scope));
    EXPECT_TRUE(ZEND_ASYNC_SCOPE_IS_CANCELLED(waiting.child));
    Yield();
    EXPECT_TRUE(ZEND_ASYNC_SCOPE_IS_COMPLETED(waiting.scope));
    waiting.Release();
  }));
  EXPECT_THAT(log,
              ElementsAre("inner: Async\\AsyncCancellation: scope cancelled",
                          "outer: Async\\AsyncCancellation: scope cancelled"));
}

TEST_F(ScopeTest, AnUnpinnedScopeIsDisposedWithItsLastCoroutine) {
  bool disposed_with_coroutine = false;
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    zend_async_scope_t* scope = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_MAIN_SCOPE);
    Spawn([](mock_zend::Call&) {}, scope);
    EXPECT_EQ(ZEND_ASYNC_MAIN_SCOPE->scopes.length, 1u);
    Yield();
    disposed_with_coroutine = ZEND_ASYNC_MAIN_SCOPE->scopes.length == 0;
  }));
  EXPECT_TRUE(disposed_with_coroutine);
}

TEST_F(ScopeTest, AScopeWithAnObjectIsAnAsyncScope) {
  std::string class_name;
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    zend_async_scope_t* scope =
        ZEND_ASYNC_NEW_SCOPE_WITH_OBJECT(ZEND_ASYNC_MAIN_SCOPE);
    ASSERT_NE(scope->scope_object, nullptr);
    class_name = mock_zend::ClassName(scope->scope_object);
    // The object's reference is the creator's; releasing it disposes the
    // scope (php-async scope.c async_new_scope, scope_object_free).
    OBJ_RELEASE(scope->scope_object);
  }));
  EXPECT_EQ(class_name, "Async\\Scope");
}

// ---- Cancellation and awaiting a cancelled scope (upstream scope.c
// scope_catch_or_cancel, async_scope_await_after_cancellation) ------------

// A coroutine that yields `times` times, logging "<name> finished".
void YieldingMember(std::vector<std::string>* log, const char* name, int times,
                    zend_async_scope_t* scope) {
  Spawn(
      [log, name, times](mock_zend::Call&) {
        for (int i = 0; i < times; i++) Yield();
        log->push_back(std::string(name) + " finished");
      },
      scope);
}

// In the main flow: a pinned scope with a YieldingMember of each name
// (yielding `times` times), cancelled safely once they started.
zend_async_scope_t* SafelyCancelledScopeOf(
    std::vector<std::string>* log, std::initializer_list<const char*> names,
    int times) {
  zend_async_scope_t* scope = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_MAIN_SCOPE);
  ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(scope);
  for (const char* name : names) YieldingMember(log, name, times, scope);
  Yield();
  ZEND_ASYNC_SCOPE_CANCEL(scope, nullptr, false, /*is_safely=*/true);
  return scope;
}

// A safely cancelled scope's started members become zombies and run to
// their end. Whether the scope counts as completed meanwhile (upstream: a
// cancelled scope always does, php-async scope.c scope_can_be_disposed) and
// whether it becomes CLOSED when its last member leaves (upstream leaves
// the flag to a later close or to the disposal) are the implementation's
// choices; the reference's unit tests check its own.
TEST_F(ScopeTest, ASafelyCancelledScopesMembersRunToTheirEnd) {
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    zend_async_scope_t* scope = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_MAIN_SCOPE);
    ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(scope);
    Spawn(
        [&](mock_zend::Call&) {
          for (int i = 0; i < 3; i++) {
            if (!Yield()) {
              log.push_back("member: " + TakeExceptionText());
              return;
            }
          }
          log.push_back("member finished");
        },
        scope);
    Yield();  // the member starts
    ZEND_ASYNC_SCOPE_CANCEL(scope, nullptr, false, /*is_safely=*/true);
    log.push_back(std::string("cancelled=") +
                  (ZEND_ASYNC_SCOPE_IS_CANCELLED(scope) ? "yes" : "no"));
    // The member yields twice more: a few turns are enough.
    for (int i = 0; i < 8; i++) Yield();
    log.push_back("main end");
    ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(scope);
    ZEND_ASYNC_SCOPE_RELEASE(scope);
  }));
  EXPECT_THAT(log, ElementsAre("cancelled=yes", "member finished", "main end"));
}

TEST_F(ScopeTest, CancellingAScopeWithNoMembersClosesIt) {
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    zend_async_scope_t* scope = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_MAIN_SCOPE);
    EXPECT_TRUE(ZEND_ASYNC_SCOPE_CANCEL(scope, nullptr, false, false));
    EXPECT_TRUE(ZEND_ASYNC_SCOPE_IS_CLOSED(scope));
    EXPECT_FALSE(ZEND_ASYNC_SCOPE_IS_CANCELLED(scope));
    ZEND_ASYNC_SCOPE_RELEASE(scope);
  }));
}

TEST_F(ScopeTest, AwaitAfterCancellationWaitsForEveryMember) {
  // tests/scope/024-scope_awaitAfterCancellation_basic
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    zend_async_scope_t* scope =
        SafelyCancelledScopeOf(&log, {"coroutine1", "coroutine2"}, 3);
    log.push_back("scope cancelled");
    ZEND_ASYNC_SCOPE_AWAIT_AFTER_CANCELLATION(
        scope, ZEND_ASYNC_CURRENT_COROUTINE, nullptr, nullptr, nullptr);
    log.push_back("awaitAfterCancellation completed " + TakeExceptionText());
    ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(scope);
    ZEND_ASYNC_SCOPE_RELEASE(scope);
  }));
  EXPECT_THAT(log, ElementsAre("scope cancelled", "coroutine1 finished",
                               "coroutine2 finished",
                               "awaitAfterCancellation completed "));
}

TEST_F(ScopeTest, AwaitAfterCancellationReturnsAtOnceForAClosedOrEmptyScope) {
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    zend_async_scope_t* scope = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_MAIN_SCOPE);
    ZEND_ASYNC_SCOPE_AWAIT_AFTER_CANCELLATION(
        scope, ZEND_ASYNC_CURRENT_COROUTINE, nullptr, nullptr, nullptr);
    EXPECT_EQ(EG(exception), nullptr);
    ZEND_ASYNC_SCOPE_CLOSE(scope, false);
    ZEND_ASYNC_SCOPE_AWAIT_AFTER_CANCELLATION(
        scope, ZEND_ASYNC_CURRENT_COROUTINE, nullptr, nullptr, nullptr);
    EXPECT_EQ(EG(exception), nullptr);
    ZEND_ASYNC_SCOPE_RELEASE(scope);
  }));
}

TEST_F(ScopeTest, AwaitAfterCancellationFromInsideTheScopeThrows) {
  // tests/scope/046-scope_awaitAfterCancellation_self_deadlock
  std::string text;
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    zend_async_scope_t* scope = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_MAIN_SCOPE);
    ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(scope);
    zend_async_scope_t* child = ZEND_ASYNC_NEW_SCOPE(scope);
    Spawn(
        [&](mock_zend::Call&) {
          ZEND_ASYNC_SCOPE_AWAIT_AFTER_CANCELLATION(
              scope, ZEND_ASYNC_CURRENT_COROUTINE, nullptr, nullptr, nullptr);
          text = TakeExceptionText();
        },
        child);
    Yield();
    ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(scope);
    ZEND_ASYNC_SCOPE_RELEASE(scope);
  }));
  EXPECT_EQ(text,
            "Async\\AsyncException: Cannot await completion of scope from a "
            "coroutine that belongs to the same scope or its children");
}

// A member that throws once it is cancelled (tests/scope 049, 050, 054).
void ThrowsWhenCancelled(zend_async_event_t* never, zend_async_scope_t* scope,
                         const char* message) {
  Spawn(
      [never, message](mock_zend::Call&) {
        WaitFor(never);
        zend_clear_exception();
        zend_throw_exception(zend_ce_exception, message, 0);
      },
      scope);
}

// In the main flow: a pinned scope whose one member throws
// Exception(`message`) once cancelled is cancelled (with
// AsyncCancellation(`cancellation`), or without an exception when NULL)
// and awaited after the cancellation, with `handler` as the error handler
// when given. The text of the exception the await left ("" for none).
std::string AwaitAfterCancellingAThrower(
    const char* message, const char* cancellation,
    const mock_zend::NativeBody& handler = nullptr) {
  zend_async_event_t* never = NewPlainEvent();
  zend_async_scope_t* scope = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_MAIN_SCOPE);
  ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(scope);
  ThrowsWhenCancelled(never, scope, message);
  Yield();
  if (cancellation != nullptr) {
    ZEND_ASYNC_SCOPE_CANCEL(
        scope,
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION, "%s",
                                 cancellation),
        true, false);
  } else {
    ZEND_ASYNC_SCOPE_CANCEL(scope, nullptr, false, false);
  }
  zval callable;
  ZVAL_UNDEF(&callable);
  zend_fcall_info fci;
  zend_fcall_info_cache fcc;
  if (handler) {
    mock_zend::MakeCallable(&callable, handler);
    EXPECT_EQ(zend_fcall_info_init(&callable, 0, &fci, &fcc, nullptr, nullptr),
              SUCCESS);
  }
  ZEND_ASYNC_SCOPE_AWAIT_AFTER_CANCELLATION(scope, ZEND_ASYNC_CURRENT_COROUTINE,
                                            handler ? &fci : nullptr,
                                            handler ? &fcc : nullptr, nullptr);
  std::string thrown = TakeExceptionText();
  zval_ptr_dtor(&callable);
  ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(scope);
  ZEND_ASYNC_SCOPE_RELEASE(scope);
  ZEND_ASYNC_EVENT_RELEASE(never);
  return thrown;
}

TEST_F(ScopeTest, AMembersErrorEndsAwaitAfterCancellationWithoutAHandler) {
  // tests/scope/050-scope_awaitAfterCancellation_no_handler_propagates
  std::string outcome;
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    outcome = "propagated: " +
              AwaitAfterCancellingAThrower("propagated error", "bye");
  }));
  // Handled by the waiter: no graceful shutdown, no uncaught error.
  EXPECT_EQ(outcome, "propagated: Exception: propagated error");
  EXPECT_THAT(ReportedErrors(), ElementsAre());
}

TEST_F(ScopeTest, AwaitAfterCancellationGivesAMembersErrorToItsHandler) {
  // tests/scope/049-scope_awaitAfterCancellation_error_handler_fires
  std::vector<std::string> log;
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    const std::string thrown = AwaitAfterCancellingAThrower(
        "after-cancel error", nullptr, [&](mock_zend::Call& call) {
          // The scope has no Async\Scope object: an object zval without an
          // object would be invalid (reported, not rendered).
          const zval* scope = call.arg(1);
          log.push_back(
              std::string("error handler: ") +
              zend_mock_exception_message(Z_OBJ_P(call.arg(0))) + " scope=" +
              (Z_TYPE_P(scope) == IS_OBJECT && Z_OBJ_P(scope) == nullptr
                   ? "object zval without an object"
                   : mock_zend::Render(scope)));
        });
    log.push_back("external done " + thrown);
  }));
  EXPECT_THAT(log, ElementsAre("error handler: after-cancel error scope=null",
                               "external done "));
  EXPECT_THAT(ReportedErrors(), ElementsAre());
}

TEST_F(ScopeTest, AnErrorThrownByTheHandlerEndsAwaitAfterCancellation) {
  // tests/scope/054-scope_awaitAfterCancellation_error_handler_throws
  std::string outcome;
  EXPECT_TRUE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    outcome =
        "caught: " +
        AwaitAfterCancellingAThrower(
            "initial", nullptr, [](mock_zend::Call& call) {
              const std::string text =
                  std::string("handler replacement: ") +
                  zend_mock_exception_message(Z_OBJ_P(call.arg(0)));
              zend_throw_exception(spl_ce_LogicException, text.c_str(), 0);
            });
  }));
  EXPECT_EQ(outcome, "caught: LogicException: handler replacement: initial");
}

// The scopes here descend from the main scope and so are disposed safely
// (php-async scope.c async_new_scope: the flag is inherited): the error
// marks them cancelled but leaves the other members running as zombies
// (coroutine.c async_coroutine_cancel with is_safely), and the graceful
// shutdown the uncaught error starts cancels every coroutine, in the order
// they were made.
TEST_F(ScopeTest, AMembersErrorInASafeScopeLeavesItsSiblingsToTheShutdown) {
  ExpectUncaught("Exception: failure");
  std::vector<std::string> log;
  EXPECT_FALSE(RunMain([&] {
    ASSERT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
    const WaitingScopes waiting =
        NewWaitingScopes(&log, "sibling", "in child scope");
    Spawn(
        [](mock_zend::Call&) {
          zend_throw_exception(zend_ce_exception, "failure", 0);
        },
        waiting.scope);
    Yield();
    // The error also starts the graceful shutdown, which the main flow
    // receives when it resumes.
    log.push_back("main: " + TakeExceptionText());
    log.push_back(
        std::string("cancelled=") +
        (ZEND_ASYNC_SCOPE_IS_CANCELLED(waiting.scope) ? "yes" : "no") + "/" +
        (ZEND_ASYNC_SCOPE_IS_CANCELLED(waiting.child) ? "yes" : "no"));
    // The cancelled members run after the main flow ends.
    waiting.Release();
  }));
  EXPECT_THAT(log, ElementsAre("main: Async\\AsyncCancellation: Graceful "
                               "shutdown",
                               "cancelled=yes/yes",
                               "sibling: Async\\AsyncCancellation: Graceful "
                               "shutdown",
                               "in child scope: Async\\AsyncCancellation: "
                               "Graceful shutdown"));
  EXPECT_THAT(ReportedErrors(),
              ElementsAre("E_ERROR: Uncaught Exception: failure"));
}

using ContextTest = SchedulerTest;

TEST_F(ContextTest, SetUnsetAndObjectKeys) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_context_t* context = ZEND_ASYNC_NEW_CONTEXT(nullptr);
    zval key, value, result;
    object_init(&key);
    ZVAL_LONG(&value, 5);
    context->set(context, &key, &value);
    EXPECT_TRUE(context->find(context, &key, &result, false));
    EXPECT_EQ(Z_LVAL(result), 5);
    EXPECT_TRUE(context->unset(context, &key));
    EXPECT_FALSE(context->find(context, &key, nullptr, true));
    EXPECT_FALSE(context->unset(context, &key));
    zval_ptr_dtor(&key);
    ZVAL_LONG(&key, 1);
    EXPECT_FALSE(context->find(context, &key, nullptr, false));
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: Context key must be a string or an "
              "object");
    context->dispose(context);
  }));
}

TEST_F(ContextTest, InternalContextIsDisposedWithTheCoroutine) {
  static const char kKeyName[] = "zar.test.key";
  EXPECT_TRUE(RunMain([&] {
    const uint32_t key = ZEND_ASYNC_INTERNAL_CONTEXT_KEY_ALLOC(kKeyName);
    Spawn([key](mock_zend::Call&) {
      zval value;
      ZVAL_STRING(&value, "owned by the coroutine");
      ZEND_ASYNC_INTERNAL_CONTEXT_SET(ZEND_ASYNC_CURRENT_COROUTINE, key,
                                      &value);
      zval_ptr_dtor(&value);
    });
  }));
  // The fixture's leak check is the assertion.
}

}  // namespace
}  // namespace zar::scheduler_testing
