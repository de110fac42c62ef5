// The classes the scheduler reports through get_class_ce.

#include <string>
#include <utility>

#include "mock_zend/inspect.h"
#include "mock_zend/methods.h"
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
  // Every class the implementation does not answer is reported, not only
  // the first.
  for (const Expected& e : expected) {
    zend_class_entry* ce = ZEND_ASYNC_GET_CE(e.type);
    EXPECT_NE(ce, nullptr) << e.name << " (class id " << e.type << ")";
    if (ce != nullptr) {
      EXPECT_STREQ(ZSTR_VAL(ce->name), e.name);
    }
  }
}

// ZEND_ASYNC_CLASS_POOL may name a class or none (upstream registers
// Async\Pool but answers NULL); the reference's answer is a unit test.
TEST_F(ClassesTest, UnknownTypesHaveNoClass) {
  EXPECT_EQ(ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_NO), nullptr);
  EXPECT_EQ(ZEND_ASYNC_GET_CE(static_cast<zend_async_class>(9)), nullptr);
}

using mock_zend::LookupClass;

// Each exception class and its direct parent, as upstream's stubs declare
// them (php-async exceptions.stub.php, pool.stub.php, channel.stub.php,
// thread.stub.php, thread_pool.stub.php, thread_channel.stub.php).
TEST_F(ClassesTest, ExceptionHierarchy) {
  struct Declared {
    const char* name;
    const char* parent;
  };
  const Declared declared[] = {
      {"Async\\AsyncCancellation", "Cancellation"},
      {"Async\\OperationCanceledException", "Async\\AsyncCancellation"},
      {"Async\\AsyncException", "Exception"},
      {"Async\\InputOutputException", "Exception"},
      {"Async\\DnsException", "Exception"},
      {"Async\\TimeoutException", "Exception"},
      {"Async\\PollException", "Exception"},
      {"Async\\DeadlockError", "Error"},
      {"Async\\ServiceUnavailableException", "Async\\AsyncException"},
      {"Async\\CompositeException", "Exception"},
      {"Async\\PoolException", "Async\\AsyncException"},
      {"Async\\ChannelException", "Async\\AsyncException"},
      {"Async\\RemoteException", "Async\\AsyncException"},
      {"Async\\ThreadTransferException", "Async\\AsyncException"},
      {"Async\\ThreadPoolException", "Exception"},
      {"Async\\ThreadChannelException", "Async\\AsyncException"},
  };
  for (const Declared& d : declared) {
    zend_class_entry* ce = LookupClass(d.name);
    ASSERT_NE(ce, nullptr) << d.name;
    ASSERT_NE(ce->parent, nullptr) << d.name;
    EXPECT_STREQ(ZSTR_VAL(ce->parent->name), d.parent) << d.name;
  }
  // The ABI's kinds are those classes.
  zend_class_entry* cancelled =
      ZEND_ASYNC_GET_CE(ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED);
  ASSERT_NE(cancelled, nullptr);
  EXPECT_EQ(cancelled->parent,
            ZEND_ASYNC_GET_CE(ZEND_ASYNC_EXCEPTION_CANCELLATION));
  zend_class_entry* unavailable =
      ZEND_ASYNC_GET_CE(ZEND_ASYNC_EXCEPTION_SERVICE_UNAVAILABLE);
  ASSERT_NE(unavailable, nullptr);
  EXPECT_EQ(unavailable->parent,
            ZEND_ASYNC_GET_CE(ZEND_ASYNC_EXCEPTION_DEFAULT));
  // final class CompositeException, @strict-properties.
  zend_class_entry* composite = LookupClass("Async\\CompositeException");
  ASSERT_NE(composite, nullptr);
  EXPECT_NE(composite->ce_flags & ZEND_ACC_FINAL, 0u);
  EXPECT_NE(composite->ce_flags & ZEND_ACC_NO_DYNAMIC_PROPERTIES, 0u);
}

TEST_F(ClassesTest, CoroutineIsAnAwaitableAndScopeAScopeProvider) {
  const std::pair<zend_async_class, zend_async_class> extends[] = {
      {ZEND_ASYNC_CLASS_COROUTINE, ZEND_ASYNC_CLASS_COMPLETABLE},
      {ZEND_ASYNC_CLASS_COROUTINE, ZEND_ASYNC_CLASS_AWAITABLE},
      {ZEND_ASYNC_CLASS_SCOPE, ZEND_ASYNC_CLASS_SCOPE_PROVIDER},
      {ZEND_ASYNC_CLASS_SPAWN_STRATEGY, ZEND_ASYNC_CLASS_SCOPE_PROVIDER},
  };
  for (const auto& [type, base] : extends) {
    zend_class_entry* ce = ZEND_ASYNC_GET_CE(type);
    zend_class_entry* base_ce = ZEND_ASYNC_GET_CE(base);
    ASSERT_NE(ce, nullptr) << "class id " << type;
    ASSERT_NE(base_ce, nullptr) << "class id " << base;
    EXPECT_TRUE(instanceof_function(ce, base_ce))
        << ZSTR_VAL(ce->name) << " extends " << ZSTR_VAL(base_ce->name);
  }
}

}  // namespace
}  // namespace zar::scheduler_testing
