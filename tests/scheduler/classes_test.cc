// The classes the scheduler reports through get_class_ce.

#include <string>

#include "mock_zend/inspect.h"
#include "tests/scheduler/support/scheduler_test.h"

namespace zar::scheduler_testing {
namespace {

using ClassesTest = SchedulerTest;

struct Expected {
  zend_async_class type;
  const char* name;
};

TEST_F(ClassesTest, EveryAbiClassHasItsAsyncClass) {
  const Expected expected[] = {
      {ZEND_ASYNC_CLASS_AWAITABLE, "Async\\Awaitable"},
      {ZEND_ASYNC_CLASS_COROUTINE, "Async\\Coroutine"},
      {ZEND_ASYNC_CLASS_SCOPE, "Async\\Scope"},
      {ZEND_ASYNC_CLASS_CONTEXT, "Async\\Context"},
      {ZEND_ASYNC_CLASS_SCOPE_PROVIDER, "Async\\ScopeProvider"},
      {ZEND_ASYNC_CLASS_SPAWN_STRATEGY, "Async\\SpawnStrategy"},
      {ZEND_ASYNC_CLASS_TIMEOUT, "Async\\Timeout"},
      {ZEND_ASYNC_CLASS_COMPLETABLE, "Async\\Completable"},
      {ZEND_ASYNC_CLASS_CHANNEL, "Async\\Channel"},
      {ZEND_ASYNC_CLASS_FUTURE, "Async\\Future"},
      {ZEND_ASYNC_CLASS_GROUP, "Async\\TaskGroup"},
      {ZEND_ASYNC_EXCEPTION_DEFAULT, "Async\\AsyncException"},
      {ZEND_ASYNC_EXCEPTION_CANCELLATION, "Async\\AsyncCancellation"},
      {ZEND_ASYNC_EXCEPTION_TIMEOUT, "Async\\TimeoutException"},
      {ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT, "Async\\InputOutputException"},
      {ZEND_ASYNC_EXCEPTION_POLL, "Async\\PollException"},
      {ZEND_ASYNC_EXCEPTION_DNS, "Async\\DnsException"},
      {ZEND_ASYNC_EXCEPTION_DEADLOCK, "Async\\DeadlockError"},
      {ZEND_ASYNC_EXCEPTION_SERVICE_UNAVAILABLE,
       "Async\\ServiceUnavailableException"},
      {ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED,
       "Async\\OperationCanceledException"},
      {ZEND_ASYNC_EXCEPTION_THREAD_TRANSFER, "Async\\ThreadTransferException"},
      {ZEND_ASYNC_EXCEPTION_REMOTE, "Async\\RemoteException"},
  };
  for (const Expected& e : expected) {
    zend_class_entry* ce = ZEND_ASYNC_GET_CE(e.type);
    ASSERT_NE(ce, nullptr) << e.name;
    EXPECT_STREQ(ZSTR_VAL(ce->name), e.name);
  }
}

TEST_F(ClassesTest, PoolAndUnknownTypesHaveNoClass) {
  EXPECT_EQ(ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_POOL), nullptr);
  EXPECT_EQ(ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_NO), nullptr);
  EXPECT_EQ(ZEND_ASYNC_GET_CE(static_cast<zend_async_class>(9)), nullptr);
}

bool Extends(zend_async_class type, zend_class_entry* base) {
  return instanceof_function(ZEND_ASYNC_GET_CE(type), base);
}

TEST_F(ClassesTest, ExceptionHierarchy) {
  zend_class_entry* async_exception =
      ZEND_ASYNC_GET_CE(ZEND_ASYNC_EXCEPTION_DEFAULT);
  EXPECT_TRUE(Extends(ZEND_ASYNC_EXCEPTION_DEFAULT, zend_ce_exception));
  EXPECT_TRUE(Extends(ZEND_ASYNC_EXCEPTION_CANCELLATION, zend_ce_cancellation));
  EXPECT_FALSE(Extends(ZEND_ASYNC_EXCEPTION_CANCELLATION, zend_ce_exception));
  EXPECT_TRUE(Extends(ZEND_ASYNC_EXCEPTION_TIMEOUT, zend_ce_exception));
  EXPECT_FALSE(Extends(ZEND_ASYNC_EXCEPTION_TIMEOUT, async_exception));
  EXPECT_TRUE(Extends(ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT, zend_ce_exception));
  EXPECT_TRUE(Extends(ZEND_ASYNC_EXCEPTION_POLL, zend_ce_exception));
  EXPECT_TRUE(Extends(ZEND_ASYNC_EXCEPTION_DNS, zend_ce_exception));
  EXPECT_TRUE(Extends(ZEND_ASYNC_EXCEPTION_DEADLOCK, zend_ce_error));
  for (zend_async_class type :
       {ZEND_ASYNC_EXCEPTION_SERVICE_UNAVAILABLE,
        ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED,
        ZEND_ASYNC_EXCEPTION_THREAD_TRANSFER, ZEND_ASYNC_EXCEPTION_REMOTE}) {
    EXPECT_TRUE(Extends(type, async_exception)) << type;
  }
  zend_string* name = zend_string_init("Async\\PoolException", 19, 0);
  zend_class_entry* pool_exception = zend_lookup_class(name);
  zend_string_release(name);
  ASSERT_NE(pool_exception, nullptr);
  EXPECT_TRUE(instanceof_function(pool_exception, async_exception));
}

TEST_F(ClassesTest, CoroutineIsAnAwaitableAndScopeAScopeProvider) {
  EXPECT_TRUE(Extends(ZEND_ASYNC_CLASS_COROUTINE,
                      ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_COMPLETABLE)));
  EXPECT_TRUE(Extends(ZEND_ASYNC_CLASS_COROUTINE,
                      ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_AWAITABLE)));
  EXPECT_TRUE(Extends(ZEND_ASYNC_CLASS_SCOPE,
                      ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_SCOPE_PROVIDER)));
  EXPECT_TRUE(Extends(ZEND_ASYNC_CLASS_SPAWN_STRATEGY,
                      ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_SCOPE_PROVIDER)));
}

}  // namespace
}  // namespace zar::scheduler_testing
