// Async IO on FILE handles: reads and writes in libuv's thread pool at the
// descriptor's own position, the write FIFO, append mode, seek, flush,
// stat, fs_open and sendfile. Every file lives in a fresh temporary
// directory.

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/io/support/io_test.h"
#include "zend_async_ref/testing/coroutines.h"

namespace zar::io_testing {
namespace {

class IoFileTest : public IoTest {
 protected:
  // A descriptor the test leaves open under a handle until the request's
  // end (the fixture's TearDown); closed after it.
  void TearDown() override {
    IoTest::TearDown();
    if (descriptor_to_close_ >= 0) close(descriptor_to_close_);
  }
  int descriptor_to_close_ = -1;
  // The notifications of the handle a test records (outlives its handle).
  IoLog log_;
};

std::string ReadAllOf(zend_async_io_t* io) {
  std::string text;
  for (;;) {
    zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, nullptr, 4);
    if (req == nullptr) return text + "<error>";
    RunUntil([&] { return req->completed; });
    const ssize_t n = req->transferred;
    if (n > 0) text.append(req->buf, static_cast<size_t>(n));
    req->dispose(req);
    if (n <= 0) return text;
  }
}

TEST_F(IoFileTest, AFileHandleIsNamedByItsDescriptorAndLeavesItToTheCaller) {
  OpenedFile opened("data", O_RDONLY, ZEND_ASYNC_IO_READABLE);
  zend_async_io_t* io = opened.io();
  ASSERT_NE(io, nullptr);
  const int fd = opened.fd();
  EXPECT_EQ(io->descriptor.fd, fd);
  EXPECT_EQ(InfoOf(&io->event), "IO(type=file, fd=" + std::to_string(fd) + ")");
  EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(io));
  opened.Release();
  // Not OWNS_FD: the descriptor is still the caller's.
  EXPECT_NE(fcntl(fd, F_GETFD), -1);
}

// php-async tests/io 001-async_file_read_write, 009-read_empty_file_eof.
TEST_F(IoFileTest, ReadsCompleteInThreadPoolAndEndWithZero) {
  OpenedFile opened("hello world", O_RDONLY, ZEND_ASYNC_IO_READABLE, &log_);
  zend_async_io_t* io = opened.io();
  ASSERT_NE(io, nullptr);
  char buf[5];
  zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, buf, sizeof(buf));
  ASSERT_NE(req, nullptr);
  EXPECT_FALSE(req->completed);
  // A file operation in flight counts as an active event.
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);
  EXPECT_TRUE(RunUntil([&] { return req->completed; }));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_EQ(std::string(buf, 5), "hello");
  ASSERT_EQ(log_.size(), 1u);
  EXPECT_EQ(log_[0].result, req);
  EXPECT_EQ(log_[0].transferred, 5);
  req->dispose(req);
  EXPECT_EQ(ReadAllOf(io), " world");
  // End of file is 0 bytes; files never set EOF.
  EXPECT_EQ(io->state & ZEND_ASYNC_IO_EOF, 0u);
}

// php-async tests/io 011-sequential_writes_offset, 083-concurrent_async_write:
// writes submitted together land in submission order, one at a time.
TEST_F(IoFileTest, WritesSubmittedTogetherLandInOrder) {
  OpenedFile opened("", O_WRONLY | O_TRUNC, ZEND_ASYNC_IO_WRITABLE, &log_);
  zend_async_io_t* io = opened.io();
  ASSERT_NE(io, nullptr);
  std::vector<zend_async_io_req_t*> reqs;
  for (const char* part : {"one,", "two,", "three"}) {
    reqs.push_back(ZEND_ASYNC_IO_WRITE(io, part, strlen(part)));
    ASSERT_NE(reqs.back(), nullptr);
  }
  EXPECT_TRUE(RunUntil([&] { return reqs.back()->completed; }));
  ASSERT_EQ(log_.size(), 3u);
  for (size_t i = 0; i < 3; i++) EXPECT_EQ(log_[i].result, reqs[i]);
  EXPECT_EQ(reqs[0]->transferred, 4);
  EXPECT_EQ(reqs[2]->transferred, 5);
  for (auto* req : reqs) req->dispose(req);
  EXPECT_EQ(opened.file().Content(), "one,two,three");
}

// A queued write whose owner leaves before it runs is unlinked; the rest
// still land.
TEST_F(IoFileTest, AQueuedWriteDisposedBeforeItRunsIsSkipped) {
  OpenedFile opened("", O_WRONLY | O_TRUNC, ZEND_ASYNC_IO_WRITABLE);
  zend_async_io_t* io = opened.io();
  ASSERT_NE(io, nullptr);
  zend_async_io_req_t* first = ZEND_ASYNC_IO_WRITE(io, "a", 1);
  zend_async_io_req_t* dropped = ZEND_ASYNC_IO_WRITE(io, "b", 1);
  zend_async_io_req_t* last = ZEND_ASYNC_IO_WRITE(io, "c", 1);
  ASSERT_NE(last, nullptr);
  dropped->dispose(dropped);
  EXPECT_TRUE(RunUntil([&] { return last->completed; }));
  EXPECT_EQ(opened.file().Content(), "ac");
  first->dispose(first);
  last->dispose(last);
}

// php-async tests/io 010-write_to_readonly_file.
TEST_F(IoFileTest, AWriteToAReadOnlyDescriptorCompletesWithAFileWriteError) {
  IoLog unused;
  OpenedFile opened("x", O_RDONLY, ZEND_ASYNC_IO_READABLE);
  zend_async_io_t* io = opened.io();
  ASSERT_NE(io, nullptr);
  zend_async_io_req_t* req = ZEND_ASYNC_IO_WRITE(io, "y", 1);
  ASSERT_NE(req, nullptr);
  EXPECT_TRUE(RunUntil([&] { return req->completed; }));
  EXPECT_EQ(req->transferred, -1);
  ASSERT_NE(req->exception, nullptr);
  req->dispose(req);
}

// php-async tests/io 016-file_append_mode, 061, 079: APPEND writes go to the
// end whatever a seek did; the descriptor starts at 0 for reads.
TEST_F(IoFileTest, AppendWritesGoToTheEndAndSeeksOnlyMoveReads) {
  TempFile file("head,");
  int fd = -1;
  zend_async_io_t* io = OpenFile(
      file, O_RDWR | O_APPEND,
      ZEND_ASYNC_IO_READABLE | ZEND_ASYNC_IO_WRITABLE | ZEND_ASYNC_IO_APPEND,
      &fd);
  ASSERT_NE(io, nullptr);
  EXPECT_EQ(lseek(fd, 0, SEEK_CUR), 0);
  EXPECT_EQ(ZEND_ASYNC_IO_SEEK(io, 0, SEEK_SET), 0);
  zend_async_io_req_t* req = ZEND_ASYNC_IO_WRITE(io, "tail", 4);
  ASSERT_NE(req, nullptr);
  EXPECT_TRUE(RunUntil([&] { return req->completed; }));
  req->dispose(req);
  EXPECT_EQ(file.Content(), "head,tail");
  EXPECT_EQ(ZEND_ASYNC_IO_SEEK(io, 0, SEEK_SET), 0);
  EXPECT_EQ(ReadAllOf(io), "head,tail");
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
  close(fd);
}

// php-async tests/io 008-file_seek_then_async_read, 051, 064, 065.
TEST_F(IoFileTest, SeekMovesTheNextReadAndAnswersThePosition) {
  OpenedFile opened("0123456789", O_RDONLY, ZEND_ASYNC_IO_READABLE);
  zend_async_io_t* io = opened.io();
  ASSERT_NE(io, nullptr);
  EXPECT_EQ(ZEND_ASYNC_IO_SEEK(io, 6, SEEK_SET), 6);
  EXPECT_EQ(ReadAllOf(io), "6789");
  EXPECT_EQ(ZEND_ASYNC_IO_SEEK(io, -3, SEEK_END), 7);
  EXPECT_EQ(ZEND_ASYNC_IO_SEEK(io, 1, SEEK_CUR), 8);
  EXPECT_EQ(ReadAllOf(io), "89");
  EXPECT_EQ(ZEND_ASYNC_IO_SEEK(io, -1, SEEK_SET), -1);  // lseek refuses
}

// php-async tests/io 048-file_offset_sync_with_dup: the kernel's position is
// shared with a dup'd descriptor.
TEST_F(IoFileTest, ReadsMoveTheDescriptorsOwnPositionSharedWithADup) {
  OpenedFile opened("abcdef", O_RDONLY, ZEND_ASYNC_IO_READABLE);
  zend_async_io_t* io = opened.io();
  ASSERT_NE(io, nullptr);
  const int twin = dup(opened.fd());
  char buf[3];
  zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, buf, 3);
  ASSERT_NE(req, nullptr);
  EXPECT_TRUE(RunUntil([&] { return req->completed; }));
  req->dispose(req);
  EXPECT_EQ(lseek(twin, 0, SEEK_CUR), 3);
  close(twin);
}

// php-async tests/io 030-fflush_fsync_async.
TEST_F(IoFileTest, FlushAndStatCompleteInThreadPool) {
  OpenedFile opened("12345", O_RDWR, ZEND_ASYNC_IO_WRITABLE, &log_);
  zend_async_io_t* io = opened.io();
  ASSERT_NE(io, nullptr);
  zend_async_io_req_t* flush = ZEND_ASYNC_IO_FLUSH(io);
  ASSERT_NE(flush, nullptr);
  zend_stat_t st;
  zend_async_io_req_t* stat = ZEND_ASYNC_IO_STAT(io, &st);
  ASSERT_NE(stat, nullptr);
  EXPECT_TRUE(RunUntil([&] { return flush->completed && stat->completed; }));
  EXPECT_EQ(flush->result, 0);
  EXPECT_EQ(stat->result, 0);
  EXPECT_EQ(st.st_size, 5);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(log_.size(), 2u);
  flush->dispose(flush);
  stat->dispose(stat);
}

// The owner of a stat leaves before it completes: its buffer is not
// written, and the request is freed by the completion.
TEST_F(IoFileTest, AStatDisposedInFlightWritesNothingAndLeaksNothing) {
  OpenedFile opened("12345", O_RDONLY, ZEND_ASYNC_IO_READABLE, &log_);
  zend_async_io_t* io = opened.io();
  ASSERT_NE(io, nullptr);
  zend_stat_t st;
  std::memset(&st, 0xAB, sizeof(st));
  zend_async_io_req_t* stat = ZEND_ASYNC_IO_STAT(io, &st);
  ASSERT_NE(stat, nullptr);
  stat->dispose(stat);
  EXPECT_TRUE(RunUntil([] { return ZEND_ASYNC_ACTIVE_EVENT_COUNT == 0; }));
  EXPECT_TRUE(log_.empty());
  EXPECT_EQ(reinterpret_cast<unsigned char*>(&st)[0], 0xAB);
}

// A read in flight pins its handle: the owner's release does not close it
// under the read, and the completion still comes.
TEST_F(IoFileTest, ReleasingTheHandleWithAReadInFlightWaitsForTheRead) {
  TempFile file("pinned");
  int fd = -1;
  zend_async_io_t* io = OpenFile(file, O_RDONLY, ZEND_ASYNC_IO_READABLE, &fd);
  ASSERT_NE(io, nullptr);
  zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, nullptr, 16);
  ASSERT_NE(req, nullptr);
  EXPECT_EQ(io->event.ref_count, 2u);
  io->event.dispose(&io->event);  // the owner leaves; the read holds it
  EXPECT_TRUE(RunUntil([&] { return req->completed; }));
  EXPECT_EQ(std::string(req->buf, req->transferred), "pinned");
  req->dispose(req);
  close(fd);
}

// The request ends with a handle still open and a read in flight whose
// owner already left: the end of the request closes the handle and waits
// for the read's completion, which frees both (the fixture's leak check).
TEST_F(IoFileTest, TheRequestsEndWaitsForAFileOperationStillInFlight) {
  TempFile file("left behind");
  int fd = -1;
  zend_async_io_t* io = OpenFile(file, O_RDONLY, ZEND_ASYNC_IO_READABLE, &fd);
  ASSERT_NE(io, nullptr);
  zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, nullptr, 64);
  ASSERT_NE(req, nullptr);
  req->dispose(req);  // the owner leaves; the handle is never released
  descriptor_to_close_ = fd;
}

// ---- fs_open ----------------------------------------------------------------

TEST_F(IoFileTest, FsOpenGivesAPendingHandleThatOpensOnItsEvent) {
  TempFile file("opened");
  zend_async_io_t* io = ZEND_ASYNC_FS_OPEN(file.path().c_str(), O_RDONLY, 0);
  ASSERT_NE(io, nullptr);
  EXPECT_EQ(io->type, ZEND_ASYNC_IO_TYPE_FILE);
  EXPECT_EQ(io->state, 0u);
  IoLog log;
  AddIoRecorder(io, &log);
  EXPECT_TRUE(RunUntil([&] { return !log.empty(); }));
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].result, nullptr);
  EXPECT_EQ(log[0].exception, "");
  EXPECT_EQ(io->state, static_cast<uint32_t>(ZEND_ASYNC_IO_READABLE |
                                             ZEND_ASYNC_IO_OWNS_FD));
  const int fd = io->descriptor.fd;
  EXPECT_GE(fd, 0);
  EXPECT_EQ(ReadAllOf(io), "opened");
  // OWNS_FD: the handle closes its descriptor.
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
  EXPECT_EQ(fcntl(fd, F_GETFD), -1);
}

TEST_F(IoFileTest, FsOpenOfAMissingFileNotifiesOpenErrorAndClosesTheHandle) {
  TempFile file;
  const std::string missing = file.dir() + "/missing";
  zend_async_io_t* io = ZEND_ASYNC_FS_OPEN(missing.c_str(), O_RDONLY, 0);
  ASSERT_NE(io, nullptr);
  IoLog log;
  AddIoRecorder(io, &log);
  EXPECT_TRUE(RunUntil([&] { return !log.empty(); }));
  EXPECT_EQ(log[0].exception,
            "Async\\InputOutputException: Open error: no such file or "
            "directory");
  EXPECT_EQ(io->state,
            static_cast<uint32_t>(ZEND_ASYNC_IO_CLOSED | ZEND_ASYNC_IO_EOF));
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoFileTest, AnFsOpenReleasedBeforeItCompletesLeaksNothing) {
  TempFile file("abandoned");
  zend_async_io_t* io = ZEND_ASYNC_FS_OPEN(file.path().c_str(), O_RDONLY, 0);
  ASSERT_NE(io, nullptr);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);  // the open still holds it
  EXPECT_TRUE(RunUntil([] { return ZEND_ASYNC_ACTIVE_EVENT_COUNT == 0; }));
}

// ---- sendfile ---------------------------------------------------------------

TEST_F(IoFileTest, SendfileCopiesTheRangeToAStreamAndCompletesOnTheSource) {
  OpenedFile source("0123456789", O_RDONLY, ZEND_ASYNC_IO_READABLE, &log_);
  StreamPair pair;
  zend_async_io_t* in = source.io();
  zend_async_io_t* out = pair.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(in, nullptr);
  ASSERT_NE(out, nullptr);
  zend_async_io_req_t* req = ZEND_ASYNC_IO_SENDFILE(out, in, 2, 5);
  ASSERT_NE(req, nullptr);
  EXPECT_TRUE(RunUntil([&] { return req->completed; }));
  EXPECT_EQ(req->transferred, 5);
  EXPECT_EQ(req->exception, nullptr);
  ASSERT_EQ(log_.size(), 1u);
  EXPECT_EQ(log_[0].result, req);
  EXPECT_EQ(pair.DrainB(), "23456");
  req->dispose(req);

  zend_async_io_req_t* empty = ZEND_ASYNC_IO_SENDFILE(out, in, 0, 0);
  ASSERT_NE(empty, nullptr);
  EXPECT_TRUE(empty->completed);
  EXPECT_EQ(empty->transferred, 0);
  empty->dispose(empty);
  ZEND_ASYNC_EVENT_RELEASE(&out->event);
}

TEST_F(IoFileTest, SendfileRefusesClosedHandlesAndANonFileSource) {
  OpenedFile source("x", O_RDONLY, ZEND_ASYNC_IO_READABLE);
  StreamPair pair;
  zend_async_io_t* in = source.io();
  zend_async_io_t* out = pair.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(ZEND_ASYNC_IO_SENDFILE(in, out, 0, 1), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Sendfile source must be a file IO handle");
  EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(in));
  EXPECT_EQ(ZEND_ASYNC_IO_SENDFILE(out, in, 0, 1), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Cannot sendfile: source IO closed");
  EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(out));
  EXPECT_EQ(ZEND_ASYNC_IO_SENDFILE(out, in, 0, 1), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Cannot sendfile: destination IO closed");
  ZEND_ASYNC_EVENT_RELEASE(&out->event);
}

// ---- Coroutines -------------------------------------------------------------

// php-async tests/io 013-concurrent_file_reads: two coroutines read two
// files at once, each woken by its own request.
TEST_F(IoFileTest, TwoCoroutinesReadTwoFilesEachWokenByItsOwnRequest) {
  TempFile first("first file");
  TempFile second("second file");
  std::string got_first;
  std::string got_second;
  EXPECT_TRUE(RunMain([&] {
    auto reader = [&](const TempFile& file, std::string* out) {
      return Spawn([&file, out] {
        zend_async_io_t* io =
            ZEND_ASYNC_FS_OPEN(file.path().c_str(), O_RDONLY, 0);
        ASSERT_NE(io, nullptr);
        ASSERT_TRUE(zar::testing::WaitFor(&io->event));
        zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, nullptr, 64);
        ASSERT_NE(req, nullptr);
        EXPECT_TRUE(WaitForIo(io, req));
        out->assign(req->buf, static_cast<size_t>(req->transferred));
        req->dispose(req);
        ZEND_ASYNC_EVENT_RELEASE(&io->event);
      });
    };
    zend_coroutine_t* a = reader(first, &got_first);
    zend_coroutine_t* b = reader(second, &got_second);
    // b may finish while main awaits a.
    zar::testing::CoroutineRef held_a(a);
    zar::testing::CoroutineRef held_b(b);
    EXPECT_EQ(Await(a).error, "");
    EXPECT_EQ(Await(b).error, "");
  }));
  EXPECT_EQ(got_first, "first file");
  EXPECT_EQ(got_second, "second file");
}

}  // namespace
}  // namespace zar::io_testing
