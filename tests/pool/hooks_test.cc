// Behaviours A9: beforeAcquire / beforeRelease rejection.

#include <gtest/gtest.h>

#include "mock_zend/inspect.h"
#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolHooksTest = PoolTest;

// A9 008
TEST_F(PoolHooksTest,
       RejectedIdleResourceIsDestroyedAndAFreshOneSkipsTheCheck) {
  int checks = 0;
  EXPECT_TRUE(RunMain([&] {
    Zval pool =
        NewPhpPool({.factory = CountingFactory(&made, &log),
                    .destructor = CountingDestructor(&destroyed, &log),
                    .before_acquire =
                        [&](mock_zend::Call& call) {
                          checks++;
                          log.push_back("check#" + std::to_string(checks) +
                                        "(" + Render(call.arg(0)) + ")");
                          ZVAL_BOOL(call.result(), checks > 1);
                        },
                    .min = 1,
                    .max = 5});
    Zval first = Acquire(pool);
    log.push_back("got " + Render(first));
    EXPECT_POOL_TALLY(pool, made - destroyed);
    Release(pool, first);
    Zval second = Acquire(pool);
    log.push_back("got " + Render(second));
    EXPECT_POOL_TALLY(pool, made - destroyed);
    Release(pool, second);
  }));
  EXPECT_EQ(Joined(log),
            "factory(1) check#1(1) destroy(1) factory(2) got 2 check#2(2) "
            "got 2 destroy(2)");
}

// A9 009
TEST_F(PoolHooksTest, BeforeReleaseFalseDestroysTheResource) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made, &log),
                            .destructor = CountingDestructor(&destroyed, &log),
                            .before_release =
                                [this](mock_zend::Call& call) {
                                  log.push_back("beforeRelease(" +
                                                Render(call.arg(0)) + ")");
                                  ZVAL_FALSE(call.result());
                                },
                            .max = 5});
    Zval resource = Acquire(pool);
    log.push_back("idle=" + std::to_string(IdleCount(pool)));
    Release(pool, resource);
    log.push_back("idle=" + std::to_string(IdleCount(pool)) +
                  " total=" + std::to_string(Count(pool)));
    EXPECT_POOL_TALLY(pool, made - destroyed);
  }));
  EXPECT_EQ(Joined(log),
            "factory(1) idle=0 beforeRelease(1) destroy(1) idle=0 total=0");
}

// A9 021
TEST_F(PoolHooksTest, BeforeAcquireExceptionIsSwallowedAsARejection) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool =
        NewPhpPool({.factory = CountingFactory(&made, &log),
                    .destructor = CountingDestructor(&destroyed, &log),
                    .before_acquire =
                        [this](mock_zend::Call& call) {
                          log.push_back("beforeAcquire(" + Render(call.arg(0)) +
                                        ") throws");
                          ThrowRuntime("validation error");
                        },
                    .min = 1,
                    .max = 2});
    Zval resource = Acquire(pool);
    log.push_back("got " + Render(resource));
    EXPECT_EQ(TakeExceptionText(), "");
    EXPECT_POOL_TALLY(pool, made - destroyed);
  }));
  EXPECT_EQ(Joined(log),
            "factory(1) beforeAcquire(1) throws destroy(1) factory(2) got 2");
}

// A9 022
TEST_F(PoolHooksTest, BeforeReleaseExceptionDestroysWithoutThrowing) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool(
        {.factory = CountingFactory(&made),
         .destructor = CountingDestructor(&destroyed, &log),
         .before_release = [](mock_zend::Call&) { ThrowRuntime("broken"); }});
    Zval resource = Acquire(pool);
    Release(pool, resource);
    EXPECT_EQ(TakeExceptionText(), "");
    EXPECT_EQ(IdleCount(pool), 0);
    EXPECT_EQ(Count(pool), 0);
    EXPECT_POOL_TALLY(pool, made - destroyed);
  }));
  EXPECT_EQ(Joined(log), "destroy(1)");
}

// A9 051
TEST_F(PoolHooksTest, DestructorExceptionAbortsTheRejectAndRetryLoop) {
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool(
        {.factory = CountingFactory(&made),
         .destructor =
             [](mock_zend::Call& call) {
               ThrowRuntime("boom destroying #" + Render(call.arg(0)));
             },
         .before_acquire =
             [](mock_zend::Call& call) { ZVAL_FALSE(call.result()); },
         .min = 1,
         .max = 4});
    Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back(TakeExceptionText());
      EXPECT_POOL_TALLY(pool, 0);
    });
    log.push_back("end");
  }));
  EXPECT_EQ(Joined(log), "end RuntimeException: boom destroying #1");
  EXPECT_EQ(made, 1);
}

TEST_F(PoolHooksTest, OnlyStrictFalseRejects) {
  EXPECT_TRUE(RunMain([&] {
    using Verdict = void (*)(zval*);
    const Verdict verdicts[] = {
        [](zval* r) { ZVAL_NULL(r); },         [](zval* r) { ZVAL_LONG(r, 0); },
        [](zval* r) { ZVAL_EMPTY_STRING(r); }, [](zval*) {},
        [](zval* r) { ZVAL_FALSE(r); },
    };
    int turn = 0;
    Zval pool = NewPhpPool(
        {.factory = CountingFactory(&made),
         .destructor = CountingDestructor(&destroyed),
         .before_release =
             [&](mock_zend::Call& call) { verdicts[turn](call.result()); },
         .max = 1});
    for (turn = 0; turn < 5; turn++) {
      Zval resource = Acquire(pool);
      Release(pool, resource);
      log.push_back(std::to_string(IdleCount(pool)));
    }
  }));
  EXPECT_EQ(Joined(log), "1 1 1 1 0");
  EXPECT_EQ(destroyed, 1);
}

}  // namespace
}  // namespace zar::pool_testing
