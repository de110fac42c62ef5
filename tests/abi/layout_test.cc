// The x86-64 layout of the ABI structs as C++ sees them (the same
// assertions are compiled as C in abi/src/registry.c), and the
// "inheritance by first member" rule of the ABI.

#include <type_traits>

#include "abi/src/layout_assert.h"
#include "gtest/gtest.h"

namespace zar::abi_testing {
namespace {

template <typename T>
constexpr bool kStandardLayout = std::is_standard_layout_v<T>;

static_assert(kStandardLayout<zend_async_event_t>);
static_assert(kStandardLayout<zend_async_event_callback_t>);
static_assert(kStandardLayout<zend_coroutine_event_callback_t>);
static_assert(kStandardLayout<zend_async_waker_t>);
static_assert(kStandardLayout<zend_coroutine_t>);
static_assert(kStandardLayout<zend_async_scope_t>);
static_assert(kStandardLayout<zend_async_pool_t>);
static_assert(kStandardLayout<zend_async_globals_t>);

TEST(AbiLayoutTest, EveryAwaitableEmbedsTheEventFirst) {
  EXPECT_EQ(offsetof(zend_coroutine_t, event), 0u);
  EXPECT_EQ(offsetof(zend_async_scope_t, event), 0u);
  EXPECT_EQ(offsetof(zend_future_t, event), 0u);
  EXPECT_EQ(offsetof(zend_async_channel_t, event), 0u);
  EXPECT_EQ(offsetof(zend_async_group_t, event), 0u);
  EXPECT_EQ(offsetof(zend_async_pool_t, event), 0u);
  EXPECT_EQ(offsetof(zend_async_timer_event_t, base), 0u);
  EXPECT_EQ(offsetof(zend_async_poll_event_t, base), 0u);
  EXPECT_EQ(offsetof(zend_async_signal_event_t, base), 0u);
  EXPECT_EQ(offsetof(zend_coroutine_event_callback_t, base), 0u);
}

TEST(AbiLayoutTest, PinnedSizesOfTheCentralStructs) {
  EXPECT_EQ(sizeof(zend_async_event_t), 104u);
  EXPECT_EQ(offsetof(zend_async_event_t, notify_handler), 96u);
  EXPECT_EQ(sizeof(zend_async_pool_t), 184u);
  EXPECT_EQ(offsetof(zend_async_pool_t, user_data), 176u);
  EXPECT_EQ(sizeof(zend_async_waker_t), 248u);
  EXPECT_EQ(sizeof(zend_coroutine_t), 216u);
  EXPECT_EQ(sizeof(zend_async_waker_inline_trigger_t), 24u);
}

}  // namespace
}  // namespace zar::abi_testing
