// The GoogleTest fixture over request.h (request_fixture.h).

#include "zend_async_ref/testing/request_fixture.h"

#include <string>
#include <utility>

namespace zar::testing {

void RequestFixture::SetUp() {
  ASSERT_EQ(StartEngine(Modules()), SUCCESS);
  ASSERT_EQ(StartRequest(), SUCCESS);
  request_active_ = true;
}

php_mock_request_report RequestFixture::ShutdownRequest() {
  if (request_active_) {
    request_active_ = false;
    return EndRequest();
  }
  return php_mock_last_request_report();
}

void RequestFixture::ExpectUncaught(const std::string& exception) {
  expected_fatal_errors_.push_back("Uncaught " + exception);
}

void RequestFixture::ExpectFatalErrors(std::vector<std::string> messages) {
  expected_fatal_errors_ = std::move(messages);
}

namespace {

// "no fatal error", "a bailout without a fatal error", or the fatal errors
// quoted in order.
std::string Outcome(const std::vector<std::string>& fatal_errors,
                    bool bailed_out) {
  if (fatal_errors.empty()) {
    return bailed_out ? "a bailout without a fatal error" : "no fatal error";
  }
  std::string text = "the fatal error(s)";
  for (size_t i = 0; i < fatal_errors.size(); i++) {
    text += (i == 0 ? " \"" : ", \"") + fatal_errors[i] + "\"";
  }
  return text;
}

}  // namespace

void RequestFixture::CheckOutcome(const php_mock_request_report& report) {
  const std::vector<std::string> fatal_errors = RequestFatalErrors();
  // A fatal error ends the script: its bailout goes without saying.
  const bool as_declared =
      expected_fatal_errors_.empty()
          ? fatal_errors.empty() && report.bailed_out == bailout_expected_
          : fatal_errors == expected_fatal_errors_;
  EXPECT_TRUE(as_declared)
      << "the request ended with " << Outcome(fatal_errors, report.bailed_out)
      << ", the test declared "
      << Outcome(expected_fatal_errors_, bailout_expected_)
      << " (an exception nobody caught is the fatal error \"Uncaught Class: "
         "message\"; a test whose request is meant to fail says so with "
         "ExpectUncaught, ExpectFatalErrors or ExpectBailout)";
}

void RequestFixture::TearDown() {
  const php_mock_request_report report = ShutdownRequest();
  EXPECT_EQ(RequestLeaks(report), "");
  CheckOutcome(report);
  StopEngine();
}

}  // namespace zar::testing
