// The request fixture and the functions it is made of (request.h): a clean
// request passes, a leaked emalloc block or a live object fails the test.

#include "zend_async_ref/testing/request_fixture.h"

#include <gtest/gtest-spi.h>

namespace zar::testing {
namespace {

// A fixture run by hand, so that a test can watch it fail.
class HandRunFixture : public RequestFixture {
 public:
  void Run(const std::function<void()>& main) {
    SetUp();
    RunMain(main);
    TearDown();
  }
  void TestBody() override {}
};

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
  EXPECT_FALSE(RunMain([] { zend_throw_exception(nullptr, "uncaught", 0); }));
  EXPECT_TRUE(EndRequest().bailed_out);
  StopEngine();
}

}  // namespace
}  // namespace zar::testing
