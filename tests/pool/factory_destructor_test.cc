// Behaviours A3: the factory and destructor callbacks and their errors.

#include <gtest/gtest.h>

#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolFactoryDestructorTest = PoolTest;

// A3 007
TEST_F(PoolFactoryDestructorTest, DestructorRunsOnCloseNotOnRelease) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made, &log),
                            .destructor = CountingDestructor(&destroyed, &log),
                            .min = 1,
                            .max = 2});
    Zval resource = TryAcquire(pool);
    log.push_back("acquired " + Render(resource));
    Release(pool, resource);
    log.push_back("released");
    EXPECT_POOL_TALLY(pool, made - destroyed);
    Close(pool);
    log.push_back("closed");
    EXPECT_POOL_TALLY(pool, made - destroyed);
  }));
  EXPECT_EQ(Joined(log), "factory(1) acquired 1 released destroy(1) closed");
}

// A3 017
TEST_F(PoolFactoryDestructorTest, FactoryExceptionReachesTryAcquire) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool(
        {.factory = [](mock_zend::Call&) { ThrowRuntime("Factory failed"); }});
    Zval resource = TryAcquire(pool);
    EXPECT_TRUE(resource.undef());
    EXPECT_EQ(TakeExceptionText(), "RuntimeException: Factory failed");
    EXPECT_POOL_TALLY(pool, 0);
  }));
}

// A3 018 (despite the upstream file name, the exception propagates)
TEST_F(PoolFactoryDestructorTest, DestructorExceptionPropagatesFromClose) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool =
        NewPhpPool({.factory = CountingFactory(&made),
                    .destructor = ThrowingDestructor(&log, "Destructor failed"),
                    .min = 1});
    Close(pool);
    EXPECT_EQ(TakeExceptionText(), "RuntimeException: Destructor failed");
    EXPECT_TRUE(IsClosed(pool));
    EXPECT_POOL_TALLY(pool, 0);
  }));
  EXPECT_EQ(Joined(log), "destroy(1)");
}

// A3 027
TEST_F(PoolFactoryDestructorTest, ClosureCallbacksRunInLifecycleOrder) {
  EXPECT_TRUE(RunMain([&] {
    auto logging_true = [this](const char* name) {
      return [this, name](mock_zend::Call& call) {
        log.push_back(std::string(name) + "(" + Render(call.arg(0)) + ")");
        ZVAL_TRUE(call.result());
      };
    };
    Zval pool = NewPhpPool({.factory = CountingFactory(&made, &log),
                            .destructor =
                                [this](mock_zend::Call& call) {
                                  log.push_back("destructor(" +
                                                Render(call.arg(0)) + ")");
                                },
                            .before_acquire = logging_true("beforeAcquire"),
                            .before_release = logging_true("beforeRelease"),
                            .min = 1,
                            .max = 2});
    log.push_back("---acquire---");
    Zval resource = Acquire(pool);
    log.push_back("---release---");
    Release(pool, resource);
    log.push_back("---close---");
    Close(pool);
    EXPECT_POOL_TALLY(pool, 0);
  }));
  EXPECT_EQ(Joined(log),
            "factory(1) ---acquire--- beforeAcquire(1) ---release--- "
            "beforeRelease(1) ---close--- destructor(1)");
}

// A3 047
TEST_F(PoolFactoryDestructorTest, FailedFactoriesLeaveNoPhantomSlot) {
  int calls = 0;  // `made` counts the calls that did not fail
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory =
                           [&](mock_zend::Call& call) {
                             ++calls;
                             if (calls <= 2) {
                               ThrowRuntime("factory failed (call " +
                                            std::to_string(calls) + ")");
                               return;
                             }
                             ++made;
                             object_init(call.result());
                           },
                       .max = 2});
    for (int i = 0; i < 3; i++) {
      zend_coroutine_t* worker = Spawn([&] {
        Zval resource = Acquire(pool);
        if (resource.undef()) {
          log.push_back("caught " + TakeExceptionText());
        } else {
          log.push_back("got " +
                        std::string(ZSTR_VAL(Z_OBJCE_P(resource.get())->name)));
          // Kept: the pool counts it as active.
          EXPECT_POOL_TALLY(pool, made);
          Release(pool, resource);
        }
        EXPECT_POOL_TALLY(pool, made);
      });
      Await(worker);
    }
  }));
  EXPECT_EQ(Joined(log),
            "caught RuntimeException: factory failed (call 1) "
            "caught RuntimeException: factory failed (call 2) got stdClass");
  EXPECT_EQ(Count(pool), 1);
}

TEST_F(PoolFactoryDestructorTest, FactoryReturningNothingYieldsNull) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = [](mock_zend::Call&) {}, .max = 1});
    Zval resource = TryAcquire(pool);
    EXPECT_TRUE(resource.is_null());
    EXPECT_EQ(TakeExceptionText(), "");
    EXPECT_EQ(ActiveCount(pool), 1) << "a null resource is still lent out";
    Release(pool, resource);
    EXPECT_EQ(IdleCount(pool), 1);
  }));
}

TEST_F(PoolFactoryDestructorTest, DestructorGetsItsOwnReferenceAndPoolDropsIt) {
  uint32_t refcount_in_destructor = 0;
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory =
                                [](mock_zend::Call& call) {
                                  Zval object = NewObject(7);
                                  ZVAL_COPY(call.result(), object.get());
                                },
                            .destructor =
                                [&](mock_zend::Call& call) {
                                  refcount_in_destructor =
                                      Z_REFCOUNT_P(call.arg(0));
                                },
                            .min = 1});
    Close(pool);
  }));
  // The ring's reference and the argument's.
  EXPECT_EQ(refcount_in_destructor, 2u);
}

}  // namespace
}  // namespace zar::pool_testing
