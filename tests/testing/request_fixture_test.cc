// The request fixture and the functions it is made of (request.h): a clean
// request passes; a leaked emalloc block, a live object, a fatal error (an
// uncaught exception among them) or a bailout the test did not declare
// fails the test.

#include "zend_async_ref/testing/request_fixture.h"

#include <gtest/gtest-spi.h>

#include <string>
#include <utility>
#include <vector>

#include "core/extension.h"
#include "zend_async_ref/testing/coroutines.h"

extern "C" {
#include "Zend/zend_exceptions.h"
}

namespace zar::testing {
namespace {

// A fixture run by hand, so that a test can watch it fail; with the
// reference async extension when `async`.
class HandRunFixture : public RequestFixture {
 public:
  explicit HandRunFixture(bool async = false) : async_(async) {}
  // SetUp, `main` as the script, `after` in the request after the script,
  // TearDown.
  void Run(
      const std::function<void()>& main,
      const std::function<void()>& after = [] {}) {
    SetUp();
    RunMain(main);
    after();
    TearDown();
  }
  void TestBody() override {}
  using RequestFixture::ExpectBailout;
  using RequestFixture::ExpectFatalErrors;
  using RequestFixture::ExpectUncaught;

 protected:
  std::vector<zend_module_entry*> Modules() override {
    if (async_) return {&zar_async_module_entry};
    return {};
  }

 private:
  bool async_;
};

void ThrowUncaught() { zend_throw_exception(nullptr, "uncaught", 0); }

TEST(RequestFixtureTest, PassesARequestThatReleasedEverything) {
  HandRunFixture fixture;
  fixture.Run([] { efree(emalloc(16)); });
}

TEST(RequestFixtureTest, FailsARequestThatLeakedABlock) {
  HandRunFixture fixture;
  EXPECT_NONFATAL_FAILURE(fixture.Run([] { (void)emalloc(16); }),
                          "1 emalloc block(s) leaked, 16 bytes");
}

TEST(RequestFixtureTest, FailsARequestThatLeftAnObjectAlive) {
  HandRunFixture fixture;
  EXPECT_NONFATAL_FAILURE(fixture.Run([] {
    zval object;
    object_init(&object);  // never released
  }),
                          "1 object(s) still referenced when the request "
                          "ended.");
}

TEST(RequestFixtureTest, FailsAScriptThatLeftAnUncaughtException) {
  HandRunFixture fixture;
  EXPECT_NONFATAL_FAILURE(fixture.Run(ThrowUncaught),
                          "the request ended with the fatal error(s) "
                          "\"Uncaught Exception: uncaught\", the test "
                          "declared no fatal error");
}

TEST(RequestFixtureTest, FailsACoroutineThatLeftAnUncaughtException) {
  HandRunFixture fixture(/*async=*/true);
  EXPECT_NONFATAL_FAILURE(fixture.Run([] { Spawn(ThrowUncaught); }),
                          "the request ended with the fatal error(s) "
                          "\"Uncaught Exception: uncaught\"");
}

TEST(RequestFixtureTest, FailsAnExceptionLeftInFlightAfterTheScript) {
  HandRunFixture fixture;
  EXPECT_NONFATAL_FAILURE(fixture.Run([] {}, ThrowUncaught),
                          "the request ended with the fatal error(s) "
                          "\"Uncaught Exception: uncaught\"");
}

TEST(RequestFixtureTest, FailsAFatalError) {
  HandRunFixture fixture;
  EXPECT_NONFATAL_FAILURE(
      fixture.Run([] { zend_error(E_ERROR, "out of luck"); }),
      "the request ended with the fatal error(s) \"out of luck\"");
}

TEST(RequestFixtureTest, FailsABailoutWithoutAFatalError) {
  HandRunFixture fixture;
  EXPECT_NONFATAL_FAILURE(
      fixture.Run([] { zend_bailout(); }),
      "the request ended with a bailout without a fatal error, the test "
      "declared no fatal error");
}

TEST(RequestFixtureTest, PassesTheUncaughtExceptionsTheTestDeclared) {
  HandRunFixture fixture;
  fixture.ExpectUncaught("Exception: uncaught");
  fixture.Run(ThrowUncaught);
}

TEST(RequestFixtureTest, PassesTheFatalErrorsTheTestDeclared) {
  HandRunFixture fixture;
  fixture.ExpectFatalErrors({"first", "Uncaught Exception: uncaught"});
  fixture.Run([] { zend_error(E_ERROR | E_DONT_BAIL, "first"); },
              ThrowUncaught);
}

TEST(RequestFixtureTest, PassesTheBailoutTheTestDeclared) {
  HandRunFixture fixture;
  fixture.ExpectBailout();
  fixture.Run([] { zend_bailout(); });
}

TEST(RequestFixtureTest, FailsAnotherUncaughtExceptionThanTheDeclaredOne) {
  HandRunFixture fixture;
  fixture.ExpectUncaught("Exception: other");
  EXPECT_NONFATAL_FAILURE(fixture.Run(ThrowUncaught),
                          "the test declared the fatal error(s) "
                          "\"Uncaught Exception: other\"");
}

TEST(RequestFixtureTest, FailsADeclaredUncaughtExceptionThatNeverCame) {
  HandRunFixture fixture;
  fixture.ExpectUncaught("Exception: uncaught");
  EXPECT_NONFATAL_FAILURE(fixture.Run([] {}),
                          "the request ended with no fatal error, the test "
                          "declared the fatal error(s) \"Uncaught "
                          "Exception: uncaught\"");
}

TEST(RequestFixtureTest, FailsADeclaredBailoutThatNeverCame) {
  HandRunFixture fixture;
  fixture.ExpectBailout();
  EXPECT_NONFATAL_FAILURE(fixture.Run([] {}),
                          "the request ended with no fatal error, the test "
                          "declared a bailout without a fatal error");
}

TEST(RequestLeaksTest, IsEmptyForACleanReport) {
  php_mock_request_report report = {};
  EXPECT_EQ(RequestLeaks(report), "");
}

TEST(RequestLeaksTest, NamesEveryProblem) {
  php_mock_request_report report = {};
  report.leaked_blocks = 2;
  report.leaked_bytes = 48;
  report.objects_alive_at_shutdown = 1;
  EXPECT_EQ(RequestLeaks(report),
            "2 emalloc block(s) leaked, 48 bytes (see stderr for each "
            "block). 1 object(s) still referenced when the request ended.");
}

TEST(RequestFunctionsTest, RunARequestWithoutTheFixture) {
  ASSERT_EQ(StartEngine({}), SUCCESS);
  ASSERT_EQ(StartRequest(), SUCCESS);
  bool ran = false;
  EXPECT_TRUE(RunMain([&] { ran = true; }));
  EXPECT_EQ(RequestLeaks(EndRequest()), "");
  StopEngine();
  EXPECT_TRUE(ran);
}

TEST(RequestFunctionsTest, RunMainReportsABailout) {
  ASSERT_EQ(StartEngine({}), SUCCESS);
  ASSERT_EQ(StartRequest(), SUCCESS);
  EXPECT_FALSE(RunMain(ThrowUncaught));
  EXPECT_TRUE(EndRequest().bailed_out);
  StopEngine();
}

TEST(RequestFunctionsTest, RequestFatalErrorsListsTheRequestsFatalErrorsOnly) {
  ASSERT_EQ(StartEngine({}), SUCCESS);
  zend_error(E_CORE_ERROR, "before the request");
  ASSERT_EQ(StartRequest(), SUCCESS);
  zend_error(E_WARNING, "not fatal");
  EXPECT_FALSE(RunMain(ThrowUncaught));
  zend_mock_errors_clear();  // the error log, not the request's list
  zend_error(E_USER_ERROR, "after the script");
  const php_mock_request_report report = EndRequest();
  zend_error(E_CORE_ERROR, "after the request");
  EXPECT_EQ(report.fatal_errors, 2u);
  EXPECT_EQ(RequestFatalErrors(),
            (std::vector<std::string>{"Uncaught Exception: uncaught",
                                      "after the script"}));
  StopEngine();
}

}  // namespace
}  // namespace zar::testing
