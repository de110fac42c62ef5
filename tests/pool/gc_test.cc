// Behaviours A11: the cycle collector sees what a pool holds.

#include <gtest/gtest.h>

#include "mock_zend/class_builder.h"
#include "tests/pool/support/pool_test.h"

namespace zar::pool_testing {
namespace {

using PoolGcTest = PoolTest;

// A11 053: the cycle through the factory.
TEST_F(PoolGcTest, CycleThroughTheFactoryIsCollected) {
  int collected = 0;
  EXPECT_TRUE(RunMain([&] {
    Cycle cycle =
        NewCycle([](mock_zend::Call& call) { ZVAL_LONG(call.result(), 1); });
    Zval destructor;
    mock_zend::MakeCallable(destructor.get(), CountingDestructor(&destroyed));
    Zval min = Zval::Long(1);
    Zval null = Zval::Null();
    Zval pool = ConstructPool({cycle.closure.get(), destructor.get(),
                               null.get(), null.get(), null.get(), min.get()});
    ASSERT_FALSE(pool.undef()) << TakeExceptionText();
    // unset($holder, $closure, $pool, $destructor)
    LeaveCycle(cycle, pool);
    destructor.Reset();
    collected = gc_collect_cycles();
  }));
  EXPECT_GE(collected, 3);  // holder, Pool, factory closure (+ destructor)
  EXPECT_EQ(destroyed, 1) << "the idle resource was destroyed on collection";
}

// A11 053: the same cycle through beforeRelease (and every other callable
// position, and the strategy).
TEST_F(PoolGcTest, CyclesThroughEveryCallableAndTheStrategyAreCollected) {
  EXPECT_TRUE(RunMain([&] {
    const uint32_t baseline = zend_objects_store_live_count();
    for (int position = 0; position < 6; position++) {
      SCOPED_TRACE("position " + std::to_string(position));
      Cycle cycle =
          NewCycle([](mock_zend::Call& call) { ZVAL_TRUE(call.result()); });
      Zval factory;
      mock_zend::MakeCallable(factory.get(), [](mock_zend::Call& call) {
        ZVAL_LONG(call.result(), 1);
      });
      Zval null = Zval::Null();
      std::vector<zval*> args = {factory.get(), null.get(), null.get(),
                                 null.get(), null.get()};
      if (position < 5) args[position] = cycle.closure.get();
      Zval pool = ConstructPool(args);
      ASSERT_FALSE(pool.undef()) << TakeExceptionText();
      if (position == 5) {
        zend_class_entry* ce =
            mock_zend::ClassBuilder("CycleStrategy")
                .Implements(LookupClass("Async\\CircuitBreakerStrategy"))
                .Property("holder")
                .Method("reportSuccess", [](mock_zend::Call&) {})
                .Method("reportFailure", [](mock_zend::Call&) {})
                .Method("shouldRecover", [](mock_zend::Call&) {})
                .Build();
        Zval strategy;
        object_init_ex(strategy.get(), ce);
        zend_update_property(nullptr, strategy.obj(), ZEND_STRL("holder"),
                             cycle.holder.get());
        SetStrategy(pool, strategy.get());
      }
      LeaveCycle(cycle, pool);
      factory.Reset();
      EXPECT_GT(zend_objects_store_live_count(), baseline);
      EXPECT_GE(gc_collect_cycles(), 3);
      EXPECT_EQ(zend_objects_store_live_count(), baseline);
    }
  }));
}

}  // namespace
}  // namespace zar::pool_testing
