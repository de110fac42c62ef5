// Filesystem watch events: what a change notifies (flags, filename), the
// recursive watch of a tree, start/stop/close, and the errors.
//
// Each test works in a fresh directory made under $TMPDIR (removed after
// the test). The changes are made while the watch is started and before
// the loop runs: the kernel queues them, so the notifications and their
// order do not depend on timing. Each notification is recorded with the
// event's triggered_events and triggered_filename as "rename a.txt",
// "change sub/a.txt" ("<null>" without a filename).

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

// ---- Recording the changes --------------------------------------------------

// "rename a.txt": the event's triggered fields at the notification.
std::string DescribeChange(const zend_async_filesystem_event_t* event) {
  std::string kind;
  if ((event->triggered_events & ZEND_ASYNC_FS_EVENT_RENAME) != 0) {
    kind = "rename";
  }
  if ((event->triggered_events & ZEND_ASYNC_FS_EVENT_CHANGE) != 0) {
    kind += kind.empty() ? "change" : "|change";
  }
  if (kind.empty()) kind = "none";
  const zend_string* name = event->triggered_filename;
  return kind + " " +
         (name != nullptr ? std::string(ZSTR_VAL(name), ZSTR_LEN(name))
                          : "<null>");
}

void RecordChange(zend_async_event_t* event, void* changes) {
  static_cast<std::vector<std::string>*>(changes)->push_back(
      DescribeChange(reinterpret_cast<zend_async_filesystem_event_t*>(event)));
}

bool Contains(const std::vector<std::string>& changes,
              const std::string& change) {
  return std::find(changes.begin(), changes.end(), change) != changes.end();
}

size_t CountOf(const std::vector<std::string>& changes,
               const std::string& change) {
  return static_cast<size_t>(
      std::count(changes.begin(), changes.end(), change));
}

// Runs the loop without blocking a few times: what is queued is delivered.
void RunPending() {
  for (int i = 0; i < 4; i++) ZEND_ASYNC_REACTOR_EXECUTE(true);
}

// A recorder hook: records the change, then releases the event.
void ReleaseTheEvent(zend_async_event_t* event, void* changes) {
  RecordChange(event, changes);
  ZEND_ASYNC_EVENT_RELEASE(event);
}

class FilesystemEventTest : public ReactorTest {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.empty());
    ReactorTest::SetUp();
  }

  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  // ZEND_ASYNC_NEW_FILESYSTEM_EVENT on `path`; the caller's reference.
  static zend_async_filesystem_event_t* Watch(const std::string& path,
                                              unsigned int flags = 0) {
    zend_string* text = zend_string_init(path.data(), path.size(), 0);
    zend_async_filesystem_event_t* event =
        ZEND_ASYNC_NEW_FILESYSTEM_EVENT(text, flags);
    zend_string_release(text);
    return event;
  }

  // Watch(path, flags), recorded into log_ and changes_ through `hook`,
  // started; the caller's reference.
  zend_async_filesystem_event_t* StartWatch(const std::string& path,
                                            unsigned int flags = 0,
                                            RecorderHook hook = RecordChange) {
    zend_async_filesystem_event_t* event = Watch(path, flags);
    EXPECT_NE(event, nullptr);
    AddRecorder(&event->base, &log_, "fs", ResultKind::kNone, hook, &changes_);
    EXPECT_TRUE(event->base.start(&event->base));
    return event;
  }

  ScratchDirectory scratch_;
  const std::string dir_ = scratch_.path();
  NotificationLog log_;
  std::vector<std::string> changes_;  // "rename a.txt", in order
};

// ---- Changes made to the filesystem -----------------------------------------

void Touch(const std::string& path) {
  const int fd = open(path.c_str(), O_CREAT | O_WRONLY, 0644);
  ASSERT_GE(fd, 0) << path;
  close(fd);
}

void Append(const std::string& path, const std::string& text) {
  const int fd = open(path.c_str(), O_WRONLY | O_APPEND);
  ASSERT_GE(fd, 0) << path;
  ASSERT_EQ(write(fd, text.data(), text.size()),
            static_cast<ssize_t>(text.size()));
  close(fd);
}

void MakeDir(const std::string& path) {
  ASSERT_EQ(mkdir(path.c_str(), 0755), 0) << path;
}

// ---- One directory ----------------------------------------------------------

// Upstream fs_watcher_basic.phpt: a file created in the watched directory.
TEST_F(FilesystemEventTest, CreatedFileIsReportedAsRenameWithItsName) {
  zend_async_filesystem_event_t* watch = StartWatch(dir_);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);

  Touch(Path("a.txt"));
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));

  EXPECT_EQ(changes_, std::vector<std::string>{"rename a.txt"});
  EXPECT_FALSE(log_[0].has_result);
  EXPECT_EQ(log_[0].exception, "");
  EXPECT_FALSE(log_[0].closed);
  EXPECT_EQ(log_[0].loop_ref_count, 1u);
  EXPECT_EQ(std::string(ZSTR_VAL(watch->path)), dir_);
  EXPECT_TRUE(watch->base.stop(&watch->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, WrittenFileIsReportedAsChange) {
  Touch(Path("a.txt"));
  zend_async_filesystem_event_t* watch = StartWatch(dir_);

  Append(Path("a.txt"), "hello");
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));

  EXPECT_EQ(changes_, std::vector<std::string>{"change a.txt"});
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, AttributeChangeIsReportedAsChange) {
  Touch(Path("a.txt"));
  zend_async_filesystem_event_t* watch = StartWatch(dir_);

  ASSERT_EQ(chmod(Path("a.txt").c_str(), 0600), 0);
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));

  EXPECT_EQ(changes_, std::vector<std::string>{"change a.txt"});
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

// Upstream fs_watcher_raw_mode.phpt, fs_watcher_multiple_events.phpt and
// fs_watcher_buffered_events.phpt: changes made before anyone runs the loop
// are kept, and each is notified on its own, in order.
TEST_F(FilesystemEventTest, EachChangeIsNotifiedSeparatelyInOrder) {
  zend_async_filesystem_event_t* watch = StartWatch(dir_);

  Touch(Path("a.txt"));
  Touch(Path("b.txt"));
  Touch(Path("c.txt"));
  ASSERT_TRUE(RunUntil([&] { return log_.size() == 3; }));

  EXPECT_EQ(changes_, (std::vector<std::string>{"rename a.txt", "rename b.txt",
                                                "rename c.txt"}));
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

// Upstream fs_watcher_rename.phpt: a rename within the directory reports
// the old name, then the new one, both as RENAME.
TEST_F(FilesystemEventTest, RenameReportsTheOldThenTheNewName) {
  Touch(Path("original.txt"));
  zend_async_filesystem_event_t* watch = StartWatch(dir_);

  ASSERT_EQ(rename(Path("original.txt").c_str(), Path("renamed.txt").c_str()),
            0);
  ASSERT_TRUE(RunUntil([&] { return log_.size() == 2; }));

  EXPECT_EQ(changes_, (std::vector<std::string>{"rename original.txt",
                                                "rename renamed.txt"}));
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, RemovedFileIsReportedAsRename) {
  Touch(Path("a.txt"));
  zend_async_filesystem_event_t* watch = StartWatch(dir_);

  ASSERT_EQ(unlink(Path("a.txt").c_str()), 0);
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));

  EXPECT_EQ(changes_, std::vector<std::string>{"rename a.txt"});
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, WatchedFileReportsChangesUnderItsOwnName) {
  Touch(Path("a.txt"));
  zend_async_filesystem_event_t* watch = StartWatch(Path("a.txt"));

  Append(Path("a.txt"), "hello");
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));

  EXPECT_EQ(changes_, std::vector<std::string>{"change a.txt"});
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, SubdirectoriesAreNotWatchedWithoutRecursive) {
  MakeDir(Path("sub"));
  zend_async_filesystem_event_t* watch = StartWatch(dir_);

  Touch(Path("sub/hidden.txt"));
  Touch(Path("seen.txt"));
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));
  RunPending();

  EXPECT_EQ(changes_, std::vector<std::string>{"rename seen.txt"});
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

// ---- Start, stop, close -----------------------------------------------------

TEST_F(FilesystemEventTest, StoppedWatchMissesChangesAndRestartResumes) {
  zend_async_filesystem_event_t* watch = StartWatch(dir_);
  ASSERT_TRUE(watch->base.stop(&watch->base));
  EXPECT_EQ(watch->base.loop_ref_count, 0u);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);

  Touch(Path("missed.txt"));
  RunPending();
  EXPECT_TRUE(changes_.empty());

  ASSERT_TRUE(watch->base.start(&watch->base));
  Touch(Path("seen.txt"));
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));

  EXPECT_EQ(changes_, std::vector<std::string>{"rename seen.txt"});
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, EachStartTakesOneLoopReference) {
  zend_async_filesystem_event_t* watch = Watch(dir_);
  ASSERT_TRUE(watch->base.start(&watch->base));
  ASSERT_TRUE(watch->base.start(&watch->base));
  ExpectLoopReferences(&watch->base, 2, 1);

  ASSERT_TRUE(watch->base.stop(&watch->base));
  ExpectLoopReferences(&watch->base, 1, 1);
  ASSERT_TRUE(watch->base.stop(&watch->base));
  ExpectLoopReferences(&watch->base, 0, 0);
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

// Upstream fs_watcher_close_terminates.phpt: releasing a started watch
// ends it; changes still queued are not delivered.
TEST_F(FilesystemEventTest, ReleasedWatchDeliversNothingMore) {
  zend_async_filesystem_event_t* watch = StartWatch(dir_);

  Touch(Path("a.txt"));
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  RunPending();

  EXPECT_TRUE(log_.empty());
}

TEST_F(FilesystemEventTest, ReleaseFromTheCallbackEndsDelivery) {
  StartWatch(dir_, 0, ReleaseTheEvent);  // released by its callback

  Touch(Path("a.txt"));
  Touch(Path("b.txt"));
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));
  RunPending();

  EXPECT_EQ(changes_, std::vector<std::string>{"rename a.txt"});
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
}

// ---- Errors and info --------------------------------------------------------

// Upstream fs_watcher_invalid_path.phpt: a path that does not exist.
TEST_F(FilesystemEventTest, MissingPathFailsToStart) {
  zend_async_filesystem_event_t* watch = Watch(Path("missing"));
  ASSERT_NE(watch, nullptr);

  ExpectStartRefused(&watch->base,
                     "Async\\AsyncException: Failed to start filesystem "
                     "handle: no such file or directory");
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, MissingPathFailsToStartRecursively) {
  zend_async_filesystem_event_t* watch =
      Watch(Path("missing"), ZEND_ASYNC_FS_EVENT_RECURSIVE);
  ASSERT_NE(watch, nullptr);

  ExpectStartRefused(&watch->base,
                     "Async\\AsyncException: Failed to start recursive "
                     "filesystem watch on " +
                         Path("missing"));
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, PathCreatedAfterAFailedStartCanBeWatched) {
  zend_async_filesystem_event_t* watch = Watch(Path("later"));
  AddRecorder(&watch->base, &log_, "fs", ResultKind::kNone, RecordChange,
              &changes_);
  ExpectStartRefused(&watch->base,
                     "Async\\AsyncException: Failed to start filesystem "
                     "handle: no such file or directory");

  MakeDir(Path("later"));
  ASSERT_TRUE(watch->base.start(&watch->base));
  Touch(Path("later/a.txt"));
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));

  EXPECT_EQ(changes_, std::vector<std::string>{"rename a.txt"});
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, EventKeepsItsPathAndFlags) {
  zend_string* path = zend_string_init(dir_.data(), dir_.size(), 0);
  zend_async_filesystem_event_t* watch =
      ZEND_ASYNC_NEW_FILESYSTEM_EVENT(path, ZEND_ASYNC_FS_EVENT_RECURSIVE);
  zend_string_release(path);

  EXPECT_EQ(std::string(ZSTR_VAL(watch->path), ZSTR_LEN(watch->path)), dir_);
  EXPECT_EQ(watch->flags, ZEND_ASYNC_FS_EVENT_RECURSIVE);
  EXPECT_EQ(watch->triggered_events, 0u);
  EXPECT_EQ(watch->triggered_filename, nullptr);
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, InfoShowsThePath) {
  zend_async_filesystem_event_t* watch = Watch(dir_);
  // An upstream fact: php-async's libuv reactor writes this very info().
  EXPECT_EQ(InfoOf(&watch->base), "FilesystemWatch(path=" + dir_ + ")");
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

// ---- Recursive --------------------------------------------------------------

// Upstream fs_watcher_recursive.phpt: a change two levels down is reported
// relative to the watched root.
TEST_F(FilesystemEventTest, RecursiveWatchReportsNestedChangesRelativeToRoot) {
  MakeDir(Path("sub"));
  MakeDir(Path("sub/deep"));
  zend_async_filesystem_event_t* watch =
      StartWatch(dir_, ZEND_ASYNC_FS_EVENT_RECURSIVE);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);

  Touch(Path("sub/deep/nested.txt"));
  Touch(Path("top.txt"));
  ASSERT_TRUE(RunUntil([&] { return log_.size() == 2; }));

  EXPECT_EQ(changes_, (std::vector<std::string>{"rename sub/deep/nested.txt",
                                                "rename top.txt"}));
  EXPECT_EQ(std::string(ZSTR_VAL(watch->path)), dir_);
  EXPECT_TRUE(watch->base.stop(&watch->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, RecursiveWatchFollowsDirectoryCreatedLater) {
  zend_async_filesystem_event_t* watch =
      StartWatch(dir_, ZEND_ASYNC_FS_EVENT_RECURSIVE);

  MakeDir(Path("new"));
  ASSERT_TRUE(RunUntil([&] { return log_.size() == 1; }));
  Touch(Path("new/a.txt"));
  ASSERT_TRUE(RunUntil([&] { return log_.size() == 2; }));

  EXPECT_EQ(changes_,
            (std::vector<std::string>{"rename new", "rename new/a.txt"}));
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, RecursiveWatchFollowsTreeMovedIn) {
  MakeDir(Path("root"));
  MakeDir(Path("outside"));
  MakeDir(Path("outside/inner"));
  zend_async_filesystem_event_t* watch =
      StartWatch(Path("root"), ZEND_ASYNC_FS_EVENT_RECURSIVE);

  ASSERT_EQ(rename(Path("outside").c_str(), Path("root/moved").c_str()), 0);
  ASSERT_TRUE(RunUntil([&] { return log_.size() == 1; }));
  Touch(Path("root/moved/inner/a.txt"));
  ASSERT_TRUE(RunUntil([&] { return log_.size() == 2; }));

  EXPECT_EQ(changes_, (std::vector<std::string>{"rename moved",
                                                "rename moved/inner/a.txt"}));
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

// Upstream fs_watcher_recursive_removal.phpt: a watched subdirectory
// removed and created again at the same path is watched afresh.
TEST_F(FilesystemEventTest, RecursiveWatchRewatchesRecreatedDirectory) {
  MakeDir(Path("sub"));
  MakeDir(Path("sub/deep"));
  zend_async_filesystem_event_t* watch =
      StartWatch(dir_, ZEND_ASYNC_FS_EVENT_RECURSIVE);

  Touch(Path("sub/deep/a.txt"));
  ASSERT_TRUE(
      RunUntil([&] { return Contains(changes_, "rename sub/deep/a.txt"); }));
  ASSERT_EQ(unlink(Path("sub/deep/a.txt").c_str()), 0);
  ASSERT_EQ(rmdir(Path("sub/deep").c_str()), 0);
  ASSERT_TRUE(
      RunUntil([&] { return CountOf(changes_, "rename sub/deep") == 1; }));
  RunPending();

  MakeDir(Path("sub/deep"));
  ASSERT_TRUE(
      RunUntil([&] { return CountOf(changes_, "rename sub/deep") == 2; }));
  Touch(Path("sub/deep/b.txt"));
  ASSERT_TRUE(
      RunUntil([&] { return Contains(changes_, "rename sub/deep/b.txt"); }));

  EXPECT_EQ(CountOf(changes_, "rename sub/deep/a.txt"), 2u);  // made, removed
  EXPECT_EQ(CountOf(changes_, "rename sub/deep/b.txt"), 1u);
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, RecursiveRestartKeepsWatchingTheTree) {
  MakeDir(Path("sub"));
  zend_async_filesystem_event_t* watch =
      StartWatch(dir_, ZEND_ASYNC_FS_EVENT_RECURSIVE);
  ASSERT_TRUE(watch->base.stop(&watch->base));

  Touch(Path("sub/missed.txt"));
  RunPending();
  EXPECT_TRUE(changes_.empty());

  ASSERT_TRUE(watch->base.start(&watch->base));
  Touch(Path("sub/seen.txt"));
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));

  EXPECT_EQ(changes_, std::vector<std::string>{"rename sub/seen.txt"});
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, RecursiveWatchDoesNotFollowSymbolicLinks) {
  MakeDir(Path("root"));
  MakeDir(Path("target"));
  ASSERT_EQ(symlink(Path("target").c_str(), Path("root/link").c_str()), 0);
  zend_async_filesystem_event_t* watch =
      StartWatch(Path("root"), ZEND_ASYNC_FS_EVENT_RECURSIVE);

  Touch(Path("target/hidden.txt"));
  Touch(Path("root/seen.txt"));
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));
  RunPending();

  EXPECT_EQ(changes_, std::vector<std::string>{"rename seen.txt"});
  ZEND_ASYNC_EVENT_RELEASE(&watch->base);
}

TEST_F(FilesystemEventTest, RecursiveReleaseFromTheCallbackEndsDelivery) {
  MakeDir(Path("sub"));
  // Released by its callback.
  StartWatch(dir_, ZEND_ASYNC_FS_EVENT_RECURSIVE, ReleaseTheEvent);

  Touch(Path("sub/a.txt"));
  Touch(Path("b.txt"));
  ASSERT_TRUE(RunUntil([&] { return !log_.empty(); }));
  RunPending();

  EXPECT_EQ(changes_, std::vector<std::string>{"rename sub/a.txt"});
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
}

}  // namespace
}  // namespace zar::reactor_testing
