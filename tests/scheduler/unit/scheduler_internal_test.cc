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

}  // namespace
}  // namespace zar::scheduler_testing
