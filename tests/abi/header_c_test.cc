// Runs the C11 checks of header_c_test.c inside an engine request.

#include "tests/abi/header_c_test.h"

#include "gtest/gtest.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace zar::abi_testing {
namespace {

class AbiHeaderCTest : public zar::testing::RequestFixture {};

TEST_F(AbiHeaderCTest, VersionMacros) { EXPECT_EQ(zar_c_check_version(), 0); }

TEST_F(AbiHeaderCTest, FlagMacros) { EXPECT_EQ(zar_c_check_event_flags(), 0); }

TEST_F(AbiHeaderCTest, RefcountMacros) {
  EXPECT_EQ(zar_c_check_event_refcount(), 0);
}

TEST_F(AbiHeaderCTest, CallbacksPushAndCallbackMacros) {
  EXPECT_EQ(zar_c_check_callbacks_push(), 0);
}

TEST_F(AbiHeaderCTest, WakerMacros) {
  EXPECT_EQ(zar_c_check_waker_macros(), 0);
}

TEST_F(AbiHeaderCTest, MicrotaskMacros) {
  EXPECT_EQ(zar_c_check_microtask(), 0);
}

TEST_F(AbiHeaderCTest, GlobalsMacros) { EXPECT_EQ(zar_c_check_globals(), 0); }

TEST_F(AbiHeaderCTest, VersionTwentyFourToTwentySixAdditionsCompileAsC) {
  EXPECT_EQ(zar_c_check_v026_additions(), 0);
}

TEST_F(AbiHeaderCTest, CAndCxxAgreeOnStructSizes) {
  // The trigger is the one struct whose size differs: C has a flexible
  // array, C++ a one-element array.
  EXPECT_EQ(zar_c_sizeof_waker_trigger(), 16u);
  EXPECT_EQ(sizeof(zend_async_waker_trigger_t), 24u);
  EXPECT_EQ(offsetof(zend_async_waker_trigger_t, data), 16u);
  EXPECT_EQ(zar_c_sizeof_waker(), sizeof(zend_async_waker_t));
  EXPECT_EQ(zar_c_sizeof_coroutine(), sizeof(zend_coroutine_t));
}

}  // namespace
}  // namespace zar::abi_testing
