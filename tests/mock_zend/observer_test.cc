// Tests of the fiber observers (Zend/zend_observer.h): handlers registered
// for the init, switch and destroy events run in registration order with
// the contexts given (module shutdown forgetting them:
// observer_lifetime_test.cc).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/mock_zend/engine_headers_c.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "zend_observer.h"
}

namespace {

class MockZendObserverTest : public zar::testing::RequestFixture {};

// What the handlers saw, in order: "<handler> <from> <to>" with each
// context named by the test.
std::vector<std::string>& Log() {
  static auto* log = new std::vector<std::string>;
  return *log;
}

zend_fiber_context first_context;
zend_fiber_context second_context;

const char* Name(const zend_fiber_context* context) {
  if (context == &first_context) return "first";
  if (context == &second_context) return "second";
  return "other";
}

template <const char* kHandler>
void OnSwitch(zend_fiber_context* from, zend_fiber_context* to) {
  Log().push_back(std::string(kHandler) + " " + Name(from) + " " + Name(to));
}

template <const char* kHandler>
void OnInitOrDestroy(zend_fiber_context* context) {
  Log().push_back(
      std::string(kHandler) + " " + Name(context) + " " +
      (context->top_observed_frame == nullptr ? "no-frame" : "frame"));
}

constexpr char kA[] = "a";
constexpr char kB[] = "b";

TEST_F(MockZendObserverTest, SwitchNotifyRunsEveryHandlerInRegistrationOrder) {
  Log().clear();
  zend_observer_fiber_switch_register(OnSwitch<kA>);
  zend_observer_fiber_switch_register(OnSwitch<kB>);
  zend_observer_fiber_switch_notify(&first_context, &second_context);
  zend_observer_fiber_switch_notify(&second_context, &first_context);
  EXPECT_EQ(Log(),
            (std::vector<std::string>{"a first second", "b first second",
                                      "a second first", "b second first"}));
}

TEST_F(MockZendObserverTest, InitNotifyClearsTheObservedFrameBeforeHandlers) {
  Log().clear();
  zend_execute_data frame{};
  first_context.top_observed_frame = &frame;
  zend_observer_fiber_init_register(OnInitOrDestroy<kA>);
  zend_observer_fiber_init_register(OnInitOrDestroy<kB>);
  zend_observer_fiber_init_notify(&first_context);
  EXPECT_EQ(first_context.top_observed_frame, nullptr);
  EXPECT_EQ(Log(),
            (std::vector<std::string>{"a first no-frame", "b first no-frame"}));
}

TEST_F(MockZendObserverTest, DestroyNotifyRunsTheDestroyHandlersOnly) {
  Log().clear();
  zend_observer_fiber_destroy_register(OnInitOrDestroy<kA>);
  zend_observer_fiber_switch_register(OnSwitch<kB>);
  zend_observer_fiber_destroy_notify(&second_context);
  EXPECT_EQ(Log(), (std::vector<std::string>{"a second no-frame"}));
}

TEST_F(MockZendObserverTest, NotifyWithoutHandlersChangesNothing) {
  Log().clear();
  zend_execute_data frame{};
  second_context.top_observed_frame = &frame;
  zend_observer_fiber_switch_notify(&first_context, &second_context);
  zend_observer_fiber_destroy_notify(&second_context);
  EXPECT_EQ(second_context.top_observed_frame, &frame);
  EXPECT_TRUE(Log().empty());
  second_context.top_observed_frame = nullptr;
}

TEST_F(MockZendObserverTest, AHandlerRegisteredFromCIsCalled) {
  surface_c_observer_register();
  zend_observer_fiber_switch_notify(&first_context, &second_context);
  EXPECT_EQ(surface_c_observer_switches(), 1);
}

}  // namespace
