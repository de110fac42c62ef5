// Behaviours A1: creating a pool and validating its parameters.

#include <gtest/gtest.h>

#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolCreationTest = PoolTest;

// A1 001
TEST_F(PoolCreationTest, FactoryOnlyPoolStartsEmptyAndNeverCallsTheFactory) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made)});
    ASSERT_FALSE(pool.undef()) << TakeExceptionText();
    EXPECT_POOL_TALLY(pool, made);
    EXPECT_EQ(Count(pool), 0);
    EXPECT_EQ(IdleCount(pool), 0);
    EXPECT_EQ(ActiveCount(pool), 0);
    EXPECT_FALSE(IsClosed(pool));
  }));
  EXPECT_EQ(made, 0);
}

// A1 002
TEST_F(PoolCreationTest, PreWarmsMinResourcesBeforeTheConstructorReturns) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool(
        {.factory = CountingFactory(&made, &log), .min = 3, .max = 5});
    log.push_back("constructed");
    EXPECT_POOL_TALLY(pool, made);
    EXPECT_EQ(Count(pool), 3);
    EXPECT_EQ(IdleCount(pool), 3);
    EXPECT_EQ(ActiveCount(pool), 0);
  }));
  EXPECT_EQ(Joined(log), "factory(1) factory(2) factory(3) constructed");
}

// A1 010 (and the interval check, which comes from the source only)
TEST_F(PoolCreationTest, RejectsInvalidSizesWithExactValueErrors) {
  EXPECT_TRUE(RunMain([&] {
    struct Case {
      PoolSpec spec;
      const char* error;
    };
    const Case cases[] = {
        {{.factory = CountingFactory(&made), .min = -1},
         "ValueError: Async\\Pool::__construct(): Argument #6 ($min) must be "
         ">= 0"},
        {{.factory = CountingFactory(&made), .max = 0},
         "ValueError: Async\\Pool::__construct(): Argument #7 ($max) must be "
         ">= 1"},
        {{.factory = CountingFactory(&made), .min = 10, .max = 5},
         "ValueError: Async\\Pool::__construct(): Argument #6 ($min) must be "
         "<= max"},
        {{.factory = CountingFactory(&made), .healthcheck_interval = -1},
         "ValueError: Async\\Pool::__construct(): Argument #8 "
         "($healthcheckInterval) must be >= 0"},
    };
    for (const Case& c : cases) {
      Zval pool = NewPhpPool(c.spec);
      EXPECT_TRUE(pool.undef());
      EXPECT_EQ(TakeExceptionText(), c.error);
    }
  }));
  EXPECT_EQ(made, 0);
}

// A1 023
TEST_F(PoolCreationTest, ResourcesOfEveryValueTypeComeBackUnchanged) {
  EXPECT_TRUE(RunMain([&] {
    using Maker = void (*)(zval*);
    const std::pair<Maker, const char*> makers[] = {
        {[](zval* r) { ZVAL_LONG(r, 42); }, "42"},
        {[](zval* r) { ZVAL_STRING(r, "hello"); }, "'hello'"},
        {[](zval* r) {
           array_init(r);
           add_assoc_long(r, "a", 1);
           add_assoc_long(r, "b", 2);
         },
         "array"},
        {[](zval* r) { ZVAL_DOUBLE(r, 3.14); }, "3.14"},
        {[](zval* r) { ZVAL_TRUE(r); }, "true"},
    };
    const uint8_t types[] = {IS_LONG, IS_STRING, IS_ARRAY, IS_DOUBLE, IS_TRUE};
    for (int i = 0; i < 5; i++) {
      Maker maker = makers[i].first;
      Zval pool = NewPhpPool(
          {.factory = [maker](mock_zend::Call& call) { maker(call.result()); },
           .max = 1});
      Zval resource = TryAcquire(pool);
      ASSERT_EQ(resource.type(), types[i]) << makers[i].second;
      switch (types[i]) {
        case IS_LONG:
          EXPECT_EQ(resource.lval(), 42);
          break;
        case IS_STRING:
          EXPECT_EQ(Render(resource), "'hello'");
          break;
        case IS_ARRAY: {
          HashTable* ht = Z_ARRVAL_P(resource.get());
          EXPECT_EQ(zend_hash_num_elements(ht), 2u);
          zval* a = zend_hash_str_find(ht, ZEND_STRL("a"));
          zval* b = zend_hash_str_find(ht, ZEND_STRL("b"));
          ASSERT_NE(a, nullptr);
          ASSERT_NE(b, nullptr);
          EXPECT_EQ(Z_LVAL_P(a), 1);
          EXPECT_EQ(Z_LVAL_P(b), 2);
          break;
        }
        case IS_DOUBLE:
          EXPECT_DOUBLE_EQ(Z_DVAL_P(resource.get()), 3.14);
          break;
        default:
          break;
      }
      EXPECT_POOL_TALLY(pool, 1);
      Release(pool, resource);
    }
  }));
}

// A1 025
TEST_F(PoolCreationTest, PreWarmStopsAtTheFirstFactoryException) {
  int calls = 0;
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory =
                                [&calls](mock_zend::Call& call) {
                                  ++calls;
                                  if (calls == 2) {
                                    ThrowRuntime("Factory failed at " +
                                                 std::to_string(calls));
                                    return;
                                  }
                                  ZVAL_LONG(call.result(), calls);
                                },
                            .min = 5,
                            .max = 10});
    EXPECT_TRUE(pool.undef());
    EXPECT_EQ(TakeExceptionText(), "RuntimeException: Factory failed at 2");
  }));
  EXPECT_EQ(calls, 2);
}

// A1 050
TEST_F(PoolCreationTest, FactoryExceptionDuringPreWarmPropagates) {
  int calls = 0;
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory =
                                [&calls](mock_zend::Call& call) {
                                  ++calls;
                                  if (calls >= 2) {
                                    ThrowRuntime("no more");
                                    return;
                                  }
                                  ZVAL_LONG(call.result(), calls);
                                },
                            .destructor = CountingDestructor(&destroyed),
                            .min = 3,
                            .max = 5});
    EXPECT_TRUE(pool.undef());
    EXPECT_EQ(TakeExceptionText(), "RuntimeException: no more");
  }));
  EXPECT_EQ(calls, 2);
  // The object died with the exception: its pool closed and destroyed the
  // one resource it had made.
  EXPECT_EQ(destroyed, 1);
}

TEST_F(PoolCreationTest, PoolIsFinalCountableAndACircuitBreaker) {
  EXPECT_TRUE(RunMain([&] {
    zend_class_entry* ce = LookupClass("Async\\Pool");
    ASSERT_NE(ce, nullptr);
    EXPECT_TRUE(ce->ce_flags & ZEND_ACC_FINAL);
    EXPECT_TRUE(instanceof_function(ce, zend_ce_countable));
    zend_class_entry* breaker = LookupClass("Async\\CircuitBreaker");
    ASSERT_NE(breaker, nullptr);
    EXPECT_TRUE(instanceof_function(ce, breaker));
  }));
}

TEST_F(PoolCreationTest, PoolIsNotCloneable) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made)});
    EXPECT_EQ(pool.obj()->handlers->clone_obj, nullptr);
  }));
}

TEST_F(PoolCreationTest, UnconstructedPoolReportsNotInitialized) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewUnconstructedPool();
    EXPECT_TRUE(TryAcquire(pool).undef());
    EXPECT_EQ(TakeExceptionText(),
              "Async\\PoolException: Pool is not initialized");
    EXPECT_TRUE(Acquire(pool).undef());
    EXPECT_EQ(TakeExceptionText(),
              "Async\\PoolException: Pool is not initialized");
    Zval resource = Zval::Long(1);
    Release(pool, resource);
    EXPECT_EQ(TakeExceptionText(),
              "Async\\PoolException: Pool is not initialized");
    Close(pool);
    EXPECT_EQ(TakeExceptionText(), "");
    EXPECT_TRUE(IsClosed(pool));
    EXPECT_EQ(Count(pool), 0);
    EXPECT_EQ(IdleCount(pool), 0);
    EXPECT_EQ(ActiveCount(pool), 0);
  }));
}

// The circuit breaker methods of an object whose __construct never ran
// report it as the pool's other methods do, and never touch a pool that
// does not exist.
TEST_F(PoolCreationTest, UnconstructedPoolCircuitBreakerReportsNotInitialized) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewUnconstructedPool();
    Log log;
    for (const char* method :
         {"getState", "activate", "deactivate", "recover"}) {
      CallMethod(pool.get(), method);
      log.push_back(std::string(method) + ": " + TakeExceptionText());
    }
    Zval null = Zval::Null();
    CallMethod(pool.get(), "setCircuitBreakerStrategy", {null.get()});
    log.push_back("setCircuitBreakerStrategy: " + TakeExceptionText());
    EXPECT_EQ(Joined(log),
              "getState: Async\\PoolException: Pool is not initialized "
              "activate: Async\\PoolException: Pool is not initialized "
              "deactivate: Async\\PoolException: Pool is not initialized "
              "recover: Async\\PoolException: Pool is not initialized "
              "setCircuitBreakerStrategy: Async\\PoolException: Pool is not "
              "initialized");
  }));
}

}  // namespace
}  // namespace zar::pool_testing
