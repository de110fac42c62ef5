// Tests of the fiber surface (zend_fibers.h): PHP's types and layout, the
// switch-blocking counter, and the context-switching calls the mock does
// not run, which fail with an E_CORE_ERROR naming themselves.

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "tests/mock_zend/fibers_c.h"
#include "tests/mock_zend/support/engine_test.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "zend_fibers.h"
}

namespace {

using zar::mock_zend_testing::ExpectFieldsInOrder;
using zar::mock_zend_testing::ExpectOnlyError;
using zar::mock_zend_testing::UnsupportedMessage;

class MockZendFibersTest : public zar::testing::RequestFixture {};

// The E_CORE_ERROR of a context-switching call the mock does not run.
std::string Unsupported(const std::string& function) {
  return UnsupportedMessage(
      function,
      "it runs no PHP fibers (coroutines are switched by the async scheduler)");
}

std::string LastError() {
  const uint32_t count = zend_mock_error_count();
  return count == 0 ? "" : zend_mock_error_message(count - 1);
}

TEST_F(MockZendFibersTest, TypesEmbedInAnExtensionStructFromC) {
  EXPECT_EQ(surface_c_fiber_types_check(), 0);
}

TEST_F(MockZendFibersTest, LayoutIsTheSameInCAndCxx) {
  EXPECT_EQ(surface_c_sizeof_fiber_context(), sizeof(zend_fiber_context));
  EXPECT_EQ(surface_c_sizeof_fiber_transfer(), sizeof(zend_fiber_transfer));
  EXPECT_EQ(surface_c_sizeof_fiber(), sizeof(zend_fiber));
  EXPECT_EQ(surface_c_offsetof_fiber_context(), offsetof(zend_fiber, context));
}

TEST_F(MockZendFibersTest, ContextFieldsAreInPhpsOrder) {
  // PHP's field order: each offset past the one before.
  ExpectFieldsInOrder({
      offsetof(zend_fiber_context, handle),
      offsetof(zend_fiber_context, kind),
      offsetof(zend_fiber_context, function),
      offsetof(zend_fiber_context, cleanup),
      offsetof(zend_fiber_context, stack),
      offsetof(zend_fiber_context, status),
      offsetof(zend_fiber_context, top_observed_frame),
      offsetof(zend_fiber_context, reserved),
  });
  EXPECT_EQ(offsetof(zend_fiber, std), 0u);
  EXPECT_EQ(sizeof(zend_fiber_context),
            7 * sizeof(void*) + ZEND_MAX_RESERVED_RESOURCES * sizeof(void*));
}

TEST_F(MockZendFibersTest, FromContextFindsTheFiberAroundIt) {
  zend_fiber fiber{};
  fiber.context.kind = zend_ce_fiber;
  EXPECT_EQ(zend_fiber_get_context(&fiber), &fiber.context);
  EXPECT_EQ(zend_fiber_from_context(&fiber.context), &fiber);
}

TEST_F(MockZendFibersTest, SwitchBlockNestsUntilEveryBlockIsUndone) {
  EXPECT_FALSE(zend_fiber_switch_blocked());
  zend_fiber_switch_block();
  zend_fiber_switch_block();
  EXPECT_TRUE(zend_fiber_switch_blocked());
  zend_fiber_switch_unblock();
  EXPECT_TRUE(zend_fiber_switch_blocked());
  zend_fiber_switch_unblock();
  EXPECT_FALSE(zend_fiber_switch_blocked());
  EXPECT_EQ(zend_mock_error_count(), 0u);
}

TEST_F(MockZendFibersTest, UnblockWithoutBlockWarnsAndStaysUnblocked) {
  zend_fiber_switch_unblock();
  EXPECT_FALSE(zend_fiber_switch_blocked());
  ASSERT_NO_FATAL_FAILURE(
      ExpectOnlyError(E_CORE_WARNING,
                      "zend_fiber_switch_unblock() called without a matching "
                      "zend_fiber_switch_block()"));
  zend_fiber_switch_block();
  EXPECT_TRUE(zend_fiber_switch_blocked());
  zend_fiber_switch_unblock();
  EXPECT_FALSE(zend_fiber_switch_blocked());
}

void NeverRuns(zend_fiber_transfer* transfer) { (void)transfer; }

TEST_F(MockZendFibersTest, InitContextFailsWithACoreErrorNamingIt) {
  ExpectFatalErrors({Unsupported("zend_fiber_init_context")});
  zend_fiber_context context;
  memset(&context, 0xab, sizeof(context));
  EXPECT_EQ(zend_fiber_init_context(&context, nullptr, NeverRuns,
                                    ZEND_FIBER_DEFAULT_C_STACK_SIZE),
            FAILURE);
  EXPECT_EQ(context.handle, nullptr);
  EXPECT_EQ(context.stack, nullptr);
  EXPECT_EQ(context.function, nullptr);
  EXPECT_EQ(context.status, ZEND_FIBER_STATUS_DEAD);
  ExpectOnlyError(E_CORE_ERROR, Unsupported("zend_fiber_init_context"));
}

TEST_F(MockZendFibersTest, InitContextInsideZendTryBailsOut) {
  ExpectFatalErrors({Unsupported("zend_fiber_init_context")});
  zend_fiber_context context{};
  volatile bool reached_after = false;
  volatile bool caught = false;
  zend_try {
    zend_fiber_init_context(&context, nullptr, NeverRuns, 0);
    reached_after = true;
  }
  zend_catch { caught = true; }
  zend_end_try();
  EXPECT_TRUE(caught);
  EXPECT_FALSE(reached_after);
}

TEST_F(MockZendFibersTest, SwitchContextFlagsTheTransferAsFailed) {
  ExpectFatalErrors({Unsupported("zend_fiber_switch_context")});
  zend_fiber_context target{};
  zend_fiber_transfer transfer{};
  transfer.context = &target;
  ZVAL_LONG(&transfer.value, 9);
  zend_fiber_switch_context(&transfer);
  EXPECT_EQ(transfer.flags, ZEND_FIBER_TRANSFER_FLAG_ERROR);
  EXPECT_EQ(transfer.context, &target);
  EXPECT_EQ(Z_LVAL(transfer.value), 9);
  EXPECT_EQ(
      LastError().rfind("zend_fiber_switch_context() is not supported", 0), 0u)
      << LastError();
}

TEST_F(MockZendFibersTest, StartResumeSuspendFailAndReturnNull) {
  ExpectFatalErrors({Unsupported("zend_fiber_start"),
                     Unsupported("zend_fiber_resume"),
                     Unsupported("zend_fiber_suspend")});
  zend_fiber fiber{};
  zval result;
  ZVAL_LONG(&result, 1);
  EXPECT_EQ(zend_fiber_start(&fiber, &result), FAILURE);
  EXPECT_EQ(Z_TYPE(result), IS_NULL);
  EXPECT_EQ(LastError().rfind("zend_fiber_start() is not supported", 0), 0u);
  ZVAL_LONG(&result, 1);
  zend_fiber_resume(&fiber, nullptr, &result);
  EXPECT_EQ(Z_TYPE(result), IS_NULL);
  EXPECT_EQ(LastError().rfind("zend_fiber_resume() is not supported", 0), 0u);
  ZVAL_LONG(&result, 1);
  zend_fiber_suspend(&fiber, nullptr, &result);
  EXPECT_EQ(Z_TYPE(result), IS_NULL);
  EXPECT_EQ(LastError().rfind("zend_fiber_suspend() is not supported", 0), 0u);
  EXPECT_EQ(zend_mock_error_count(), 3u);
}

int cleanups = 0;
void CountingCleanup(zend_fiber_context* context) {
  (void)context;
  cleanups++;
}

TEST_F(MockZendFibersTest, DestroyContextRunsTheCleanup) {
  cleanups = 0;
  zend_fiber_context context{};
  context.cleanup = CountingCleanup;
  zend_fiber_destroy_context(&context);
  EXPECT_EQ(cleanups, 1);
  zend_fiber_context bare{};
  zend_fiber_destroy_context(&bare);
  zend_fiber_destroy_context(nullptr);
  EXPECT_EQ(cleanups, 1);
  EXPECT_EQ(zend_mock_error_count(), 0u);
}

TEST_F(MockZendFibersTest, TheMockRegistersNoFiberClass) {
  EXPECT_EQ(zend_ce_fiber, nullptr);
}

}  // namespace
