// Strict mode and the pool: releasing a resource twice, into a pool it did
// not come from, or one never lent is refused (nothing changes: counters,
// idle list, waiters, the caller's zval) and reported; an acquire that
// would have to wait outside a coroutine names the call and why the
// scheduler cannot run it.

#include <string>
#include <vector>

#include "mock_zend/inspect.h"
#include "pdo_sim/client.h"
#include "tests/strict/support/strict_test.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"

extern "C" {
#include "zend_async_ref/strict.h"
}

namespace zar::strict_testing {
namespace {

class PoolStrictTest : public StrictTest {};

TEST_F(PoolStrictTest, ReleasingTwiceIsRefusedAndReported) {
  RunMain([&] {
    zend_async_pool_t* pool = IntPool(2);
    zval resource;
    ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
    ZEND_ASYNC_POOL_RELEASE(pool, &resource);
    EXPECT_EQ(Diagnostics(), Strings{});

    ZEND_ASYNC_POOL_RELEASE(pool, &resource);
    EXPECT_EQ(Diagnostics(),
              Strings{"ZEND_ASYNC_POOL_RELEASE: Pool#1 Pool(idle=1, active=0, "
                      "reserved=0, max=2): resource int(1) is released twice"});
    // Refused: still one idle copy, which the next acquire takes.
    EXPECT_EQ(Info(&pool->event), "Pool(idle=1, active=0, reserved=0, max=2)");
    zval again;
    ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(pool, &again, 0));
    EXPECT_EQ(Z_LVAL(again), 1);
    EXPECT_EQ(Info(&pool->event), "Pool(idle=0, active=1, reserved=0, max=2)");
    ZEND_ASYNC_POOL_RELEASE(pool, &again);
    EXPECT_EQ(Diagnostics().size(), 1u);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  });
}

// An object resource: the refused release takes no reference and drops
// none.
bool MakeObject(zend_async_pool_t* /*pool*/, zval* result) {
  object_init(result);
  return true;
}

TEST_F(PoolStrictTest, RefusedReleaseLeavesTheResourcesReferencesAlone) {
  RunMain([&] {
    zend_async_pool_t* pool = ZEND_ASYNC_NEW_POOL(MakeObject, nullptr, nullptr,
                                                  nullptr, nullptr, 0, 1, 0);
    zval resource;
    ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
    zend_object* object = Z_OBJ(resource);
    ZEND_ASYNC_POOL_RELEASE(pool, &resource);  // the pool: +1
    EXPECT_EQ(GC_REFCOUNT(object), 2u);
    ZEND_ASYNC_POOL_RELEASE(pool, &resource);  // refused
    EXPECT_EQ(GC_REFCOUNT(object), 2u);
    EXPECT_EQ(Diagnostics(),
              Strings{"ZEND_ASYNC_POOL_RELEASE: Pool#1 Pool(idle=1, active=0, "
                      "reserved=0, max=1): resource object(stdClass)#" +
                      std::to_string(object->handle) + " is released twice"});
    zval_ptr_dtor(&resource);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  });
}

TEST_F(PoolStrictTest, ReleasingIntoAnotherPoolIsRefused) {
  RunMain([&] {
    zend_async_pool_t* lender = IntPool(2);
    zend_async_pool_t* other = IntPool(2);
    zval resource;
    ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(lender, &resource, 0));

    ZEND_ASYNC_POOL_RELEASE(other, &resource);
    EXPECT_EQ(Diagnostics(),
              Strings{"ZEND_ASYNC_POOL_RELEASE: Pool#2 Pool(idle=0, active=0, "
                      "reserved=0, max=2): resource int(1) was lent by Pool#1 "
                      "Pool(idle=0, active=1, reserved=0, max=2), not by this "
                      "pool"});
    EXPECT_EQ(Info(&other->event), "Pool(idle=0, active=0, reserved=0, max=2)");

    // Its own pool still takes it back.
    ZEND_ASYNC_POOL_RELEASE(lender, &resource);
    EXPECT_EQ(Info(&lender->event),
              "Pool(idle=1, active=0, reserved=0, max=2)");
    EXPECT_EQ(Diagnostics().size(), 1u);
    ZEND_ASYNC_EVENT_RELEASE(&other->event);
    ZEND_ASYNC_EVENT_RELEASE(&lender->event);
  });
}

TEST_F(PoolStrictTest, ReleasingWhatWasNeverLentIsRefused) {
  RunMain([&] {
    zend_async_pool_t* pool = IntPool(2);
    zval stranger;
    ZVAL_LONG(&stranger, 42);
    ZEND_ASYNC_POOL_RELEASE(pool, &stranger);
    EXPECT_EQ(Diagnostics(),
              Strings{"ZEND_ASYNC_POOL_RELEASE: Pool#1 Pool(idle=0, active=0, "
                      "reserved=0, max=2): resource int(42) was never lent by "
                      "this pool"});
    ExpectInfoAndRelease(pool, "Pool(idle=0, active=0, reserved=0, max=2)");
  });
}

// A refused release wakes nobody: the waiter keeps its place in the queue
// and is served by the real release.
TEST_F(PoolStrictTest, RefusedReleaseDoesNotWakeAWaiter) {
  RunMain([&] {
    zend_async_pool_t* pool = IntPool(1);
    std::vector<std::string> log;
    zval held;
    zar::testing::CoroutineRef holder(zar::testing::Spawn([&] {
      ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(pool, &held, 0));
      zar::testing::Yield();  // the waiter parks
      zval stranger;
      ZVAL_LONG(&stranger, 7);
      ZEND_ASYNC_POOL_RELEASE(pool, &stranger);
      log.push_back("after refused: " + Info(&pool->event));
      zar::testing::Yield();
      ZEND_ASYNC_POOL_RELEASE(pool, &held);
      log.push_back("after release: " + Info(&pool->event));
    }));
    zar::testing::CoroutineRef waiter(zar::testing::Spawn([&] {
      zval resource;
      ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
      log.push_back("waiter got int(" + std::to_string(Z_LVAL(resource)) + ")");
      ZEND_ASYNC_POOL_RELEASE(pool, &resource);
    }));
    zar::testing::Await(waiter.get());
    EXPECT_EQ(log, (Strings{
                       "after refused: Pool(idle=0, active=1, reserved=0, "
                       "max=1)",
                       "after release: Pool(idle=1, active=0, reserved=1, "
                       "max=1)",
                       "waiter got int(1)",
                   }));
    EXPECT_EQ(Diagnostics(),
              Strings{"ZEND_ASYNC_POOL_RELEASE: Pool#1 Pool(idle=0, active=1, "
                      "reserved=0, max=1): resource int(7) was never lent by "
                      "this pool"});
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  });
}

// Async\Pool::release names the method.
TEST_F(PoolStrictTest, AsyncPoolReleaseNamesTheMethod) {
  RunMain([&] {
    zval object;
    ZVAL_OBJ(&object, PhpIntPool(1));
    pdo_sim::Zval resource = pdo_sim::CallMethod(&object, "acquire");
    ASSERT_EQ(resource.type(), IS_LONG);
    pdo_sim::CallMethod(&object, "release", {resource.get()});
    pdo_sim::CallMethod(&object, "release", {resource.get()});
    EXPECT_EQ(Diagnostics(),
              Strings{"Async\\Pool::release: Pool#1 Pool(idle=1, active=0, "
                      "reserved=0, max=1): resource int(1) is released twice"});
    zval_ptr_dtor(&object);
  });
}

// Behaviour without strict mode is upstream's: neither release is checked.
TEST_F(PoolStrictTest, PoolsMadeWithoutStrictModeAreNotChecked) {
  RunMain([&] {
    zend_async_ref_strict_enable(false);
    zend_async_pool_t* pool = IntPool(2);
    zend_async_ref_strict_enable(true);  // too late for this pool
    zval resource;
    ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
    ZEND_ASYNC_POOL_RELEASE(pool, &resource);
    ZEND_ASYNC_POOL_RELEASE(pool, &resource);
    EXPECT_EQ(Diagnostics(), Strings{});
    ExpectInfoAndRelease(pool, "Pool(idle=2, active=0, reserved=0, max=2)");
  });
}

// ---- Acquiring outside a coroutine
// ----------------------------------------------

TEST_F(PoolStrictTest, WaitingWhileAsyncIsOffIsRefused) {
  RunMain([&] {
    zend_async_pool_t* pool = IntPool(1);
    zval held;
    ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(pool, &held, 0));
    ZEND_ASYNC_DEACTIVATE;
    zval resource;
    EXPECT_FALSE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
    EXPECT_EQ(TakeException(),
              "Async\\AsyncException \"Cannot wait for a pool resource "
              "outside a coroutine\"");
    EXPECT_EQ(ZEND_ASYNC_SCHEDULER, nullptr);  // nothing was launched
    ZEND_ASYNC_INITIALIZE;
    EXPECT_EQ(Diagnostics(),
              Strings{"ZEND_ASYNC_POOL_ACQUIRE: Pool#1 Pool(idle=0, active=1, "
                      "reserved=0, max=1): cannot wait outside a coroutine: "
                      "async is off"});
    ZEND_ASYNC_POOL_RELEASE(pool, &held);
    ExpectInfoAndRelease(pool, "Pool(idle=1, active=0, reserved=0, max=1)");
  });
}

// A NULL pool is refused by every entry point and reported; the acquire
// fails as an acquire does, with an exception.
TEST_F(PoolStrictTest, ANullPoolIsRefusedAndReported) {
  RunMain([&] {
    zval resource;
    ZVAL_LONG(&resource, 7);
    EXPECT_FALSE(ZEND_ASYNC_POOL_ACQUIRE(nullptr, &resource, 0));
    EXPECT_EQ(TakeException(),
              "Async\\PoolException \"Pool is not initialized\"");
    EXPECT_FALSE(ZEND_ASYNC_POOL_TRY_ACQUIRE(nullptr, &resource));
    ZEND_ASYNC_POOL_RELEASE(nullptr, &resource);
    ZEND_ASYNC_POOL_CLOSE(nullptr);
    EXPECT_EQ(TakeException(), "");
    EXPECT_EQ(Diagnostics(),
              (Strings{"ZEND_ASYNC_POOL_ACQUIRE: the pool is NULL",
                       "ZEND_ASYNC_POOL_TRY_ACQUIRE: the pool is NULL",
                       "ZEND_ASYNC_POOL_RELEASE: the pool is NULL",
                       "ZEND_ASYNC_POOL_CLOSE: the pool is NULL"}));
    EXPECT_EQ(Z_LVAL(resource), 7);
  });
}

// A release into a pool whose owner already let go of it (the pool was
// disposed while the resource was lent): refused and reported, the pool's
// freed part never read.
TEST_F(PoolStrictTest, ReleasingIntoADisposedPoolIsRefusedAndReported) {
  RunMain([&] {
    zend_async_pool_t* pool = IntPool(2);
    zval resource;
    ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);  // disposed: quarantined
    EXPECT_EQ(zend_async_ref_strict_quarantined(), 1u);
    ZEND_ASYNC_POOL_RELEASE(pool, &resource);
    EXPECT_EQ(TakeException(), "");
    EXPECT_EQ(Diagnostics(),
              Strings{"ZEND_ASYNC_POOL_RELEASE: Pool#1 Pool(idle=0, active=1, "
                      "reserved=0, max=2): used after it was disposed"});
    EXPECT_EQ(Z_LVAL(resource), 1);
  });
}

// An acquire, tryAcquire or close on a disposed pool: each refused and
// reported once as a use after dispose (not as "disposed twice"); the
// acquire fails with "Pool is closed".
TEST_F(PoolStrictTest, UsingADisposedPoolIsRefusedAndReported) {
  RunMain([&] {
    zend_async_pool_t* pool = IntPool(2);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);  // disposed: quarantined
    zval resource;
    EXPECT_FALSE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
    EXPECT_EQ(TakeException(), "Async\\PoolException \"Pool is closed\"");
    EXPECT_FALSE(ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, &resource));
    ZEND_ASYNC_POOL_CLOSE(pool);
    EXPECT_EQ(TakeException(), "");
    const std::string name = "Pool#1 Pool(idle=0, active=0, reserved=0, max=2)";
    EXPECT_EQ(Diagnostics(), (Strings{"ZEND_ASYNC_POOL_ACQUIRE: " + name +
                                          ": used after it was disposed",
                                      "ZEND_ASYNC_POOL_TRY_ACQUIRE: " + name +
                                          ": used after it was disposed",
                                      "ZEND_ASYNC_POOL_CLOSE: " + name +
                                          ": used after it was disposed"}));
  });
}

// A C factory that returns true and leaves its result unset made nothing:
// the acquire fails as any failed creation does, and strict mode names the
// factory's mistake.
bool FactoryLeavingItsResultUnset(zend_async_pool_t* /*pool*/,
                                  zval* /*result*/) {
  return true;
}

TEST_F(PoolStrictTest, FactoryLeavingItsResultUndefinedIsReported) {
  RunMain([&] {
    zend_async_pool_t* pool =
        ZEND_ASYNC_NEW_POOL(FactoryLeavingItsResultUnset, nullptr, nullptr,
                            nullptr, nullptr, 0, 2, 0);
    zval resource;
    ZVAL_UNDEF(&resource);
    EXPECT_FALSE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
    EXPECT_EQ(TakeException(),
              "Async\\PoolException \"Failed to create pool resource\"");
    EXPECT_TRUE(Z_ISUNDEF(resource));
    EXPECT_EQ(Diagnostics(),
              Strings{"zend_async_pool_factory_fn: Pool#1 Pool(idle=0, "
                      "active=1, reserved=0, max=2): returned true but left "
                      "the resource undefined; taken as a failed creation"});
    ExpectInfoAndRelease(pool, "Pool(idle=0, active=0, reserved=0, max=2)");
  });
}

// The owner lets go of its pool while an acquire's factory is suspended:
// the acquire fails with "Pool is closed" and destroys what the factory
// made (as without strict mode); strict mode names the owner's mistake.
int slow_made = 0;
int slow_destroyed = 0;
bool SlowFactory(zend_async_pool_t* /*pool*/, zval* result) {
  zar::testing::Delay(2);
  ZVAL_LONG(result, ++slow_made);
  return true;
}
void CountDestroyed(zend_async_pool_t* /*pool*/, zval* /*resource*/) {
  slow_destroyed++;
}

TEST_F(PoolStrictTest, OwnerLettingGoDuringAnAcquireIsReported) {
  slow_made = slow_destroyed = 0;
  std::string outcome;
  RunMain([&] {
    zend_async_pool_t* pool = ZEND_ASYNC_NEW_POOL(
        SlowFactory, CountDestroyed, nullptr, nullptr, nullptr, 0, 2, 0);
    zar::testing::Spawn([&, pool] {
      zval resource;
      ZVAL_UNDEF(&resource);
      EXPECT_FALSE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
      outcome = TakeException();
    });
    zar::testing::Yield();  // inside the factory
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  });
  EXPECT_EQ(outcome, "Async\\PoolException \"Pool is closed\"");
  EXPECT_EQ(slow_made, 1);
  EXPECT_EQ(slow_destroyed, 1);
  EXPECT_EQ(Diagnostics(),
            Strings{"ZEND_ASYNC_POOL_ACQUIRE: Pool#1 Pool(idle=0, active=1, "
                    "reserved=0, max=2): its last owner let go of it while "
                    "the call was in progress; resource int(1) is destroyed "
                    "and the call fails"});
}

// A C healthcheck that asks to suspend in the tick (the scheduler
// context): strict mode reports the refused suspension, the pool warns
// naming itself and the hook, and the request goes on.
int suspending_checks = 0;
bool SuspendingHealthcheck(zend_async_pool_t* /*pool*/, zval* /*resource*/) {
  suspending_checks++;
  return ZEND_ASYNC_SUSPEND();  // refused: false, Error pending
}
bool MakeOne(zend_async_pool_t* /*pool*/, zval* result) {
  ZVAL_LONG(result, 1);
  return true;
}

TEST_F(PoolStrictTest, HealthcheckThatSuspendsIsReportedAndTheRequestGoesOn) {
  suspending_checks = 0;
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = ZEND_ASYNC_NEW_POOL(
        MakeOne, nullptr, SuspendingHealthcheck, nullptr, nullptr, 1, 2, 2);
    for (int i = 0; i < 50 && suspending_checks == 0; i++) {
      zar::testing::Delay(2);
    }
    ZEND_ASYNC_POOL_CLOSE(pool);
    EXPECT_EQ(TakeException(), "");
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
  ASSERT_GE(suspending_checks, 1);
  const Strings diagnostics = Diagnostics();
  ASSERT_EQ(diagnostics.size(), static_cast<size_t>(suspending_checks));
  for (const std::string& diagnostic : diagnostics) {
    EXPECT_EQ(diagnostic.rfind("ZEND_ASYNC_SUSPEND: cannot suspend in the "
                               "scheduler context",
                               0),
              0u)
        << diagnostic;
  }
  size_t warnings = 0;
  for (const mock_zend::ReportedError& error : mock_zend::ReportedErrors()) {
    if (error.type != E_WARNING) continue;
    warnings++;
    EXPECT_EQ(error.message,
              "Pool#1 healthcheck tick: the healthcheck cannot suspend, the "
              "tick runs in the scheduler context; the resource is taken as "
              "unhealthy");
  }
  EXPECT_EQ(warnings, static_cast<size_t>(suspending_checks));
}

}  // namespace
}  // namespace zar::strict_testing
