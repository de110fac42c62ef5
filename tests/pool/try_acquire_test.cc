// Behaviours A6: tryAcquire.

#include <gtest/gtest.h>

#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolTryAcquireTest = PoolTest;

// A6 003
TEST_F(PoolTryAcquireTest, ReturnsResourcesUntilMaxThenNull) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made), .max = 2});
    Zval first = TryAcquire(pool);
    log.push_back(Render(first) + "/" + std::to_string(ActiveCount(pool)));
    EXPECT_POOL_TALLY(pool, made);
    Zval second = TryAcquire(pool);
    log.push_back(Render(second) + "/" + std::to_string(ActiveCount(pool)));
    EXPECT_POOL_TALLY(pool, made);
    Zval third = TryAcquire(pool);
    log.push_back(Render(third));
    EXPECT_EQ(TakeExceptionText(), "");
    EXPECT_POOL_TALLY(pool, made);
    Release(pool, first);
    Release(pool, second);
  }));
  EXPECT_EQ(Joined(log), "1/1 2/2 null");
}

// A6 014 (the documentation says it throws; the implementation does not)
TEST_F(PoolTryAcquireTest, ReturnsNullOnAClosedPoolWithoutThrowing) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made),
                            .destructor = CountingDestructor(&destroyed),
                            .min = 1});
    Close(pool);
    Zval resource = TryAcquire(pool);
    EXPECT_TRUE(resource.is_null());
    EXPECT_EQ(TakeExceptionText(), "");
    EXPECT_POOL_TALLY(pool, made - destroyed);
  }));
  EXPECT_EQ(made, 1);
  EXPECT_EQ(destroyed, 1);
}

// A6 026
TEST_F(PoolTryAcquireTest, AllActiveThenReleaseMakesOneAvailable) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool =
        NewPhpPool({.factory = CountingFactory(&made), .min = 2, .max = 2});
    auto counts = [&] {
      log.push_back(std::to_string(IdleCount(pool)) + "/" +
                    std::to_string(ActiveCount(pool)));
      EXPECT_POOL_TALLY(pool, made);
    };
    counts();
    Zval r1 = TryAcquire(pool);
    counts();
    Zval r2 = TryAcquire(pool);
    counts();
    Zval r3 = TryAcquire(pool);
    log.push_back(Render(r3));
    Release(pool, r1);
    counts();
    Zval r4 = TryAcquire(pool);
    log.push_back(Render(r4));
    Release(pool, r2);
    Release(pool, r4);
  }));
  EXPECT_EQ(Joined(log), "2/0 1/1 0/2 null 1/1 1");
  EXPECT_EQ(made, 2);
}

TEST_F(PoolTryAcquireTest, NeverSuspends) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made), .max = 1});
    Zval held = TryAcquire(pool);
    Spawn([&] { log.push_back("other coroutine ran"); });
    Zval none = TryAcquire(pool);
    log.push_back("tryAcquire " + Render(none));
    Release(pool, held);
  }));
  EXPECT_EQ(Joined(log), "tryAcquire null other coroutine ran");
}

TEST_F(PoolTryAcquireTest, FactoryExceptionStaysPendingAndFreesThePlace) {
  int calls = 0;
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory =
                                [&calls](mock_zend::Call& call) {
                                  if (++calls == 1) {
                                    ThrowRuntime("down");
                                    return;
                                  }
                                  ZVAL_LONG(call.result(), calls);
                                },
                            .max = 1});
    EXPECT_TRUE(TryAcquire(pool).undef());
    EXPECT_EQ(TakeExceptionText(), "RuntimeException: down");
    EXPECT_EQ(Count(pool), 0);
    Zval second = TryAcquire(pool);
    EXPECT_EQ(Render(second), "2");
    Release(pool, second);
  }));
}

}  // namespace
}  // namespace zar::pool_testing
