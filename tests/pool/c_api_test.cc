// The pool through its C API (ZEND_ASYNC_NEW_POOL with C handlers,
// ZEND_ASYNC_POOL_*), as a C extension such as PDO uses it: the core
// behaviours again, plus what only C users see (IS_PTR resources, the
// event's refcount and info, NEW_POOL_OBJ, the C strategy).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

// What the C handlers see and do; reset by each test.
struct Handlers {
  int made = 0;
  int destroyed = 0;
  Log log;
  // factory: fail (false) without / with an exception.
  bool factory_fails = false;
  bool factory_throws = false;
  // factory: succeed (true) without writing its result.
  bool factory_leaves_undef = false;
  // Resources are IS_PTR to fake addresses (never dereferenced).
  bool pointer_resources = false;
  // beforeAcquire rejects this many checks; beforeRelease rejects all.
  int reject_acquires = 0;
  bool reject_releases = false;
  // What the factory saw of the pool while running.
  PoolStats during_factory;
  int successes = 0;
  int failures = 0;
  zend_object* failure_error = reinterpret_cast<zend_object*>(1);
};

Handlers* h = nullptr;

std::string Name(const zval* resource) {
  if (Z_TYPE_P(resource) == IS_PTR) {
    return "p" + std::to_string(reinterpret_cast<uintptr_t>(Z_PTR_P(resource)) /
                                0x1000);
  }
  return Render(resource);
}

bool Factory(zend_async_pool_t* pool, zval* result) {
  h->during_factory = StatsOf(&pool->event);
  if (h->factory_throws) {
    ThrowRuntime("factory down");
    return false;
  }
  if (h->factory_fails) return false;
  if (h->factory_leaves_undef) {
    h->log.push_back("make nothing");
    return true;
  }
  h->made++;
  if (h->pointer_resources) {
    // An address nobody may touch: page-aligned, far from the heap.
    ZVAL_PTR(result, reinterpret_cast<void*>(uintptr_t{0x1000} * h->made));
  } else {
    ZVAL_LONG(result, h->made);
  }
  h->log.push_back("make " + Name(result));
  return true;
}

void Destructor(zend_async_pool_t*, zval* resource) {
  h->destroyed++;
  h->log.push_back("destroy " + Name(resource));
}

bool BeforeAcquire(zend_async_pool_t*, zval* resource) {
  h->log.push_back("check " + Name(resource));
  if (h->reject_acquires > 0) {
    h->reject_acquires--;
    return false;
  }
  return true;
}

bool BeforeRelease(zend_async_pool_t*, zval*) { return !h->reject_releases; }

bool Healthy(zend_async_pool_t*, zval* resource) {
  h->log.push_back("health " + Name(resource));
  return Z_LVAL_P(resource) != 1;
}

void ReportSuccess(zend_async_pool_t*) { h->successes++; }
void ReportFailure(zend_async_pool_t*, zend_object* error) {
  h->failures++;
  h->failure_error = error;
}

class PoolCApiTest : public PoolTest {
 protected:
  void SetUp() override {
    h = &handlers_;
    PoolTest::SetUp();
  }
  void TearDown() override {
    PoolTest::TearDown();
    h = nullptr;
  }

  zend_async_pool_t* NewPool(uint32_t min, uint32_t max,
                             bool with_hooks = false) {
    return ZEND_ASYNC_NEW_POOL(
        Factory, Destructor, nullptr, with_hooks ? BeforeAcquire : nullptr,
        with_hooks ? BeforeRelease : nullptr, min, max, 0);
  }

  // NewPool(0, 1, with_hooks) whose one resource `held` now holds.
  zend_async_pool_t* NewHeldPool(zval* held, bool with_hooks = false) {
    zend_async_pool_t* pool = NewPool(0, 1, with_hooks);
    EXPECT_TRUE(TryAcquire(pool, held));
    return pool;
  }

  // The pool against the handlers' tally, then the owner's reference let
  // go.
  void ExpectTallyAndRelease(zend_async_pool_t* pool) {
    EXPECT_POOL_TALLY(pool, h->made - h->destroyed);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }

  Handlers handlers_;
};

// Acquires in a coroutine: "name got R" or "name Class: message".
void AcquireAndLog(zend_async_pool_t* pool, const std::string& name,
                   zend_long timeout_ms, zval* out) {
  if (Acquire(pool, out, timeout_ms)) {
    h->log.push_back(name + " got " + Name(out));
  } else {
    ZVAL_UNDEF(out);
    h->log.push_back(name + " " + TakeExceptionText());
  }
}

// A coroutine acquiring (AcquireAndLog, no timeout) and releasing what it
// got.
void SpawnAcquirer(zend_async_pool_t* pool, const char* name) {
  Spawn([pool, name] {
    zval r;
    AcquireAndLog(pool, name, 0, &r);
    if (!Z_ISUNDEF(r)) Release(pool, &r);
  });
}

TEST_F(PoolCApiTest, NewPoolIsAllInternalAndPreWarms) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewPool(2, 4);
    ASSERT_NE(pool, nullptr);
    EXPECT_EQ(pool->handler_flags,
              ZEND_ASYNC_POOL_F_FACTORY_INTERNAL |
                  ZEND_ASYNC_POOL_F_DESTRUCTOR_INTERNAL |
                  ZEND_ASYNC_POOL_F_HEALTHCHECK_INTERNAL |
                  ZEND_ASYNC_POOL_F_BEFORE_ACQUIRE_INTERNAL |
                  ZEND_ASYNC_POOL_F_BEFORE_RELEASE_INTERNAL);
    EXPECT_EQ(pool->circuit_state, ZEND_ASYNC_CIRCUIT_STATE_ACTIVE);
    EXPECT_EQ(pool->min_size, 2u);
    EXPECT_EQ(pool->max_size, 4u);
    EXPECT_EQ(pool->wrapper, nullptr);
    EXPECT_EQ(pool->strategy.internal, nullptr);
    EXPECT_EQ(pool->user_data, nullptr);
    EXPECT_EQ(pool->event.ref_count, 1u);
    EXPECT_FALSE(ZEND_ASYNC_EVENT_IS_ZEND_OBJ(&pool->event));
    zend_string* info = pool->event.info(&pool->event);
    EXPECT_STREQ(ZSTR_VAL(info), "Pool(idle=2, active=0, reserved=0, max=4)");
    zend_string_release(info);
    ExpectTallyAndRelease(pool);
  }));
  EXPECT_EQ(Joined(h->log), "make 1 make 2 destroy 1 destroy 2");
}

// ZEND_ASYNC_NEW_POOL_EX: extra_size zeroed bytes at event.extra_offset
// belong to the caller; waiting, releasing and closing never touch them.
TEST_F(PoolCApiTest, ExtraSizeGivesTheCallerZeroedBytesThePoolNeverTouches) {
  constexpr size_t kExtra = 4096;
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = ZEND_ASYNC_NEW_POOL_EX(
        Factory, Destructor, nullptr, nullptr, nullptr, 1, 1, 0, kExtra);
    ASSERT_NE(pool, nullptr);
    EXPECT_GE(pool->event.extra_offset, sizeof(zend_async_pool_t));
    auto* extra =
        reinterpret_cast<unsigned char*>(pool) + pool->event.extra_offset;
    EXPECT_EQ(std::count(extra, extra + kExtra, 0), static_cast<long>(kExtra));
    std::memset(extra, 0xAB, kExtra);

    zval held;
    ASSERT_TRUE(Acquire(pool, &held, 0));
    SpawnAcquirer(pool, "W");
    Yield();
    EXPECT_POOL_TALLY(pool, h->made - h->destroyed);
    Release(pool, &held);
    Yield();
    EXPECT_POOL_TALLY(pool, h->made - h->destroyed);
    ZEND_ASYNC_POOL_CLOSE(pool);
    EXPECT_POOL_TALLY(pool, h->made - h->destroyed);
    EXPECT_EQ(std::count(extra, extra + kExtra, 0xAB),
              static_cast<long>(kExtra));
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
  EXPECT_EQ(Joined(h->log), "make 1 W got 1 destroy 1");
}

TEST_F(PoolCApiTest, AcquireTakesOldestIdleAndRetriesAfterRejection) {
  h->reject_acquires = 1;
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewPool(3, 5, /*with_hooks=*/true);
    zval r;
    ASSERT_TRUE(Acquire(pool, &r, 0));
    h->log.push_back("got " + Name(&r));
    EXPECT_POOL_TALLY(pool, h->made - h->destroyed);
    Release(pool, &r);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
  EXPECT_EQ(Joined(h->log),
            "make 1 make 2 make 3 check 1 destroy 1 check 2 got 2 destroy 3 "
            "destroy 2");
}

TEST_F(PoolCApiTest, FactoryCountsAsActiveWhileItRunsAndSkipsTheCheck) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewPool(0, 2, /*with_hooks=*/true);
    zval r;
    ASSERT_TRUE(Acquire(pool, &r, 0));
    EXPECT_EQ(h->during_factory.active, 1u);
    EXPECT_EQ(h->during_factory.idle, 0u);
    Release(pool, &r);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
  EXPECT_EQ(Joined(h->log), "make 1 destroy 1");
}

// Behaviour 20 (C form): a factory failing without an exception.
TEST_F(PoolCApiTest, FactoryFailureWithoutExceptionThrowsFailedToCreate) {
  h->factory_fails = true;
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewPool(0, 1);
    zval r;
    EXPECT_FALSE(Acquire(pool, &r, 0));
    EXPECT_EQ(TakeExceptionText(),
              "Async\\PoolException: Failed to create pool resource");
    EXPECT_FALSE(TryAcquire(pool, &r));
    EXPECT_EQ(TakeExceptionText(), "") << "tryAcquire throws nothing itself";
    EXPECT_POOL_TALLY(pool, 0);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
}

// A factory returning true with its result left IS_UNDEF made nothing: a
// failure without an exception, so nothing is lent, kept idle or destroyed.
TEST_F(PoolCApiTest, FactoryLeavingItsResultUndefIsAFailedCreation) {
  h->factory_leaves_undef = true;
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewPool(2, 2);
    EXPECT_EQ(TakeExceptionText(), "") << "pre-warm failures are skipped";
    EXPECT_POOL_TALLY(pool, 0);
    EXPECT_EQ(StatsOf(&pool->event).idle, 0u);
    zval r;
    ZVAL_LONG(&r, 99);
    EXPECT_FALSE(Acquire(pool, &r, 0));
    EXPECT_EQ(TakeExceptionText(),
              "Async\\PoolException: Failed to create pool resource");
    EXPECT_POOL_TALLY(pool, 0);
    EXPECT_FALSE(TryAcquire(pool, &r));
    EXPECT_EQ(TakeExceptionText(), "") << "tryAcquire throws nothing itself";
    EXPECT_POOL_TALLY(pool, 0);
    ZEND_ASYNC_POOL_CLOSE(pool);
    EXPECT_POOL_TALLY(pool, 0);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
  EXPECT_EQ(h->destroyed, 0);
  EXPECT_EQ(Joined(h->log),
            "make nothing make nothing make nothing make nothing");
}

TEST_F(PoolCApiTest, NullFactoryMakesEveryCreationFail) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = ZEND_ASYNC_NEW_POOL(nullptr, nullptr, nullptr,
                                                  nullptr, nullptr, 2, 2, 0);
    EXPECT_EQ(TakeExceptionText(), "") << "pre-warm failures are skipped";
    zval r;
    EXPECT_FALSE(Acquire(pool, &r, 0));
    EXPECT_EQ(TakeExceptionText(),
              "Async\\PoolException: Failed to create pool resource");
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
}

// Behaviour 20: the failing factory's place goes to a waiter, who tries
// the factory itself.
TEST_F(PoolCApiTest, FailedFactoryWakesAWaiter) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewPool(0, 1);
    zval held;
    ASSERT_TRUE(Acquire(pool, &held, 0));
    for (const char* name : {"W1", "W2"}) SpawnAcquirer(pool, name);
    Yield();
    h->reject_releases = true;
    h->factory_throws = true;
    // Rejected: destroyed, W1 woken to create; its factory throws and the
    // place goes on to W2, whose factory throws too.
    pool->handler_flags |= ZEND_ASYNC_POOL_F_BEFORE_RELEASE_INTERNAL;
    pool->before_release.internal = BeforeRelease;
    Release(pool, &held);
    // Each waiter is resumed in its turn: the ABI orders them (FIFO), not
    // how many turns of the main flow pass before the second one runs.
    EXPECT_TRUE(YieldUntil(
        [&] {
          return std::count_if(h->log.begin(), h->log.end(),
                               [](const std::string& entry) {
                                 return entry.starts_with("W");
                               }) == 2;
        },
        10));
    ExpectTallyAndRelease(pool);
  }));
  EXPECT_EQ(Joined(h->log),
            "make 1 destroy 1 W1 RuntimeException: factory down "
            "W2 RuntimeException: factory down");
}

TEST_F(PoolCApiTest, ReleaseDoesNotBarge) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewPool(0, 1);
    for (const char* name : {"A", "B"}) {
      Spawn([pool, name] {
        for (int i = 0; i < 3; i++) {
          zval r;
          ASSERT_TRUE(Acquire(pool, &r, 0));
          h->log.push_back(std::string(name) + std::to_string(i));
          Yield();
          Release(pool, &r);
        }
      });
    }
    YieldTimes(20);
    ExpectTallyAndRelease(pool);
  }));
  EXPECT_EQ(Joined(h->log), "make 1 A0 B0 A1 B1 A2 B2 destroy 1");
}

TEST_F(PoolCApiTest, AcquireTimesOut) {
  EXPECT_TRUE(RunMain([&] {
    zval held;
    zend_async_pool_t* pool = NewHeldPool(&held);
    zval r;
    AcquireAndLog(pool, "main", 5, &r);
    EXPECT_POOL_TALLY(pool, h->made - h->destroyed);
    Release(pool, &held);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
  EXPECT_EQ(Joined(h->log),
            "make 1 main Async\\TimeoutException: Operation has been "
            "cancelled by timeout destroy 1");
}

TEST_F(PoolCApiTest, TryAcquireNeverTakesAReservedPlace) {
  EXPECT_TRUE(RunMain([&] {
    zval held;
    zend_async_pool_t* pool = NewHeldPool(&held);
    SpawnAcquirer(pool, "waiter");
    Yield();
    Release(pool, &held);  // reserved for the waiter
    EXPECT_EQ(StatsOf(&pool->event).reserved, 1u);
    zval stolen;
    EXPECT_FALSE(TryAcquire(pool, &stolen));
    Yield();
    ExpectTallyAndRelease(pool);
  }));
  EXPECT_EQ(Joined(h->log), "make 1 waiter got 1 destroy 1");
}

TEST_F(PoolCApiTest, RejectedReleaseFreesCapacityForAWaiter) {
  EXPECT_TRUE(RunMain([&] {
    zval held;
    zend_async_pool_t* pool = NewHeldPool(&held, /*with_hooks=*/true);
    Spawn([pool] {
      zval r;
      AcquireAndLog(pool, "waiter", 0, &r);
      h->reject_releases = false;
      Release(pool, &r);
    });
    Yield();
    h->reject_releases = true;
    Release(pool, &held);
    Yield();
    ExpectTallyAndRelease(pool);
  }));
  EXPECT_EQ(Joined(h->log), "make 1 destroy 1 make 2 waiter got 2 destroy 2");
}

TEST_F(PoolCApiTest, CloseWakesEveryWaiterWithPoolClosed) {
  EXPECT_TRUE(RunMain([&] {
    zval held;
    zend_async_pool_t* pool = NewHeldPool(&held);
    for (const char* name : {"W1", "W2"}) SpawnAcquirer(pool, name);
    Yield();
    ZEND_ASYNC_POOL_CLOSE(pool);
    EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_CLOSED(&pool->event));
    Yield();
    Release(pool, &held);  // destroyed: closed
    zval r;
    EXPECT_FALSE(Acquire(pool, &r, 0));
    h->log.push_back(TakeExceptionText());
    ExpectTallyAndRelease(pool);
  }));
  EXPECT_EQ(Joined(h->log),
            "make 1 W2 Async\\PoolException: Pool is closed "
            "W1 Async\\PoolException: Pool is closed destroy 1 "
            "Async\\PoolException: Pool is closed");
}

TEST_F(PoolCApiTest, CircuitStateWrittenByACUserGatesAcquire) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewPool(1, 2);
    pool->circuit_state = ZEND_ASYNC_CIRCUIT_STATE_INACTIVE;
    zval r;
    EXPECT_FALSE(Acquire(pool, &r, 0));
    EXPECT_EQ(TakeExceptionText(),
              "Async\\ServiceUnavailableException: Service is unavailable "
              "(circuit breaker is open)");
    EXPECT_FALSE(TryAcquire(pool, &r));
    EXPECT_EQ(TakeExceptionText(), "");
    pool->circuit_state = ZEND_ASYNC_CIRCUIT_STATE_RECOVERING;
    ASSERT_TRUE(Acquire(pool, &r, 0));
    Release(pool, &r);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
}

TEST_F(PoolCApiTest, InternalStrategyIsToldOfEveryRelease) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewPool(0, 1, /*with_hooks=*/true);
    zend_async_circuit_breaker_strategy_t strategy = {
        ReportSuccess, ReportFailure, nullptr, nullptr};
    pool->strategy.internal = &strategy;
    pool->handler_flags |= ZEND_ASYNC_POOL_F_STRATEGY_INTERNAL;
    zval r;
    ASSERT_TRUE(Acquire(pool, &r, 0));
    Release(pool, &r);
    ASSERT_TRUE(Acquire(pool, &r, 0));
    h->reject_releases = true;
    Release(pool, &r);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
  EXPECT_EQ(h->successes, 1);
  EXPECT_EQ(h->failures, 1);
  EXPECT_EQ(h->failure_error, nullptr);
}

TEST_F(PoolCApiTest, PointerResourcesAreNeverTouched) {
  h->pointer_resources = true;
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewPool(2, 3, /*with_hooks=*/true);
    zval a, b, c;
    ASSERT_TRUE(Acquire(pool, &a, 0));
    ASSERT_TRUE(Acquire(pool, &b, 0));
    ASSERT_TRUE(TryAcquire(pool, &c));
    EXPECT_EQ(Z_TYPE(c), IS_PTR);
    Release(pool, &b);
    Release(pool, &a);
    h->reject_releases = true;
    Release(pool, &c);
    ExpectTallyAndRelease(pool);
  }));
  EXPECT_EQ(Joined(h->log),
            "make p1 make p2 check p1 check p2 make p3 destroy p3 destroy p2 "
            "destroy p1");
}

TEST_F(PoolCApiTest, NewPoolObjMakesANewWrapperEachCall) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewPool(1, 2);
    zend_object* first = ZEND_ASYNC_NEW_POOL_OBJ(pool);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(pool->event.ref_count, 2u);
    EXPECT_EQ(pool->wrapper, first);
    zend_object* second = ZEND_ASYNC_NEW_POOL_OBJ(pool);
    EXPECT_NE(first, second);
    EXPECT_EQ(pool->wrapper, second);
    EXPECT_EQ(pool->event.ref_count, 3u);
    Zval wrapper;
    ZVAL_OBJ(wrapper.get(), second);
    EXPECT_EQ(Count(wrapper), 1);
    EXPECT_EQ(IdleCount(wrapper), 1);
    wrapper.Reset();
    EXPECT_EQ(pool->wrapper, nullptr) << "the freed wrapper is forgotten";
    OBJ_RELEASE(first);
    EXPECT_EQ(pool->event.ref_count, 1u);
    EXPECT_FALSE(ZEND_ASYNC_EVENT_IS_CLOSED(&pool->event))
        << "a wrapper does not close a pool a C owner still holds";
    EXPECT_EQ(h->destroyed, 0);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
    EXPECT_EQ(h->destroyed, 1) << "the last reference disposes (closes)";
  }));
}

TEST_F(PoolCApiTest, DestroyingTheLastOwnerWrapperClosesThePool) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewPool(1, 2);
    zend_object* wrapper = ZEND_ASYNC_NEW_POOL_OBJ(pool);
    // The last owner is the wrapper now: releasing it closes the pool.
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
    EXPECT_EQ(h->destroyed, 0);
    OBJ_RELEASE(wrapper);
    EXPECT_EQ(h->destroyed, 1);
  }));
}

TEST_F(PoolCApiTest, HealthcheckWithCHandlers) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = ZEND_ASYNC_NEW_POOL(Factory, Destructor, Healthy,
                                                  nullptr, nullptr, 2, 3, 2);
    Delay(10);
    ExpectTallyAndRelease(pool);
  }));
  ASSERT_GE(h->log.size(), 5u);
  EXPECT_EQ(h->log[0], "make 1");
  EXPECT_EQ(h->log[1], "make 2");
  EXPECT_EQ(h->log[2], "health 1");
  EXPECT_EQ(h->log[3], "destroy 1");
  EXPECT_EQ(h->log[4], "make 3") << "refilled to min";
}

TEST_F(PoolCApiTest, ReleasingThePoolEventDisposesItOnce) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = NewPool(1, 1);
    ZEND_ASYNC_EVENT_ADD_REF(&pool->event);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
    EXPECT_EQ(h->destroyed, 0);
    ZEND_ASYNC_POOL_CLOSE(pool);
    EXPECT_EQ(h->destroyed, 1);
    ZEND_ASYNC_POOL_CLOSE(pool);  // idempotent
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
    EXPECT_EQ(h->destroyed, 1);
  }));
}

TEST_F(PoolCApiTest, WaiterHoldsThePoolEvent) {
  EXPECT_TRUE(RunMain([&] {
    zval held;
    zend_async_pool_t* pool = NewHeldPool(&held);
    SpawnAcquirer(pool, "waiter");
    Yield();
    // The owner's and the waiting coroutine's waker's (zend_async_resume_when
    // without trans_event); an acquire may hold one more of its own, which
    // the ABI leaves to the implementation.
    EXPECT_GE(pool->event.ref_count, 2u);
    EXPECT_EQ(pool->event.callbacks.length, 1u);
    Release(pool, &held);
    Yield();
    EXPECT_EQ(pool->event.ref_count, 1u) << "let go as soon as it was done";
    EXPECT_EQ(pool->event.callbacks.length, 0u);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
  EXPECT_EQ(Joined(h->log), "make 1 waiter got 1 destroy 1");
}

}  // namespace
}  // namespace zar::pool_testing
