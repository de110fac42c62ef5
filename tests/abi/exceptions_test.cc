// Exception helpers (zend_async_new_exception(), zend_async_throw*() in
// true-async/php-src Zend/zend_async_API.c, de8c19de), with and without a
// scheduler that registers its own classes.

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mock_zend/inspect.h"
#include "tests/abi/support/fake_async.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace zar::abi_testing {
namespace {

using ::testing::ElementsAre;

// No scheduler: the engine's own classes.
class AbiExceptionsDefaultTest : public zar::testing::RequestFixture {};

// The fake scheduler's classes (see fake_async.h).
class AbiExceptionsTest : public zar::testing::RequestFixture {
 protected:
  std::vector<zend_module_entry*> Modules() override {
    return {FakeAsyncModule()};
  }
};

std::string Describe(zend_object* exception) {
  return mock_zend::ClassName(exception) + ": " +
         mock_zend::ExceptionMessage(exception);
}

TEST_F(AbiExceptionsTest, NewExceptionUsesTheRegisteredClassAndFormats) {
  zend_object* exception = zend_async_new_exception(
      ZEND_ASYNC_EXCEPTION_TIMEOUT, "waited %d ms for %s", 30, "io");

  EXPECT_EQ(Describe(exception),
            "Async\\TimeoutException: waited 30 ms for io");
  EXPECT_EQ(GC_REFCOUNT(exception), 1u);  // the caller's
  EXPECT_EQ(EG(exception), nullptr);      // not thrown
  OBJ_RELEASE(exception);
}

TEST_F(AbiExceptionsTest, NewExceptionOfClassNoIsTheDefaultClass) {
  zend_object* exception =
      zend_async_new_exception(ZEND_ASYNC_CLASS_NO, "plain");
  EXPECT_EQ(Describe(exception), "Async\\AsyncException: plain");
  OBJ_RELEASE(exception);
}

TEST_F(AbiExceptionsDefaultTest, NewExceptionWithoutASchedulerIsAnException) {
  zend_object* exception =
      zend_async_new_exception(ZEND_ASYNC_EXCEPTION_DEFAULT, "plain");
  EXPECT_EQ(Describe(exception), "Exception: plain");
  OBJ_RELEASE(exception);
}

TEST_F(AbiExceptionsTest, ThrowThrowsTheRegisteredClass) {
  zend_object* thrown =
      zend_async_throw(ZEND_ASYNC_EXCEPTION_CANCELLATION, "stop %s", "now");

  EXPECT_EQ(thrown, EG(exception));
  EXPECT_EQ(TakeExceptionText(), "Async\\AsyncCancellation: stop now");
}

TEST_F(AbiExceptionsTest, ThrowOfClassNoThrowsTheDefaultClass) {
  zend_async_throw(ZEND_ASYNC_CLASS_NO, "x");
  EXPECT_EQ(TakeExceptionText(), "Async\\AsyncException: x");
}

TEST_F(AbiExceptionsTest, ThrowCancellationHasADefaultMessage) {
  zend_async_throw_cancellation(nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncCancellation: The operation was canceled");
}

TEST_F(AbiExceptionsDefaultTest, ThrowCancellationWithoutSchedulerIsAnError) {
  zend_async_throw_cancellation(nullptr);
  EXPECT_EQ(TakeExceptionText(), "Error: The operation was canceled");
}

TEST_F(AbiExceptionsTest, ThrowCancellationAfterATimeoutSaysSo) {
  zend_async_throw(ZEND_ASYNC_EXCEPTION_TIMEOUT, "timer fired");

  zend_async_throw_cancellation(nullptr);

  zend_object* exception = mock_zend::TakeException();
  ASSERT_NE(exception, nullptr);
  // The pending timeout becomes the previous of the cancellation.
  EXPECT_THAT(mock_zend::ExceptionChain(exception),
              ElementsAre("Async\\AsyncCancellation: The operation was "
                          "canceled by timeout",
                          "Async\\TimeoutException: timer fired"));
  OBJ_RELEASE(exception);
}

TEST_F(AbiExceptionsTest, ThrowCancellationAfterAnotherErrorUsesThePlainText) {
  zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "other");

  zend_async_throw_cancellation(nullptr);

  zend_object* exception = mock_zend::TakeException();
  ASSERT_NE(exception, nullptr);
  EXPECT_EQ(Describe(exception),
            "Async\\AsyncCancellation: The operation was canceled");
  OBJ_RELEASE(exception);
}

TEST_F(AbiExceptionsTest, ThrowCancellationFormatsTheCallersArguments) {
  zend_async_throw_cancellation("cancelled after %d retries of %s", 3, "read");
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncCancellation: cancelled after 3 retries of read");
}

TEST_F(AbiExceptionsTest, ThrowTimeoutHasADefaultMessage) {
  zend_async_throw_timeout(nullptr, 5000);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\TimeoutException: A timeout of 5000 microseconds occurred");
}

TEST_F(AbiExceptionsDefaultTest, ThrowTimeoutWithoutSchedulerIsAnException) {
  zend_async_throw_timeout(nullptr, 7);
  EXPECT_EQ(TakeExceptionText(),
            "Exception: A timeout of 7 microseconds occurred");
}

TEST_F(AbiExceptionsTest, ThrowTimeoutPassesTheTimeoutToACustomFormat) {
  zend_async_throw_timeout("gave up after " ZEND_LONG_FMT " us", 12);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\TimeoutException: gave up after 12 us");
}

}  // namespace
}  // namespace zar::abi_testing
