// zend-async-ref testing: a GoogleTest fixture that runs each test inside
// one engine lifetime and one request, and fails the test if the request
// leaked or failed (request.h holds the plain functions it is made of).
//
//   class MyExtensionTest : public zar::testing::RequestFixture {
//    protected:
//     std::vector<zend_module_entry*> Modules() override {
//       return {&zar_async_module_entry, &my_module_entry};
//     }
//   };
//   TEST_F(MyExtensionTest, Something) {
//     RunMain([&] { ... the "script" ... });
//   }
//   TEST_F(MyExtensionTest, AnUncaughtErrorEndsTheScript) {
//     ExpectUncaught("RuntimeException: boom");   // what the request ends in
//     EXPECT_FALSE(RunMain([&] { ... throws, nobody catches ... }));
//   }
//
// SetUp starts the engine with Modules() and a request. TearDown ends the
// request (the scheduler drains, modules' RSHUTDOWN run) and fails the test
//   - if any emalloc block leaked or any object was still alive when the
//     object store was torn down;
//   - if the request's fatal errors (RequestFatalErrors(): an exception
//     nobody caught is "Uncaught Class: message", whether the script left
//     it, a coroutine, or the test left it in flight) are not exactly those
//     the test declared with ExpectUncaught / ExpectFatalErrors (none
//     unless it declared some);
//   - if the script bailed out (RunMain returned false) without a fatal
//     error the test declared, or without ExpectBailout().
// Then it stops the engine and resets the async registry, so the next test
// starts from a clean process state.
//
// Threading: the test's thread.

#ifndef ZEND_ASYNC_REF_TESTING_REQUEST_FIXTURE_H_
#define ZEND_ASYNC_REF_TESTING_REQUEST_FIXTURE_H_

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "zend_async_ref/testing/request.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::testing {

class RequestFixture : public ::testing::Test {
 protected:
  // The extensions started for this test (MINIT order). Default: none.
  virtual std::vector<zend_module_entry*> Modules() { return {}; }

  void SetUp() override;
  void TearDown() override;

  // Runs `main` as the request's main script, then the scheduler after
  // main (zar::testing::RunMain); false if it bailed out.
  bool RunMain(const std::function<void()>& main) {
    return zar::testing::RunMain(main);
  }

  // Ends the request early (tests of shutdown itself). TearDown then only
  // checks the report of this shutdown.
  php_mock_request_report ShutdownRequest();

  // Declares that the request ends with the uncaught exception `exception`
  // ("Class: message"): PHP's fatal error "Uncaught Class: message". Each
  // call adds one, in the order the engine reports them.
  void ExpectUncaught(const std::string& exception);
  // Declares the request's fatal errors, exactly and in order, as the
  // engine reports them (replaces any declared before).
  void ExpectFatalErrors(std::vector<std::string> messages);
  // Declares that the script bails out without a fatal error (a
  // zend_bailout() of its own, as exit() does).
  void ExpectBailout() { bailout_expected_ = true; }

 private:
  // Fails the test where the request's outcome is not the declared one.
  void CheckOutcome(const php_mock_request_report& report);

  bool request_active_ = false;
  std::vector<std::string> expected_fatal_errors_;
  bool bailout_expected_ = false;
};

}  // namespace zar::testing

#endif  // ZEND_ASYNC_REF_TESTING_REQUEST_FIXTURE_H_
