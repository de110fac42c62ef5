// The pool's configuration checks: a size no pool can serve is refused with
// a ValueError before anything is allocated or any factory runs. Upstream
// checks these only in Async\Pool's constructor (min >= 0, max >= 1,
// min <= max) and accepts every size through the C API, so these are the
// reference's own choices (docs/pool.md, "Differences from upstream").

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "core/pool/pool.h"
#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolConfigTest = PoolTest;

int factory_calls = 0;

bool CountingCFactory(zend_async_pool_t*, zval* result) {
  factory_calls++;
  ZVAL_LONG(result, factory_calls);
  return true;
}

zend_async_pool_t* NewCPool(uint32_t min, uint32_t max) {
  return ZEND_ASYNC_NEW_POOL(CountingCFactory, nullptr, nullptr, nullptr,
                             nullptr, min, max, 0);
}

// In one request, ZEND_ASYNC_NEW_POOL refuses each (min, max) of `sizes`:
// NULL, with `error` thrown, and its factory never called.
void ExpectNewPoolRefused(
    std::initializer_list<std::pair<uint32_t, uint32_t>> sizes,
    const std::string& error) {
  factory_calls = 0;
  EXPECT_TRUE(zar::testing::RunMain([&] {
    for (const auto& [min, max] : sizes) {
      EXPECT_EQ(NewCPool(min, max), nullptr);
      EXPECT_EQ(TakeExceptionText(), error);
    }
  }));
  EXPECT_EQ(factory_calls, 0);
}

TEST_F(PoolConfigTest, NewPoolRefusesMaxSizeZero) {
  ExpectNewPoolRefused({{0, 0}},
                       "ValueError: ZEND_ASYNC_NEW_POOL(): Argument #7 "
                       "($max_size) must be >= 1");
}

TEST_F(PoolConfigTest, NewPoolRefusesMinSizeAboveMaxSize) {
  ExpectNewPoolRefused({{3, 2}},
                       "ValueError: ZEND_ASYNC_NEW_POOL(): Argument #6 "
                       "($min_size) must be <= max_size");
}

// 2**31 is also what PDO::ATTR_POOL_MIN => 2**31 passes down (with max
// raised to it).
TEST_F(PoolConfigTest, NewPoolRefusesAMinSizeItCannotPreWarm) {
  ExpectNewPoolRefused({{uint32_t{1} << 31, uint32_t{1} << 31},
                        {core::kMaxPoolMinSize + 1, UINT32_MAX}},
                       "ValueError: ZEND_ASYNC_NEW_POOL(): Argument #6 "
                       "($min_size) must be <= 1048576");
}

TEST_F(PoolConfigTest, NewPoolAcceptsTheLargestMinSizeAndAnyMaxSize) {
  EXPECT_TRUE(RunMain([&] {
    // A NULL factory: each pre-warm creation fails without an exception.
    zend_async_pool_t* pool =
        ZEND_ASYNC_NEW_POOL(nullptr, nullptr, nullptr, nullptr, nullptr,
                            core::kMaxPoolMinSize, UINT32_MAX, 0);
    ASSERT_NE(pool, nullptr);
    EXPECT_EQ(TakeExceptionText(), "");
    EXPECT_POOL_TALLY(pool, 0);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }));
}

TEST_F(PoolConfigTest, ConstructorRefusesAMinSizeItCannotPreWarm) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made),
                            .min = zend_long{1} << 31,
                            .max = zend_long{1} << 31});
    EXPECT_TRUE(pool.undef());
    EXPECT_EQ(TakeExceptionText(),
              "ValueError: Async\\Pool::__construct(): Argument #6 ($min) "
              "must be <= 1048576");
  }));
  EXPECT_EQ(made, 0);
}

// Upstream's constructor has no guard against a second call (it would
// make a second pool under the first one's waiters); the reference refuses
// it with the class of upstream's "Pool is not initialized".
TEST_F(PoolConfigTest, ConstructorCalledTwiceIsRefused) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made), .max = 2});
    ASSERT_FALSE(pool.undef());
    Zval factory;
    mock_zend::MakeCallable(factory.get(), CountingFactory(&made));
    CallMethod(pool.get(), "__construct", {factory.get()});
    EXPECT_EQ(TakeExceptionText(),
              "Async\\PoolException: Async\\Pool is already initialized");
    EXPECT_EQ(Count(pool), 0);
  }));
  EXPECT_EQ(made, 0);
}

}  // namespace
}  // namespace zar::pool_testing
