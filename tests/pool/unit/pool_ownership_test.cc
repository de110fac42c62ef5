// A pool made through the C API with a C factory keeps its resources to
// the extension that made it: its Async\Pool object (ZEND_ASYNC_NEW_POOL_OBJ)
// refuses acquire(), tryAcquire() and release() with Async\PoolException,
// since such a slot may hold anything C put there (IS_PTR to a connection).
// Upstream's object hands such a resource to PHP as it is (php-async
// pool.c), so this is the reference's own choice (docs/pool.md,
// "Differences from upstream").

#include <gtest/gtest.h>

#include <cstdint>

#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolOwnershipTest = PoolTest;

// What the C handlers made and destroyed.
int c_made = 0;
int c_destroyed = 0;

// IS_PTR resources to addresses nobody may touch (never dereferenced).
bool PointerFactory(zend_async_pool_t*, zval* result) {
  c_made++;
  ZVAL_PTR(result, reinterpret_cast<void*>(uintptr_t{0x1000} * c_made));
  return true;
}

void CountingDestructor(zend_async_pool_t*, zval*) { c_destroyed++; }

TEST_F(PoolOwnershipTest, WrapperOfACPoolRefusesAcquireTryAcquireAndRelease) {
  c_made = 0;
  c_destroyed = 0;
  EXPECT_TRUE(RunMain([&] {
    zend_async_pool_t* pool = ZEND_ASYNC_NEW_POOL(
        PointerFactory, CountingDestructor, nullptr, nullptr, nullptr, 2, 4, 0);
    ASSERT_NE(pool, nullptr);
    Zval wrapper;
    ZVAL_OBJ(wrapper.get(), ZEND_ASYNC_NEW_POOL_OBJ(pool));
    ASSERT_EQ(IdleCount(wrapper), 2);

    EXPECT_TRUE(Acquire(wrapper).undef());
    EXPECT_EQ(TakeExceptionText(),
              "Async\\PoolException: Async\\Pool::acquire(): the resources "
              "of this pool are owned by the extension that created it and "
              "cannot be acquired from PHP");
    EXPECT_TRUE(TryAcquire(wrapper).undef());
    EXPECT_EQ(TakeExceptionText(),
              "Async\\PoolException: Async\\Pool::tryAcquire(): the "
              "resources of this pool are owned by the extension that created "
              "it and cannot be acquired from PHP");
    Zval forged;
    ZVAL_LONG(forged.get(), 42);
    Release(wrapper, forged);
    EXPECT_EQ(TakeExceptionText(),
              "Async\\PoolException: Async\\Pool::release(): the resources "
              "of this pool are owned by the extension that created it and "
              "cannot be released from PHP");

    // Nothing was taken or made; reading stays open.
    EXPECT_EQ(Count(wrapper), 2);
    EXPECT_EQ(IdleCount(wrapper), 2);
    EXPECT_EQ(ActiveCount(wrapper), 0);
    EXPECT_EQ(State(wrapper), "ACTIVE");
    EXPECT_FALSE(IsClosed(wrapper));
    EXPECT_EQ(TakeExceptionText(), "");
    EXPECT_EQ(c_made, 2);
    EXPECT_EQ(c_destroyed, 0);

    // The C owner is unaffected: it still acquires and releases its own.
    zval resource;
    ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
    EXPECT_EQ(ActiveCount(wrapper), 1);
    ZEND_ASYNC_POOL_RELEASE(pool, &resource);
    EXPECT_EQ(IdleCount(wrapper), 2);
    wrapper.Reset();
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
  EXPECT_EQ(c_destroyed, 2);
}

}  // namespace
}  // namespace zar::pool_testing
