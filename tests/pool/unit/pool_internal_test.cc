// The reference's Async\Pool seen through its own layout: what the
// conformance suite cannot ask of another implementation, because the ABI
// gives no way from an Async\Pool object to its pool and PHP does not
// require the handlers checked here.
//
// The reference's object is an event reference (core/pool/object.h), so
// ZEND_ASYNC_OBJECT_TO_EVENT(object) is its pool's event; it sets a
// count_elements handler. Upstream's object is a pool pointer followed by
// the zend_object and sets no count_elements handler: nothing here is a
// conformance matter.

#include <gtest/gtest.h>

#include "mock_zend/inspect.h"
#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolInternalTest = PoolTest;

// The pool's event, through the reference's layout (NULL before
// construction).
zend_async_event_t* EventOf(Zval& pool) {
  return ZEND_ASYNC_OBJECT_TO_EVENT(pool.obj());
}

zend_async_pool_t* AbiPoolOf(Zval& pool) {
  return reinterpret_cast<zend_async_pool_t*>(EventOf(pool));
}

uint64_t Reserved(Zval& pool) { return StatsOf(EventOf(pool)).reserved; }

// ZEND_ASYNC_NEW_POOL with at most one resource, the int 1.
zend_async_pool_t* NewOneResourcePool() {
  return ZEND_ASYNC_NEW_POOL(
      [](zend_async_pool_t*, zval* result) {
        ZVAL_LONG(result, 1);
        return true;
      },
      nullptr, nullptr, nullptr, nullptr, 0, 1, 0);
}

TEST_F(PoolInternalTest, ThePoolObjectIsAnEventReferenceToItsPool) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made), .min = 1});
    zend_async_pool_t* abi_pool = AbiPoolOf(pool);
    ASSERT_NE(abi_pool, nullptr);
    EXPECT_EQ(abi_pool->wrapper, pool.obj());
    EXPECT_EQ(StatsOf(&abi_pool->event).idle, 1u);
  }));
}

TEST_F(PoolInternalTest, AnUnconstructedPoolObjectHasNoEvent) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewUnconstructedPool();
    EXPECT_EQ(EventOf(pool), nullptr);
  }));
}

TEST_F(PoolInternalTest, NewPoolObjIsAnEventReferenceToThePool) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewOneResourcePool();
    ASSERT_NE(pool, nullptr);
    zend_object* object = ZEND_ASYNC_NEW_POOL_OBJ(pool);
    ASSERT_NE(object, nullptr);
    EXPECT_EQ(ZEND_ASYNC_OBJECT_TO_EVENT(object), &pool->event);
    OBJ_RELEASE(object);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
}

// count($pool) through the handler the reference sets (PHP's count() calls
// the count() method when a Countable object has none).
TEST_F(PoolInternalTest, CountElementsHandlerCountsIdlePlusActive) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool =
        NewPhpPool({.factory = CountingFactory(&made), .min = 2, .max = 5});
    auto count_elements = [&pool] {
      zend_long n = -1;
      EXPECT_EQ(pool.obj()->handlers->count_elements(pool.obj(), &n), SUCCESS);
      return n;
    };
    ASSERT_NE(pool.obj()->handlers->count_elements, nullptr);
    EXPECT_EQ(count_elements(), 2);
    Zval resource = TryAcquire(pool);
    EXPECT_EQ(count_elements(), 2);
    Release(pool, resource);
    EXPECT_EQ(count_elements(), 2);
  }));
}

// A waiting acquire holds a pool reference of its own besides its waker's,
// so the pool outlives its last owner until the acquire returns.
TEST_F(PoolInternalTest, AWaitingAcquireHoldsItsOwnPoolReference) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewOneResourcePool();
    ASSERT_NE(pool, nullptr);
    zval held;
    ASSERT_TRUE(ZEND_ASYNC_POOL_TRY_ACQUIRE(pool, &held));
    Spawn([pool] {
      zval r;
      ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(pool, &r, 0));
      ZEND_ASYNC_POOL_RELEASE(pool, &r);
    });
    Yield();
    // The owner's, the waiting acquire's own and its waker's.
    EXPECT_EQ(pool->event.ref_count, 3u);
    ZEND_ASYNC_POOL_RELEASE(pool, &held);
    Yield();
    EXPECT_EQ(pool->event.ref_count, 1u);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
}

// The reservation counter (the event's info()) of the conformance tests
// whose PHP-made pools cannot be reached through the ABI.
TEST_F(PoolInternalTest, ReleaseReservesForTheWokenWaiterUntilItRuns) {
  RunWithPool(1, [&] {
    SpawnHolder(pool, 2);
    Spawn([&] {
      Zval resource = Acquire(pool);
      Release(pool, resource);
    });
    ASSERT_TRUE(YieldUntil([&] { return Reserved(pool) == 1; }));
    EXPECT_EQ(IdleCount(pool), 1);
  });
  EXPECT_EQ(Reserved(pool), 0u);
}

TEST_F(PoolInternalTest, CloseLeavesNoReservation) {
  Zval held;
  RunWithPool(1, [&] {
    held = TryAcquire(pool);
    for (int i = 0; i < 3; i++) {
      Spawn([&] {
        Zval resource = Acquire(pool);
        EXPECT_EQ(TakeExceptionText(), "Async\\PoolException: Pool is closed");
      });
    }
    Spawn([&] {
      YieldTimes(3);
      Close(pool);
    });
  });
  EXPECT_EQ(Reserved(pool), 0u);
  Release(pool, held);
}

TEST_F(PoolInternalTest, CloseWithAReservedResourceLeavesNoReservation) {
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory = CountingFactory(&made),
                       .destructor = CountingDestructor(&destroyed),
                       .max = 1});
    SpawnHolder(pool, 2);
    Spawn([&] {
      Zval resource = Acquire(pool);
      TakeExceptionText();
    });
    ASSERT_TRUE(YieldUntil([&] { return Reserved(pool) == 1; }));
    Close(pool);
  }));
  EXPECT_EQ(destroyed, 1);
  EXPECT_EQ(Reserved(pool), 0u);
}

TEST_F(PoolInternalTest, DeactivateLeavesNoReservation) {
  RunWithPool(1, [&] {
    SpawnHolder(pool, 2);
    for (int i = 0; i < 2; i++) {
      Spawn([&] {
        Zval resource = Acquire(pool);
        TakeExceptionText();
      });
    }
    ASSERT_TRUE(YieldUntil([&] { return Reserved(pool) == 1; }));
    CallMethod(pool.get(), "deactivate");
  });
  EXPECT_EQ(Reserved(pool), 0u);
}

// A release made while an exception unwinds (a C owner releasing in its
// cleanup) into a pool with a PHP beforeRelease: the hook runs with nothing
// pending, its own exception is swallowed, and the in-flight exception
// comes back untouched. Only C code holding a PHP-made pool can do this,
// and the ABI gives C code no way to a PHP-made pool.
TEST_F(PoolInternalTest, InFlightExceptionIsParkedAroundBeforeRelease) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made),
                            .destructor = CountingDestructor(&destroyed),
                            .before_release = [this](mock_zend::Call&) {
                              log.push_back(EG(exception) == nullptr
                                                ? "hook ran clean"
                                                : "hook saw exception");
                              ThrowRuntime("hook failure");
                            }});
    Zval resource = Acquire(pool);
    ThrowRuntime("in flight");
    ZEND_ASYNC_POOL_RELEASE(AbiPoolOf(pool), resource.get());
    zend_object* exception = mock_zend::TakeException();
    ASSERT_NE(exception, nullptr);
    log.push_back(Joined(mock_zend::ExceptionChain(exception)));
    OBJ_RELEASE(exception);
    // Released through the ABI, which the tally does not see: nothing is
    // lent, nothing alive.
    EXPECT_EQ(ActiveCount(pool), 0);
    EXPECT_EQ(Count(pool), made - destroyed);
  }));
  EXPECT_EQ(Joined(log), "hook ran clean RuntimeException: in flight");
  EXPECT_EQ(destroyed, 1);
}

// A PHP-made pool a C owner also holds is not reported: collecting its
// wrapper must not free what the C owner still uses.
TEST_F(PoolInternalTest, PoolSharedWithACOwnerIsNotReported) {
  EXPECT_TRUE(RunMain([&] {
    Cycle cycle =
        NewCycle([](mock_zend::Call& call) { ZVAL_LONG(call.result(), 1); });
    Zval pool = ConstructPool({cycle.closure.get()});
    zend_async_event_t* event = EventOf(pool);
    ZEND_ASYNC_EVENT_ADD_REF(event);  // the C owner
    LeaveCycle(cycle, pool);
    EXPECT_EQ(gc_collect_cycles(), 0);
    // The C owner can still use the pool (its factory closure is alive).
    auto* abi_pool = reinterpret_cast<zend_async_pool_t*>(event);
    zval resource;
    ASSERT_TRUE(ZEND_ASYNC_POOL_TRY_ACQUIRE(abi_pool, &resource));
    EXPECT_EQ(Z_LVAL(resource), 1);
    ZEND_ASYNC_POOL_RELEASE(abi_pool, &resource);
    // The C owner lets go: the wrapper is the last owner again and the
    // cycle is collectable.
    ZEND_ASYNC_EVENT_RELEASE(event);
    EXPECT_GE(gc_collect_cycles(), 3);
  }));
}

}  // namespace
}  // namespace zar::pool_testing
