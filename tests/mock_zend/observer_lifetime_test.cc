// Fiber observers across an engine restart (Zend/zend_observer.h): module
// shutdown forgets every handler, as PHP's zend_observer_shutdown() does.
// The test starts and stops the engine itself.

#include <gtest/gtest.h>

#include <vector>

#include "zend_async_ref/testing/request.h"

extern "C" {
#include "zend_observer.h"
}

namespace {

std::vector<const char*>& Calls() {
  static auto* calls = new std::vector<const char*>;
  return *calls;
}

void OnSwitch(zend_fiber_context* from, zend_fiber_context* to) {
  (void)from;
  (void)to;
  Calls().push_back("switch");
}

void OnInit(zend_fiber_context* context) {
  (void)context;
  Calls().push_back("init");
}

void OnDestroy(zend_fiber_context* context) {
  (void)context;
  Calls().push_back("destroy");
}

TEST(MockZendObserverLifetimeTest, ModuleShutdownForgetsEveryHandler) {
  zend_fiber_context from{};
  zend_fiber_context to{};
  ASSERT_EQ(zar::testing::StartEngine({}), SUCCESS);
  zend_observer_fiber_switch_register(OnSwitch);
  zend_observer_fiber_init_register(OnInit);
  zend_observer_fiber_destroy_register(OnDestroy);
  zend_observer_fiber_switch_notify(&from, &to);
  EXPECT_EQ(Calls(), (std::vector<const char*>{"switch"}));
  zar::testing::StopEngine();

  Calls().clear();
  ASSERT_EQ(zar::testing::StartEngine({}), SUCCESS);
  zend_observer_fiber_init_notify(&from);
  zend_observer_fiber_switch_notify(&from, &to);
  zend_observer_fiber_destroy_notify(&from);
  zar::testing::StopEngine();
  EXPECT_TRUE(Calls().empty());
}

}  // namespace
