// The reference's own choice for filesystem watches at the request's end:
// the reactor closes and frees every watch still alive, started or not,
// with its tree of directory watches and its last filename, whoever still
// holds a reference. The ABI leaves an event its owner never released to
// the implementation (php-async frees a watch on its last release only, and
// its shutdown drain waits on a watch still started), so this is not a
// conformance behaviour.

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

class FilesystemEventReferenceTest : public ReactorTest {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.empty());
    ReactorTest::SetUp();
  }

  // A watch of dir_ with `flags`, recorded into log_, started unless
  // `start` is false; the caller's reference.
  zend_async_filesystem_event_t* WatchDir(unsigned int flags, bool start) {
    zend_string* path = zend_string_init(dir_.data(), dir_.size(), 0);
    zend_async_filesystem_event_t* event =
        ZEND_ASYNC_NEW_FILESYSTEM_EVENT(path, flags);
    zend_string_release(path);
    EXPECT_NE(event, nullptr);
    if (event == nullptr) return nullptr;
    AddRecorder(&event->base, &log_, "fs");
    if (start) {
      EXPECT_TRUE(event->base.start(&event->base));
    }
    return event;
  }

  ScratchDirectory scratch_;
  const std::string dir_ = scratch_.path();
  NotificationLog log_;
};

TEST_F(FilesystemEventReferenceTest, RequestEndFreesLiveWatchesAndTheirTrees) {
  std::filesystem::create_directories(dir_ + "/sub/deep");
  zend_async_filesystem_event_t* tree =
      WatchDir(ZEND_ASYNC_FS_EVENT_RECURSIVE, true);
  zend_async_filesystem_event_t* flat = WatchDir(0, true);
  ASSERT_NE(WatchDir(ZEND_ASYNC_FS_EVENT_RECURSIVE, false), nullptr);
  ASSERT_NE(tree, nullptr);
  ASSERT_NE(flat, nullptr);
  ZEND_ASYNC_EVENT_ADD_REF(&tree->base);  // a second holder never leaves
  std::ofstream(dir_ + "/sub/a.txt").close();
  std::ofstream(dir_ + "/b.txt").close();  // seen by both
  ASSERT_TRUE(RunUntil([&] { return log_.size() == 3; }));
  ASSERT_NE(tree->triggered_filename, nullptr);
  ASSERT_NE(flat->triggered_filename, nullptr);

  const php_mock_request_report report = ShutdownRequest();

  EXPECT_EQ(report.leaked_blocks, 0u);
  EXPECT_EQ(report.objects_alive_at_shutdown, 0u);
}

}  // namespace
}  // namespace zar::reactor_testing
