// Scopes and contexts, as far as spawning, cancelling and disposing use
// them.

#include <string>
#include <vector>

#include "mock_zend/inspect.h"
#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ::testing::ElementsAre;

using ScopeTest = SchedulerTest;

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
    zend_async_event_t* never = NewPlainEvent();
    zend_async_scope_t* scope = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_MAIN_SCOPE);
    zend_async_scope_t* child = ZEND_ASYNC_NEW_SCOPE(scope);
    ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(scope);
    ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(child);
    Spawn(
        [&](mock_zend::Call&) {
          WaitFor(never);
          log.push_back("outer: " + TakeExceptionText());
        },
        scope);
    Spawn(
        [&](mock_zend::Call&) {
          WaitFor(never);
          log.push_back("inner: " + TakeExceptionText());
        },
        child);
    Yield();
    ZEND_ASYNC_SCOPE_CANCEL(
        scope,
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION,
                                 "scope cancelled"),
        true, false);
    EXPECT_TRUE(ZEND_ASYNC_SCOPE_IS_CANCELLED(scope));
    EXPECT_TRUE(ZEND_ASYNC_SCOPE_IS_CANCELLED(child));
    Yield();
    EXPECT_TRUE(ZEND_ASYNC_SCOPE_IS_COMPLETED(scope));
    ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(child);
    ZEND_ASYNC_SCOPE_RELEASE(child);
    ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(scope);
    ZEND_ASYNC_SCOPE_RELEASE(scope);
    ZEND_ASYNC_EVENT_RELEASE(never);
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
    ZEND_ASYNC_SCOPE_RELEASE(scope);
  }));
  EXPECT_EQ(class_name, "Async\\Scope");
}

using ContextTest = SchedulerTest;

TEST_F(ContextTest, CoroutineContextFindsValuesOfEnclosingScopes) {
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
              "TypeError: Context key must be a string or an object");
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
