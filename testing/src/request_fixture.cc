// The GoogleTest fixture over request.h (request_fixture.h).

#include "zend_async_ref/testing/request_fixture.h"

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

void RequestFixture::TearDown() {
  EXPECT_EQ(RequestLeaks(ShutdownRequest()), "");
  StopEngine();
}

}  // namespace zar::testing
