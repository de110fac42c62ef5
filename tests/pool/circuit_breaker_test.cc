// Behaviours A10: the circuit breaker and its strategy.

#include <gtest/gtest.h>

#include "mock_zend/inspect.h"
#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

struct StrategyRecord {
  int success = 0;
  int failure = 0;
  int should_recover = 0;
  std::vector<zend_object*> sources;  // borrowed, compared only
  std::vector<std::string> errors;    // "Class: message"
  bool throws = false;
};

// An object of a userland class implementing Async\CircuitBreakerStrategy
// that records every call into `record`.
Zval NewRecordingStrategy(StrategyRecord* record) {
  return NewStrategy(
      "RecordingStrategy",
      [record](mock_zend::Call& call) {
        record->success++;
        record->sources.push_back(Z_TYPE_P(call.arg(0)) == IS_OBJECT
                                      ? Z_OBJ_P(call.arg(0))
                                      : nullptr);
        if (record->throws) ThrowRuntime("strategy failed");
      },
      [record](mock_zend::Call& call) {
        record->failure++;
        record->sources.push_back(Z_TYPE_P(call.arg(0)) == IS_OBJECT
                                      ? Z_OBJ_P(call.arg(0))
                                      : nullptr);
        zend_object* error = Z_OBJ_P(call.arg(1));
        record->errors.push_back(mock_zend::ClassName(error) + ": " +
                                 mock_zend::ExceptionMessage(error));
        if (record->throws) ThrowRuntime("strategy failed");
      },
      [record](mock_zend::Call& call) {
        record->should_recover++;
        ZVAL_TRUE(call.result());
      });
}

// $pool->setCircuitBreakerStrategy(a new recording strategy): the pool
// keeps the strategy.
void SetRecordingStrategy(Zval& pool, StrategyRecord* record) {
  Zval strategy = NewRecordingStrategy(record);
  SetStrategy(pool, strategy.get());
}

class PoolCircuitBreakerTest : public PoolTest {
 protected:
  // A new pool (CountingFactory(&made), the defaults) with a recording
  // strategy into `record`.
  Zval NewRecordedPool() {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made)});
    SetRecordingStrategy(pool, &record);
    return pool;
  }

  // The calls the strategy of the scenario saw.
  StrategyRecord record;
};

// A10 040
TEST_F(PoolCircuitBreakerTest, StatesAreSetByActivateDeactivateRecover) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made)});
    log.push_back(State(pool));
    CallMethod(pool.get(), "deactivate");
    log.push_back(State(pool));
    CallMethod(pool.get(), "recover");
    log.push_back(State(pool));
    CallMethod(pool.get(), "activate");
    log.push_back(State(pool));
    // Unrestricted: any state may follow any other.
    CallMethod(pool.get(), "recover");
    CallMethod(pool.get(), "recover");
    CallMethod(pool.get(), "deactivate");
    log.push_back(State(pool));
    Zval same_case = CallMethod(pool.get(), "getState");
    Zval again = CallMethod(pool.get(), "getState");
    EXPECT_EQ(same_case.obj(), again.obj()) << "enum cases are singletons";
  }));
  EXPECT_EQ(Joined(log), "ACTIVE INACTIVE RECOVERING ACTIVE INACTIVE");
}

// A10 041
TEST_F(PoolCircuitBreakerTest, InactiveBreakerRejectsAcquireEvenWithIdle) {
  std::string caught;
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory = CountingFactory(&made), .min = 2});
    CallMethod(pool.get(), "deactivate");
    Spawn([&] {
      Zval resource = Acquire(pool);
      EXPECT_TRUE(resource.undef());
      caught = TakeExceptionText();
      EXPECT_POOL_TALLY(pool, made);
    });
  }));
  EXPECT_EQ(caught,
            "Async\\ServiceUnavailableException: Service is unavailable "
            "(circuit breaker is open)");
  EXPECT_EQ(IdleCount(pool), 2);
}

// A10 042
TEST_F(PoolCircuitBreakerTest, TryAcquireReturnsNullWhileInactive) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made), .min = 2});
    Zval first = TryAcquire(pool);
    log.push_back(first.is_null() ? "null" : "got");
    Release(pool, first);
    CallMethod(pool.get(), "deactivate");
    Zval second = TryAcquire(pool);
    log.push_back(second.is_null() ? "null" : "got");
    EXPECT_EQ(TakeExceptionText(), "");
    CallMethod(pool.get(), "activate");
    Zval third = TryAcquire(pool);
    log.push_back(third.is_null() ? "null" : "got");
    Release(pool, third);
    EXPECT_POOL_TALLY(pool, made);
  }));
  EXPECT_EQ(Joined(log), "got null got");
}

// A10 043
TEST_F(PoolCircuitBreakerTest, RecoveringAdmitsRequests) {
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory = CountingFactory(&made), .min = 1});
    CallMethod(pool.get(), "recover");
    log.push_back(State(pool));
    Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back("acquired " + Render(resource));
      Release(pool, resource);
    });
  }));
  EXPECT_EQ(Joined(log), "RECOVERING acquired 1");
}

// A10 044
TEST_F(PoolCircuitBreakerTest, SettingAndClearingTheStrategyHasNoSideEffects) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewRecordedPool();
    EXPECT_EQ(TakeExceptionText(), "");
    Zval null_strategy = Zval::Null();
    SetStrategy(pool, null_strategy.get());
    EXPECT_EQ(TakeExceptionText(), "");
    EXPECT_EQ(State(pool), "ACTIVE");
  }));
  EXPECT_EQ(record.success + record.failure + record.should_recover, 0);
}

// A10 045
TEST_F(PoolCircuitBreakerTest, SuccessfulReleaseReportsSuccessWithThePool) {
  zend_object* pool_object = nullptr;
  EXPECT_TRUE(RunMain([&] {
    pool = NewPhpPool({.factory = CountingFactory(&made), .min = 1});
    pool_object = pool.obj();
    SetRecordingStrategy(pool, &record);
    Spawn([&] {
      Zval resource = Acquire(pool);
      Release(pool, resource);
    });
  }));
  EXPECT_EQ(record.success, 1);
  EXPECT_EQ(record.failure, 0);
  ASSERT_EQ(record.sources.size(), 1u);
  EXPECT_EQ(record.sources[0], pool_object);
  EXPECT_EQ(record.should_recover, 0);
}

// A10 052
TEST_F(PoolCircuitBreakerTest, RejectedReleaseReportsValidationFailure) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made),
                            .before_release = [](mock_zend::Call& call) {
                              ZVAL_FALSE(call.result());
                            }});
    SetRecordingStrategy(pool, &record);
    Zval resource = Acquire(pool);
    Release(pool, resource);
  }));
  EXPECT_EQ(record.failure, 1);
  EXPECT_EQ(record.success, 0);
  ASSERT_EQ(record.errors.size(), 1u);
  EXPECT_EQ(record.errors[0], "Exception: Resource validation failed");
}

// A10 066
TEST_F(PoolCircuitBreakerTest, DeactivateHandsReservationOn) {
  bool released = false;
  RunWithPool(1, [&] {
    SpawnHolder(pool, 2, &released);  // its release reserves it for W1
    for (const char* name : {"W1", "W2"}) {
      Spawn([&, name] {
        Zval resource = Acquire(pool);
        log.push_back(std::string(name) + " " + TakeExceptionText());
        EXPECT_POOL_TALLY(pool, made);
      });
    }
    ASSERT_TRUE(YieldUntil([&] { return released; }));
    CallMethod(pool.get(), "deactivate");
  });
  EXPECT_EQ(log, (Log{"W1 Async\\ServiceUnavailableException: Service is "
                      "unavailable (circuit breaker is open)",
                      "W2 Async\\ServiceUnavailableException: Service is "
                      "unavailable (circuit breaker is open)"}));
  // No reservation is left: once active again, the idle resource is open
  // to a caller that never waited.
  CallMethod(pool.get(), "activate");
  Zval probe = TryAcquire(pool);
  EXPECT_EQ(Render(probe), "1");
  Release(pool, probe);
}

TEST_F(PoolCircuitBreakerTest, StrategyExceptionsAreSwallowed) {
  record.throws = true;
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewRecordedPool();
    Zval resource = Acquire(pool);
    Release(pool, resource);
    EXPECT_EQ(TakeExceptionText(), "");
    EXPECT_EQ(IdleCount(pool), 1);
  }));
  EXPECT_EQ(record.success, 1);
}

TEST_F(PoolCircuitBreakerTest, ParkedWaitersAreNotWokenByDeactivate) {
  RunWithPool(1, [&] {
    Zval held = Acquire(pool);
    Spawn([&] {
      Zval resource = Acquire(pool);
      log.push_back("waiter " + (resource.undef() ? TakeExceptionText()
                                                  : Render(resource)));
      if (!resource.undef()) Release(pool, resource);
    });
    Yield();
    CallMethod(pool.get(), "deactivate");
    YieldTimes(3);
    log.push_back("still parked");
    CallMethod(pool.get(), "activate");
    Release(pool, held);
  });
  EXPECT_EQ(Joined(log), "still parked waiter 1");
}

TEST_F(PoolCircuitBreakerTest, ShouldRecoverIsNeverCalled) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewRecordedPool();
    CallMethod(pool.get(), "deactivate");
    TryAcquire(pool);
    Zval resource = Acquire(pool);
    EXPECT_EQ(TakeExceptionText(),
              "Async\\ServiceUnavailableException: Service is unavailable "
              "(circuit breaker is open)");
    CallMethod(pool.get(), "recover");
    resource = Acquire(pool);
    Release(pool, resource);
  }));
  EXPECT_EQ(record.should_recover, 0);
  EXPECT_EQ(record.success, 1);
}

TEST_F(PoolCircuitBreakerTest, StrategyMustImplementTheInterface) {
  EXPECT_TRUE(RunMain([&] {
    Zval pool = NewPhpPool({.factory = CountingFactory(&made)});
    Zval not_a_strategy = NewObject(1);
    SetStrategy(pool, not_a_strategy.get());
    const std::string error = TakeExceptionText();
    EXPECT_NE(error.find("TypeError"), std::string::npos) << error;
  }));
}

}  // namespace
}  // namespace zar::pool_testing
