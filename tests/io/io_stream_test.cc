// Async IO on stream handles (PIPE, TCP, TTY): create, read, write, writev,
// close, and their errors. Every descriptor is a pipe, a socket pair or a
// loopback socket.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "mock_zend/inspect.h"
#include "tests/io/support/io_test.h"
#include "zend_async_ref/testing/coroutines.h"

namespace zar::io_testing {
namespace {

// Every stream test has a socket pair whose `a` end a handle may take, and
// a log for the notifications of the handle it records.
class IoStreamTest : public IoTest {
 protected:
  // A PIPE handle over pair_.a() with `state`, its notifications recorded
  // in log_; NULL with the exception left pending when refused.
  zend_async_io_t* RecordedHandle(uint32_t state) {
    zend_async_io_t* io = pair_.HandleOnA(state);
    if (io != nullptr) AddIoRecorder(io, &log_);
    return io;
  }

  // Spawns a coroutine that submits a read of up to `max` bytes on `io`,
  // hands the request to `wait` (which parks on it) and disposes it.
  static zend_coroutine_t* SpawnReader(
      zend_async_io_t* io, size_t max,
      std::function<void(zend_async_io_req_t*)> wait) {
    return Spawn([io, max, wait] {
      zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, nullptr, max);
      ASSERT_NE(req, nullptr);
      wait(req);
      req->dispose(req);
    });
  }

  // Whether log_ holds exactly one notification, of `result`, with
  // `exception` ("Class: message"; "" for none).
  ::testing::AssertionResult OneNotification(
      const void* result, const std::string& exception) const {
    if (log_.size() != 1) {
      return ::testing::AssertionFailure() << log_.size() << " notifications";
    }
    if (log_[0].result != result) {
      return ::testing::AssertionFailure()
             << "the result is " << log_[0].result << ", not " << result;
    }
    if (log_[0].exception != exception) {
      return ::testing::AssertionFailure()
             << "the exception is \"" << log_[0].exception << "\"";
    }
    return ::testing::AssertionSuccess();
  }

  StreamPair pair_;
  IoLog log_;
};

void WriteAll(int fd, const std::string& text) {
  ASSERT_EQ(write(fd, text.data(), text.size()),
            static_cast<ssize_t>(text.size()));
}

// Submits a read of up to `max` bytes on `io` and drives the loop until it
// completes: the bytes it read, or what went wrong.
std::string DriveARead(zend_async_io_t* io, size_t max) {
  zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, nullptr, max);
  if (req == nullptr) return "<refused: " + TakeExceptionText() + ">";
  std::string got = "<not completed>";
  if (Drive(io, [&] { return req->completed; }) && req->transferred >= 0) {
    got.assign(req->buf, static_cast<size_t>(req->transferred));
  }
  req->dispose(req);
  return got;
}

// ---- Creation ---------------------------------------------------------------

TEST_F(IoStreamTest, CreateGivesAnOpenHandleOfTheTypeAndState) {
  zend_async_io_t* io =
      pair_.HandleOnA(ZEND_ASYNC_IO_READABLE | ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  EXPECT_EQ(io->type, ZEND_ASYNC_IO_TYPE_PIPE);
  EXPECT_EQ(io->state, static_cast<uint32_t>(ZEND_ASYNC_IO_READABLE |
                                             ZEND_ASYNC_IO_WRITABLE));
  EXPECT_GE(io->descriptor.fd, 0);
  EXPECT_EQ(io->event.ref_count, 1u);
  EXPECT_EQ(InfoOf(&io->event),
            "IO(type=pipe, fd=" + std::to_string(io->descriptor.fd) + ")");
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamTest, ATcpHandleNamesItsSocket) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  zend_async_io_t* io = ZEND_ASYNC_IO_CREATE(fd, ZEND_ASYNC_IO_TYPE_TCP, 0);
  ASSERT_NE(io, nullptr);
  EXPECT_EQ(io->descriptor.socket, fd);
  EXPECT_EQ(InfoOf(&io->event),
            "IO(type=tcp, socket=" + std::to_string(fd) + ")");
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamTest, CreateOverABadDescriptorThrowsAndReturnsNull) {
  EXPECT_EQ(ZEND_ASYNC_IO_CREATE(-1, ZEND_ASYNC_IO_TYPE_PIPE, 0), nullptr);
  EXPECT_EQ(
      TakeExceptionText(),
      "Async\\AsyncException: Failed to open pipe handle: bad file descriptor");
  EXPECT_EQ(ZEND_ASYNC_IO_CREATE(-1, ZEND_ASYNC_IO_TYPE_TCP, 0), nullptr);
  EXPECT_EQ(
      TakeExceptionText(),
      "Async\\AsyncException: Failed to open TCP handle: bad file descriptor");
}

TEST_F(IoStreamTest, AStdioDescriptorIsDuplicatedAndKeptWithPreserveFd) {
  // fd 0 of the test process: the handle works on a copy, and
  // PRESERVE_FD leaves 0 open when the handle closes.
  zend_async_io_t* io =
      ZEND_ASYNC_IO_CREATE(0, ZEND_ASYNC_IO_TYPE_PIPE,
                           ZEND_ASYNC_IO_READABLE | ZEND_ASYNC_IO_PRESERVE_FD);
  if (io == nullptr) {
    TakeExceptionText();
    GTEST_SKIP() << "stdin cannot be opened as a pipe here";
  }
  EXPECT_GT(io->descriptor.fd, 2);
  EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(io));
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
  EXPECT_NE(fcntl(0, F_GETFD), -1);
}

// ---- Read -------------------------------------------------------------------

TEST_F(IoStreamTest, ReadDeliversWhatThePeerWroteIntoTheCallersBuffer) {
  zend_async_io_t* io = RecordedHandle(ZEND_ASYNC_IO_READABLE);
  ASSERT_NE(io, nullptr);

  char buf[16] = {};
  zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, buf, sizeof(buf));
  ASSERT_NE(req, nullptr);
  EXPECT_FALSE(req->completed);
  EXPECT_EQ(req->buf, buf);
  WriteAll(pair_.b(), "hello");
  EXPECT_TRUE(Drive(io, [&] { return req->completed; }));

  ASSERT_TRUE(OneNotification(req, ""));
  EXPECT_EQ(log_[0].transferred, 5);
  EXPECT_TRUE(log_[0].completed);
  EXPECT_EQ(std::string(buf, 5), "hello");
  EXPECT_EQ(req->exception, nullptr);
  req->dispose(req);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamTest, ReadWithoutABufferReadsIntoOneOfMaxSizeBytes) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_READABLE);
  ASSERT_NE(io, nullptr);
  zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, nullptr, 3);
  ASSERT_NE(req, nullptr);
  ASSERT_NE(req->buf, nullptr);
  WriteAll(pair_.b(), "abcdef");
  EXPECT_TRUE(Drive(io, [&] { return req->completed; }));
  EXPECT_EQ(req->transferred, 3);
  EXPECT_EQ(std::string(req->buf, 3), "abc");
  req->dispose(req);  // frees the buffer it allocated

  // The rest is still there for the next read.
  EXPECT_EQ(DriveARead(io, 16), "def");
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamTest,
       EndOfStreamCompletesWithZeroSetsEofAndLaterReadsEndAtOnce) {
  Pipe pipe;
  zend_async_io_t* io = pipe.HandleOnReadEnd(ZEND_ASYNC_IO_READABLE);
  ASSERT_NE(io, nullptr);
  AddIoRecorder(io, &log_);

  zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, nullptr, 8);
  ASSERT_NE(req, nullptr);
  pipe.CloseWriteEnd();
  EXPECT_TRUE(Drive(io, [&] { return req->completed; }));
  EXPECT_EQ(req->transferred, 0);
  EXPECT_EQ(req->exception, nullptr);
  EXPECT_NE(io->state & ZEND_ASYNC_IO_EOF, 0u);
  req->dispose(req);

  // After EOF a read is complete on return and notifies nothing.
  zend_async_io_req_t* again = ZEND_ASYNC_IO_READ(io, nullptr, 8);
  ASSERT_NE(again, nullptr);
  EXPECT_TRUE(again->completed);
  EXPECT_EQ(again->transferred, 0);
  again->dispose(again);
  EXPECT_EQ(log_.size(), 1u);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// Nothing is read while no read is in flight: bytes and the end of the
// stream that come between two reads wait for the next one, whatever the
// loop did meanwhile.
TEST_F(IoStreamTest, BytesAndEndOfStreamBetweenReadsWaitForTheNextRead) {
  zend_async_io_t* io = RecordedHandle(ZEND_ASYNC_IO_READABLE);
  ASSERT_NE(io, nullptr);
  zend_async_io_req_t* first = ZEND_ASYNC_IO_READ(io, nullptr, 16);
  ASSERT_NE(first, nullptr);
  WriteAll(pair_.b(), "one");
  EXPECT_TRUE(Drive(io, [&] { return first->completed; }));
  first->dispose(first);

  WriteAll(pair_.b(), "two");
  pair_.CloseB();
  EXPECT_TRUE(io->event.start(&io->event));
  RunUntil([] { return false; }, 5);  // the loop runs; nobody reads
  io->event.stop(&io->event);
  EXPECT_EQ(log_.size(), 1u);
  EXPECT_EQ(io->state & ZEND_ASYNC_IO_EOF, 0u);

  EXPECT_EQ(DriveARead(io, 16), "two");
  zend_async_io_req_t* last = ZEND_ASYNC_IO_READ(io, nullptr, 16);
  ASSERT_NE(last, nullptr);
  EXPECT_TRUE(Drive(io, [&] { return last->completed; }));
  EXPECT_EQ(last->transferred, 0);
  EXPECT_NE(io->state & ZEND_ASYNC_IO_EOF, 0u);
  last->dispose(last);
  EXPECT_EQ(log_.size(), 3u);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamTest, ASecondReadWhileOneIsInFlightIsRefusedAndTheFirstGoesOn) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_READABLE);
  ASSERT_NE(io, nullptr);
  zend_async_io_req_t* first = ZEND_ASYNC_IO_READ(io, nullptr, 8);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(ZEND_ASYNC_IO_READ(io, nullptr, 8), nullptr);
  EXPECT_EQ(
      TakeExceptionText(),
      "Async\\AsyncException: Failed to start pipe read: connection already in "
      "progress");
  WriteAll(pair_.b(), "x");
  EXPECT_TRUE(Drive(io, [&] { return first->completed; }));
  EXPECT_EQ(first->transferred, 1);
  first->dispose(first);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamTest, ReadFromAClosedHandleThrows) {
  zend_async_io_t* io = pair_.HandleOnA(0);
  ASSERT_NE(io, nullptr);
  EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(io));
  EXPECT_EQ(ZEND_ASYNC_IO_READ(io, nullptr, 8), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Cannot read from closed IO handle");
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamTest, StopCancelsTheReadInFlightWithoutCompletingIt) {
  zend_async_io_t* io = RecordedHandle(ZEND_ASYNC_IO_READABLE);
  ASSERT_NE(io, nullptr);
  zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, nullptr, 8);
  ASSERT_NE(req, nullptr);
  EXPECT_TRUE(io->event.stop(&io->event));  // never started: still stops
  WriteAll(pair_.b(), "late");
  const bool completed = Drive(io, [&] { return req->completed; });
  EXPECT_FALSE(completed);
  EXPECT_TRUE(log_.empty());
  req->dispose(req);

  // The bytes wait for the next read (unless the stopped read took them:
  // then a next read would wait for bytes that never come).
  if (!completed) {
    EXPECT_EQ(DriveARead(io, 8), "late");
  }
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// A per-chunk allocator owns where the bytes land; a multishot read stays
// armed across chunks and notifies each with `completed` false.
struct Sliding {
  char buf[64];
  size_t used;
};

void SlideInto(zend_async_io_t* io, size_t, zend_async_buf_t* out) {
  auto* sliding = static_cast<Sliding*>(io->user_data);
  out->base = sliding->buf + sliding->used;
  out->len = sizeof(sliding->buf) - sliding->used;
}

TEST_F(IoStreamTest, AMultishotReadWithAnAllocatorDeliversEveryChunk) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_READABLE);
  ASSERT_NE(io, nullptr);
  Sliding sliding = {};
  io->user_data = &sliding;
  io->alloc_cb = SlideInto;
  ZEND_ASYNC_IO_SET_MULTISHOT(io);
  AddIoRecorder(io, &log_);

  zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, nullptr, 1);
  ASSERT_NE(req, nullptr);
  // Started once, as a long-lived reader is; stop() would end the read.
  EXPECT_TRUE(io->event.start(&io->event));
  WriteAll(pair_.b(), "one");
  EXPECT_TRUE(RunUntil([&] { return log_.size() == 1; }));
  sliding.used += static_cast<size_t>(log_[0].transferred);
  WriteAll(pair_.b(), "two");
  EXPECT_TRUE(RunUntil([&] { return log_.size() == 2; }));
  sliding.used += static_cast<size_t>(log_[1].transferred);

  EXPECT_EQ(std::string(sliding.buf, sliding.used), "onetwo");
  EXPECT_FALSE(log_[0].completed);
  EXPECT_FALSE(log_[1].completed);
  EXPECT_EQ(log_[0].result, req);
  EXPECT_EQ(log_[1].result, req);

  // EOF ends it: completed, 0 bytes.
  pair_.CloseB();
  EXPECT_TRUE(RunUntil([&] { return log_.size() == 3; }));
  io->event.stop(&io->event);
  EXPECT_TRUE(log_[2].completed);
  EXPECT_EQ(log_[2].transferred, 0);
  req->dispose(req);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// ---- Write ------------------------------------------------------------------

TEST_F(IoStreamTest, WriteCompletesWithTheBytesSubmittedAndThePeerReadsThem) {
  zend_async_io_t* io = RecordedHandle(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  zend_async_io_req_t* req = ZEND_ASYNC_IO_WRITE(io, "abc", 3);
  ASSERT_NE(req, nullptr);
  EXPECT_TRUE(RunUntil([&] { return req->completed; }));
  EXPECT_EQ(req->transferred, 3);
  ASSERT_TRUE(OneNotification(req, ""));
  EXPECT_EQ(pair_.DrainB(), "abc");
  req->dispose(req);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

bool WriteFailed(const zend_async_io_t* io) {
  return (io->state & ZEND_ASYNC_IO_WRITE_FAILED) != 0;
}

// What free_cb saw: how often it ran, with what, and whether the handle was
// already marked ZEND_ASYNC_IO_WRITE_FAILED (the only verdict a
// fire-and-forget caller gets).
struct FreeRecord {
  int calls = 0;
  void* data = nullptr;
  zend_async_io_t* io = nullptr;
  bool failed_seen = false;
};
FreeRecord* free_record = nullptr;

void RecordFree(void* data, zend_async_io_t* io) {
  free_record->calls++;
  free_record->data = data;
  free_record->io = io;
  free_record->failed_seen = io != nullptr && WriteFailed(io);
}

class IoStreamFreeTest : public IoStreamTest {
 protected:
  void SetUp() override {
    IoStreamTest::SetUp();
    free_record = &record;
  }
  void TearDown() override {
    IoStreamTest::TearDown();
    free_record = nullptr;
  }

  // php-src test_write_refused.c's verdict on a refused fire-and-forget
  // write: no request, `thrown` ("Class: message"), free_cb run once with
  // `data`, and the handle marked WRITE_FAILED before free_cb ran.
  void ExpectRefused(const zend_async_io_t* io, const zend_async_io_req_t* req,
                     const std::string& thrown, const void* data) {
    EXPECT_EQ(req, nullptr);
    EXPECT_EQ(TakeExceptionText(), thrown);
    EXPECT_EQ(record.calls, 1);
    EXPECT_EQ(record.data, data);
    EXPECT_TRUE(record.failed_seen);
    EXPECT_TRUE(WriteFailed(io));
  }

  // A refused zend_string batch of one reference of `text`: no request,
  // `thrown`, the reference released.
  static void ExpectStringsGivenBack(const zend_async_io_req_t* req,
                                     const std::string& thrown,
                                     const zend_string* text) {
    EXPECT_EQ(req, nullptr);
    EXPECT_EQ(TakeExceptionText(), thrown);
    EXPECT_EQ(GC_REFCOUNT(text), 1u);
  }

  // A vectored write of caller memory (iov, user_data) and one of a
  // zend_string batch (awaited or fire-and-forget) on `io`, each refused
  // with `thrown` and giving back what it was handed.
  void ExpectIovRefused(zend_async_io_t* io, const std::string& thrown) {
    ExpectRefused(io,
                  ZEND_ASYNC_IO_WRITEV_EX(io, iov, 1, RecordFree, &user_data),
                  thrown, &user_data);
  }
  static void ExpectStringBatchRefused(zend_async_io_t* io, bool awaited,
                                       const std::string& thrown) {
    zend_string* text = zend_string_init("x", 1, 0);
    zend_string* bufs[] = {zend_string_copy(text)};
    ExpectStringsGivenBack(awaited ? ZEND_ASYNC_IO_WRITEV_AWAITED(io, bufs, 1)
                                   : ZEND_ASYNC_IO_WRITEV(io, bufs, 1),
                           thrown, text);
    zend_string_release(text);
  }

  FreeRecord record;
  // Caller memory for IOV writes, and the user data free_cb gets back.
  char one[4] = "one";
  zend_async_buf_t iov[1] = {{one, 3}};
  int user_data = 0;
};

TEST_F(IoStreamFreeTest, AFireAndForgetWriteCallsFreeOnceAndNotifiesNothing) {
  zend_async_io_t* io = RecordedHandle(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  static const char payload[] = "payload\n";
  ASSERT_NE(ZEND_ASYNC_IO_WRITE_EX(io, payload, 8, RecordFree), nullptr);
  EXPECT_TRUE(RunUntil([&] { return record.calls > 0; }));
  RunUntil([] { return false; }, 5);
  EXPECT_EQ(record.calls, 1);
  EXPECT_EQ(record.data, payload);
  EXPECT_EQ(record.io, io);
  EXPECT_TRUE(log_.empty());
  EXPECT_EQ(pair_.DrainB(), "payload\n");
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// php-src sapi/asynctest test_write_refused.c: a refused fire-and-forget
// write marks the handle ZEND_ASYNC_IO_WRITE_FAILED and hands its buffer
// back once, from inside the call, with the flag already set.
TEST_F(IoStreamFreeTest,
       AWriteOverTheSingleWriteCapIsRefusedMarksWriteFailedAndFreesOnce) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  static const char payload[] = "payload\n";
  // The size is refused before the buffer is read.
  ExpectRefused(
      io,
      ZEND_ASYNC_IO_WRITE_EX(io, payload, size_t{0x7ffff000u} + 1, RecordFree),
      "Async\\AsyncException: Write of 2147479553 bytes exceeds the "
      "2147479552 a single write carries",
      payload);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamFreeTest,
       AWriteOnAClosedHandleIsRefusedMarksWriteFailedAndFreesOnce) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(io));
  EXPECT_FALSE(WriteFailed(io));  // closing fails no write
  static const char payload[] = "payload\n";
  ExpectRefused(io, ZEND_ASYNC_IO_WRITE_EX(io, payload, 8, RecordFree),
                "Async\\AsyncException: Cannot write to closed IO handle",
                payload);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamFreeTest,
       AWriteLibuvRefusesIsRefusedMarksWriteFailedAndFreesOnce) {
  // A pipe's read end: libuv derives the handle's direction from the
  // descriptor and refuses the write before queueing it.
  Pipe pipe;
  zend_async_io_t* io = pipe.HandleOnReadEnd(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  static const char payload[] = "payload\n";
  ExpectRefused(
      io, ZEND_ASYNC_IO_WRITE_EX(io, payload, 8, RecordFree),
      "Async\\AsyncException: Failed to start stream write: broken pipe",
      payload);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// A write that fails at completion: the flag is set before free_cb runs.
TEST_F(IoStreamFreeTest,
       AFireAndForgetWriteThatFailsMarksWriteFailedBeforeItsFree) {
  zend_async_io_t* io = RecordedHandle(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  pair_.CloseB();
  static const char payload[] = "payload\n";
  ASSERT_NE(ZEND_ASYNC_IO_WRITE_EX(io, payload, 8, RecordFree), nullptr);
  EXPECT_EQ(TakeExceptionText(), "");
  EXPECT_TRUE(RunUntil([&] { return record.calls > 0; }));
  EXPECT_EQ(record.calls, 1);
  EXPECT_EQ(record.data, payload);
  EXPECT_TRUE(record.failed_seen);
  EXPECT_TRUE(WriteFailed(io));
  EXPECT_TRUE(log_.empty());  // fire-and-forget: the flag is the only report
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// The control of php-src test_write_refused.c: writes that go out leave
// the flag clear, so the refusals above do not pass on a flag every write
// sets.
TEST_F(IoStreamFreeTest, WritesThatSucceedLeaveWriteFailedClear) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  static const char payload[] = "payload\n";
  ASSERT_NE(ZEND_ASYNC_IO_WRITE_EX(io, payload, 8, RecordFree), nullptr);
  EXPECT_TRUE(RunUntil([&] { return record.calls == 1; }));
  EXPECT_FALSE(record.failed_seen);

  zend_async_io_req_t* awaited = ZEND_ASYNC_IO_WRITE(io, "a,", 2);
  ASSERT_NE(awaited, nullptr);
  ASSERT_NE(ZEND_ASYNC_IO_WRITEV_EX(io, iov, 1, RecordFree, &user_data),
            nullptr);
  zend_string* text = zend_string_init("c,", 2, 0);
  zend_string* one[] = {zend_string_copy(text)};
  ASSERT_NE(ZEND_ASYNC_IO_WRITEV(io, one, 1), nullptr);
  zend_string* two[] = {zend_string_copy(text)};
  zend_async_io_req_t* awaited_vector =
      ZEND_ASYNC_IO_WRITEV_AWAITED(io, two, 1);
  ASSERT_NE(awaited_vector, nullptr);
  EXPECT_TRUE(RunUntil([&] {
    return awaited->completed && awaited_vector->completed &&
           record.calls == 2 && GC_REFCOUNT(text) == 1;
  }));
  EXPECT_FALSE(record.failed_seen);
  EXPECT_FALSE(WriteFailed(io));
  EXPECT_EQ(pair_.DrainB(), "payload\na,onec,c,");
  awaited->dispose(awaited);
  awaited_vector->dispose(awaited_vector);
  zend_string_release(text);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamTest,
       AWriteToAPeerThatClosedCompletesWithAPipeWriteErrorAndMarksWriteFailed) {
  zend_async_io_t* io = RecordedHandle(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  pair_.CloseB();
  zend_async_io_req_t* req = ZEND_ASYNC_IO_WRITE(io, "abc", 3);
  ASSERT_NE(req, nullptr);
  EXPECT_TRUE(RunUntil([&] { return req->completed; }));
  EXPECT_EQ(req->transferred, -1);
  ASSERT_EQ(log_.size(), 1u);
  EXPECT_EQ(log_[0].exception,
            "Async\\InputOutputException: Pipe write error: broken pipe");
  EXPECT_TRUE(WriteFailed(io));
  req->dispose(req);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// php-src sapi/asynctest test_write_resubmit.c: a listener disposes the
// finished request and submits the next write inside the notification.
struct Resubmit {
  zend_async_io_t* io;
  zend_async_io_req_t* active;
  int completions;
  // Submits the second write.
  zend_async_io_req_t* (*second)(zend_async_io_t* io);
};
Resubmit* resubmit = nullptr;

void DisposeAndResubmit(zend_async_event_t*, zend_async_event_callback_t*,
                        void* result, zend_object* exception) {
  if (result == nullptr || result != resubmit->active) return;
  EXPECT_EQ(exception, nullptr);
  auto* req = static_cast<zend_async_io_req_t*>(result);
  EXPECT_EQ(req->exception, nullptr);
  resubmit->completions++;
  resubmit->active = nullptr;
  req->dispose(req);
  if (resubmit->completions == 1)
    resubmit->active = resubmit->second(resubmit->io);
}

// A writable handle over `pair`'s `a` whose listener disposes each
// finished write and submits `second` inside the first notification:
// `first` is submitted and both run to completion; what the peer read.
std::string WriteAndResubmit(StreamPair* pair,
                             zend_async_io_req_t* (*first)(zend_async_io_t*),
                             zend_async_io_req_t* (*second)(zend_async_io_t*)) {
  Resubmit state = {};
  state.second = second;
  resubmit = &state;
  state.io = pair->HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  EXPECT_NE(state.io, nullptr);
  if (state.io == nullptr) return "<no handle>";
  state.io->event.add_callback(&state.io->event,
                               ZEND_ASYNC_EVENT_CALLBACK(DisposeAndResubmit));
  state.active = first(state.io);
  EXPECT_NE(state.active, nullptr);
  EXPECT_TRUE(RunUntil([&] { return state.completions == 2; }));
  EXPECT_EQ(state.active, nullptr);
  const std::string got = pair->DrainB();
  ZEND_ASYNC_EVENT_RELEASE(&state.io->event);
  resubmit = nullptr;
  return got;
}

TEST_F(IoStreamTest, AListenerMayDisposeAndResubmitInsideTheNotification) {
  EXPECT_EQ(WriteAndResubmit(
                &pair_,
                [](zend_async_io_t* io) {
                  return ZEND_ASYNC_IO_WRITE(io, "first write\n", 12);
                },
                [](zend_async_io_t* io) {
                  return ZEND_ASYNC_IO_WRITE(io, "second write\n", 13);
                }),
            "first write\nsecond write\n");
}

// ---- Vectored write ---------------------------------------------------------

TEST_F(IoStreamTest, AVectoredWriteOfStringsReleasesEveryReference) {
  zend_async_io_t* io = RecordedHandle(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  zend_string* head = zend_string_init("GET / ", 6, 0);
  zend_string* tail = zend_string_init("HTTP/1.1\r\n", 10, 0);
  zend_string* bufs[] = {zend_string_copy(head), zend_string_copy(tail)};
  ASSERT_NE(ZEND_ASYNC_IO_WRITEV(io, bufs, 2), nullptr);
  EXPECT_TRUE(RunUntil([&] { return GC_REFCOUNT(head) == 1; }));
  EXPECT_EQ(GC_REFCOUNT(tail), 1u);
  EXPECT_EQ(pair_.DrainB(), "GET / HTTP/1.1\r\n");
  EXPECT_TRUE(log_.empty());  // fire-and-forget
  zend_string_release(head);
  zend_string_release(tail);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamFreeTest,
       AVectoredWriteOfCallerMemoryCallsFreeOnceWithUserData) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  static char one[] = "one,";
  static char two[] = "two";
  zend_async_buf_t iov[] = {{one, 4}, {two, 3}};
  static int user_data;
  ASSERT_NE(ZEND_ASYNC_IO_WRITEV_EX(io, iov, 2, RecordFree, &user_data),
            nullptr);
  EXPECT_TRUE(RunUntil([&] { return record.calls > 0; }));
  EXPECT_EQ(record.calls, 1);
  EXPECT_EQ(record.data, &user_data);
  EXPECT_EQ(pair_.DrainB(), "one,two");
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// php-src test_write_refused.c for vectored writes: every refusal marks the
// handle WRITE_FAILED, then gives back what it was handed (each string's
// reference, or free_cb(user_data) once) and throws.
TEST_F(IoStreamFreeTest,
       AVectoredWriteWithAnUnknownFlagIsRefusedMarksWriteFailedAndGivesBack) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  ExpectRefused(
      io, zend_async_io_writev_fn(io, iov, 1, 0x11u, RecordFree, &user_data),
      "Async\\AsyncException: Unsupported writev flags 0x11", &user_data);

  zend_string* text = zend_string_init("x", 1, 0);
  zend_string* bufs[] = {zend_string_copy(text)};
  ExpectStringsGivenBack(
      zend_async_io_writev_fn(io, bufs, 1, 0x4u, nullptr, nullptr),
      "Async\\AsyncException: Unsupported writev flags 0x4", text);
  zend_string_release(text);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// ZEND_ASYNC_IO_WRITEV_AWAIT is for zend_string batches only: an awaited
// completion keeps the request for its owner, so it cannot also promise
// IOV's free_cb at completion.
TEST_F(
    IoStreamFreeTest,
    AnAwaitedVectoredWriteOfCallerMemoryIsRefusedMarksWriteFailedAndFreesOnce) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  ExpectRefused(
      io,
      zend_async_io_writev_fn(
          io, iov, 1, ZEND_ASYNC_IO_WRITEV_IOV | ZEND_ASYNC_IO_WRITEV_AWAIT,
          RecordFree, &user_data),
      "Async\\AsyncException: Unsupported writev flags 0x3", &user_data);
  EXPECT_EQ(pair_.DrainB(), "");
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// nbufs == 0 is the one NULL without an exception: nothing is submitted or
// refused (IOV still hands its user data back once).
TEST_F(IoStreamFreeTest,
       AVectoredWriteOfNoBuffersReturnsNullWithoutAnExceptionOrTheFlag) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  EXPECT_EQ(ZEND_ASYNC_IO_WRITEV_EX(io, iov, 0, RecordFree, &user_data),
            nullptr);
  EXPECT_EQ(TakeExceptionText(), "");
  EXPECT_EQ(record.calls, 1);
  EXPECT_EQ(record.data, &user_data);
  zend_string* none[1] = {nullptr};
  EXPECT_EQ(ZEND_ASYNC_IO_WRITEV(io, none, 0), nullptr);
  EXPECT_EQ(TakeExceptionText(), "");
  EXPECT_EQ(ZEND_ASYNC_IO_WRITEV_AWAITED(io, none, 0), nullptr);
  EXPECT_EQ(TakeExceptionText(), "");
  EXPECT_FALSE(record.failed_seen);
  EXPECT_FALSE(WriteFailed(io));
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamFreeTest,
       AVectoredWriteOnAClosedHandleIsRefusedMarksWriteFailedAndGivesBack) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(io));
  EXPECT_FALSE(WriteFailed(io));
  const std::string thrown =
      "Async\\AsyncException: Cannot write to closed IO handle";
  ExpectIovRefused(io, thrown);
  ExpectStringBatchRefused(io, /*awaited=*/false, thrown);
  ExpectStringBatchRefused(io, /*awaited=*/true, thrown);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamFreeTest,
       AVectoredWriteLibuvRefusesIsRefusedMarksWriteFailedAndGivesBack) {
  // A pipe's read end: libuv refuses the write before queueing it.
  Pipe pipe;
  zend_async_io_t* io = pipe.HandleOnReadEnd(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  const std::string thrown =
      "Async\\AsyncException: Failed to start vectored write: broken pipe";
  ExpectIovRefused(io, thrown);
  ExpectStringBatchRefused(io, /*awaited=*/true, thrown);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// The count of a zend_string batch is 16 bits wide: one slot more is
// refused after every slot was released, awaited or not.
TEST_F(IoStreamTest,
       AVectoredWriteOverTheSlotLimitReleasesEverySlotAndMarksWriteFailed) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  constexpr unsigned kOver = UINT16_MAX + 1u;
  zend_string* one = zend_string_init("p", 1, 0);
  std::vector<zend_string*> slots(kOver);
  for (const bool awaited : {false, true}) {
    for (auto& slot : slots) slot = zend_string_copy(one);
    EXPECT_EQ(awaited ? ZEND_ASYNC_IO_WRITEV_AWAITED(io, slots.data(), kOver)
                      : ZEND_ASYNC_IO_WRITEV(io, slots.data(), kOver),
              nullptr);
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: Vectored write of 65536 buffers "
              "exceeds the limit of 65535");
    EXPECT_EQ(GC_REFCOUNT(one), 1u);
    EXPECT_TRUE(WriteFailed(io));
  }
  zend_string_release(one);
  EXPECT_EQ(pair_.DrainB(), "");
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// A fire-and-forget vectored write that fails at completion: the flag is
// set before free_cb runs (IOV) or the references go (ZSTR).
TEST_F(IoStreamFreeTest,
       AFireAndForgetVectoredWriteThatFailsMarksWriteFailedBeforeItsFree) {
  zend_async_io_t* io = RecordedHandle(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  pair_.CloseB();
  ASSERT_NE(ZEND_ASYNC_IO_WRITEV_EX(io, iov, 1, RecordFree, &user_data),
            nullptr);
  EXPECT_TRUE(RunUntil([&] { return record.calls > 0; }));
  EXPECT_EQ(record.calls, 1);
  EXPECT_TRUE(record.failed_seen);
  EXPECT_TRUE(WriteFailed(io));
  EXPECT_TRUE(log_.empty());
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// ---- Awaited vectored write (ZEND_ASYNC_IO_WRITEV_AWAIT)
// ---------------------

TEST_F(
    IoStreamTest,
    AnAwaitedVectoredWriteNotifiesItsRequestWithoutAnExceptionAndOutlivesIt) {
  zend_async_io_t* io = RecordedHandle(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  zend_string* head = zend_string_init("GET / ", 6, 0);
  zend_string* tail = zend_string_init("HTTP/1.1\r\n", 10, 0);
  zend_string* bufs[] = {zend_string_copy(head), zend_string_copy(tail)};
  zend_async_io_req_t* req = ZEND_ASYNC_IO_WRITEV_AWAITED(io, bufs, 2);
  ASSERT_NE(req, nullptr);
  EXPECT_TRUE(RunUntil([&] { return req->completed; }));
  ASSERT_TRUE(OneNotification(req, ""));
  EXPECT_TRUE(log_[0].completed);
  EXPECT_EQ(req->transferred, 16);
  EXPECT_EQ(req->exception, nullptr);
  // The references go at completion; the request stays its owner's.
  EXPECT_EQ(GC_REFCOUNT(head), 1u);
  EXPECT_EQ(GC_REFCOUNT(tail), 1u);
  EXPECT_EQ(pair_.DrainB(), "GET / HTTP/1.1\r\n");
  EXPECT_FALSE(WriteFailed(io));
  req->dispose(req);
  zend_string_release(head);
  zend_string_release(tail);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// The notification carries no exception, so listeners that forward any
// exception (a sibling parked on the handle) stay asleep; the status is on
// the request.
TEST_F(IoStreamTest,
       AnAwaitedVectoredWriteThatFailsKeepsTheErrorOnItsRequestNotTheNotify) {
  zend_async_io_t* io = RecordedHandle(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  pair_.CloseB();
  zend_string* text = zend_string_init("lost", 4, 0);
  zend_string* bufs[] = {zend_string_copy(text)};
  zend_async_io_req_t* req = ZEND_ASYNC_IO_WRITEV_AWAITED(io, bufs, 1);
  ASSERT_NE(req, nullptr);
  EXPECT_TRUE(RunUntil([&] { return req->completed; }));
  ASSERT_TRUE(OneNotification(req, ""));
  EXPECT_EQ(req->transferred, -1);
  ASSERT_NE(req->exception, nullptr);
  EXPECT_EQ(mock_zend::ClassName(req->exception) + ": " +
                mock_zend::ExceptionMessage(req->exception),
            "Async\\InputOutputException: Pipe writev error: broken pipe");
  EXPECT_TRUE(WriteFailed(io));
  EXPECT_EQ(GC_REFCOUNT(text), 1u);
  req->dispose(req);
  zend_string_release(text);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// A closing handle broadcasts result NULL with "Stream was closed": that is
// the awaiter's wake-up, and it does not complete the request. The awaiter
// disposes it while libuv still owes its completion, which finishes the
// dispose (the fixture's leak check) and notifies nothing.
TEST_F(IoStreamTest,
       AnAwaiterOfAVectoredWriteIsWokenByTheHandlesCloseAndDisposesItInFlight) {
  zend_string* big = zend_string_alloc(1 << 22, 0);
  std::memset(ZSTR_VAL(big), 'x', ZSTR_LEN(big));
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  AddIoRecorder(io, &log_);
  EXPECT_TRUE(RunMain([&] {
    zend_coroutine_t* writer = Spawn([&] {
      zend_string* bufs[] = {zend_string_copy(big)};
      zend_async_io_req_t* req = ZEND_ASYNC_IO_WRITEV_AWAITED(io, bufs, 1);
      ASSERT_NE(req, nullptr);
      EXPECT_FALSE(WaitForIo(io, req));  // more than the socket buffer holds
      EXPECT_EQ(TakeExceptionText(),
                "Async\\InputOutputException: Stream was closed");
      EXPECT_FALSE(req->completed);
      req->dispose(req);
    });
    zar::testing::CoroutineRef held(writer);
    zar::testing::Yield();  // the writer parks
    EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(io));
    EXPECT_EQ(Await(writer).error, "");
  }));
  // The cancelled write completes on the loop: the references go with it.
  EXPECT_TRUE(RunUntil([&] { return GC_REFCOUNT(big) == 1; }));
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
  ASSERT_TRUE(OneNotification(
      nullptr, "Async\\InputOutputException: Stream was closed"));
  zend_string_release(big);
}

// The completion drops the request's link to its handle: its owner may
// dispose it after the handle is gone.
TEST_F(IoStreamTest, AnAwaitedVectoredWriteMayBeDisposedAfterItsHandleIsGone) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  zend_string* bufs[] = {zend_string_init("bye", 3, 0)};
  zend_async_io_req_t* req = ZEND_ASYNC_IO_WRITEV_AWAITED(io, bufs, 1);
  ASSERT_NE(req, nullptr);
  EXPECT_TRUE(RunUntil([&] { return req->completed; }));
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
  RunUntil([] { return false; }, 5);  // the handle's close runs: it is freed
  EXPECT_EQ(pair_.DrainB(), "bye");
  EXPECT_EQ(req->transferred, 3);
  req->dispose(req);
}

// php-src test_write_resubmit.c with awaited vectored writes: the listener
// disposes the finished request and submits the next inside the
// notification.
zend_async_io_req_t* WriteAwaited(zend_async_io_t* io, const char* text) {
  zend_string* bufs[] = {zend_string_init(text, strlen(text), 0)};
  return ZEND_ASYNC_IO_WRITEV_AWAITED(io, bufs, 1);
}

TEST_F(IoStreamTest,
       AListenerMayDisposeAnAwaitedVectoredWriteAndResubmitInsideTheNotify) {
  EXPECT_EQ(
      WriteAndResubmit(
          &pair_,
          [](zend_async_io_t* io) { return WriteAwaited(io, "first\n"); },
          [](zend_async_io_t* io) { return WriteAwaited(io, "second\n"); }),
      "first\nsecond\n");
}

// ---- Close ------------------------------------------------------------------

TEST_F(IoStreamTest, CloseWakesListenersWithStreamWasClosedAndDetachesTheRead) {
  zend_async_io_t* io = RecordedHandle(ZEND_ASYNC_IO_READABLE);
  ASSERT_NE(io, nullptr);
  zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, nullptr, 8);
  ASSERT_NE(req, nullptr);

  EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(io));
  ASSERT_TRUE(OneNotification(
      nullptr, "Async\\InputOutputException: Stream was closed"));
  EXPECT_TRUE(req->completed);
  EXPECT_TRUE(req->io_closed);
  EXPECT_EQ(req->transferred, 0);
  EXPECT_EQ(io->state & (ZEND_ASYNC_IO_CLOSED | ZEND_ASYNC_IO_EOF),
            static_cast<uint32_t>(ZEND_ASYNC_IO_CLOSED | ZEND_ASYNC_IO_EOF));
  EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(io));  // again: nothing more
  EXPECT_EQ(log_.size(), 1u);

  // The peer sees the descriptor closed.
  char byte;
  EXPECT_EQ(
      RunUntil([&] { return recv(pair_.b(), &byte, 1, MSG_DONTWAIT) == 0; },
               50),
      true);
  // The request outlives the handle; its owner disposes it.
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
  req->dispose(req);
}

TEST_F(IoStreamTest, CloseCancelsWritesInFlightWithOperationCanceled) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  // Fill the socket buffer so that a write stays queued.
  std::string big(1 << 22, 'x');
  zend_async_io_req_t* req = ZEND_ASYNC_IO_WRITE(io, big.data(), big.size());
  ASSERT_NE(req, nullptr);
  EXPECT_FALSE(req->completed);
  EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(io));
  EXPECT_TRUE(RunUntil([&] { return req->completed; }));
  EXPECT_EQ(req->transferred, -1);
  ASSERT_NE(req->exception, nullptr);
  req->dispose(req);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamTest, DisposeWithAReadInFlightReleasesEverything) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_READABLE);
  ASSERT_NE(io, nullptr);
  // The read still attached goes with the handle.
  ASSERT_NE(ZEND_ASYNC_IO_READ(io, nullptr, 8), nullptr);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// The request ends with the handle never released and a write still
// queued whose owner left: the end of the request closes the handle, libuv
// cancels the write, and both are freed (the fixture's leak check).
TEST_F(IoStreamTest, TheRequestsEndClosesAHandleLeftOpenWithAWriteQueued) {
  zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  static std::string big(1 << 22, 'x');
  zend_async_io_req_t* req = ZEND_ASYNC_IO_WRITE(io, big.data(), big.size());
  ASSERT_NE(req, nullptr);
  EXPECT_FALSE(req->completed);
  req->dispose(req);  // in flight: freed by its completion
}

static void CountDetach(zend_async_io_t*, void* arg) {
  ++*static_cast<int*>(arg);
}

TEST_F(IoStreamTest, TheLastReleaseTellsTheOwnerOnceThroughOnDetach) {
  zend_async_io_t* io = pair_.HandleOnA(0);
  ASSERT_NE(io, nullptr);
  int detached = 0;
  io->on_detach = CountDetach;
  io->on_detach_arg = &detached;
  ZEND_ASYNC_EVENT_ADD_REF(&io->event);
  io->event.dispose(&io->event);  // one owner of two leaves
  EXPECT_EQ(detached, 0);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
  EXPECT_EQ(detached, 1);
}

// ---- Flush, stat, await, seek on streams -----------------------------------

TEST_F(IoStreamTest, FlushAndStatOfAStreamCompleteAtOnce) {
  zend_async_io_t* io = pair_.HandleOnA(0);
  ASSERT_NE(io, nullptr);
  zend_async_io_req_t* flush = ZEND_ASYNC_IO_FLUSH(io);
  ASSERT_NE(flush, nullptr);
  EXPECT_TRUE(flush->completed);
  EXPECT_EQ(flush->result, 0);
  flush->dispose(flush);

  zend_stat_t st;
  zend_async_io_req_t* stat = ZEND_ASYNC_IO_STAT(io, &st);
  ASSERT_NE(stat, nullptr);
  EXPECT_TRUE(stat->completed);
  EXPECT_EQ(stat->result, 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  stat->dispose(stat);

  EXPECT_EQ(ZEND_ASYNC_IO_AWAIT(io, ZEND_ASYNC_IO_READABLE, nullptr), 0);
  EXPECT_EQ(ZEND_ASYNC_IO_SEEK(io, 0, SEEK_SET), -1);
  EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(io));
  EXPECT_EQ(ZEND_ASYNC_IO_AWAIT(io, ZEND_ASYNC_IO_READABLE, nullptr), -1);
  EXPECT_EQ(ZEND_ASYNC_IO_FLUSH(io), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Cannot flush closed IO handle");
  EXPECT_EQ(ZEND_ASYNC_IO_STAT(io, &st), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Cannot stat closed IO handle");
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

// ---- Coroutines -------------------------------------------------------------

// As PHP's stream layer reads: the coroutine parks on the handle until its
// request completes; another coroutine writes the bytes.
TEST_F(IoStreamTest, ACoroutineParksOnItsReadUntilAnotherWrites) {
  std::string got;
  std::vector<std::string> order;
  EXPECT_TRUE(RunMain([&] {
    zend_async_io_t* reader = pair_.HandleOnA(ZEND_ASYNC_IO_READABLE);
    ASSERT_NE(reader, nullptr);
    zend_coroutine_t* consumer =
        SpawnReader(reader, 32, [&](zend_async_io_req_t* req) {
          order.push_back("reader parks");
          EXPECT_TRUE(WaitForIo(reader, req));
          order.push_back("reader resumed");
          got.assign(req->buf, static_cast<size_t>(req->transferred));
        });
    zend_coroutine_t* producer = Spawn([&] {
      order.push_back("writer writes");
      WriteAll(pair_.b(), "ping");
    });
    // The producer finishes while main awaits the consumer.
    zar::testing::CoroutineRef held_consumer(consumer);
    zar::testing::CoroutineRef held_producer(producer);
    EXPECT_EQ(Await(consumer).error, "");
    EXPECT_EQ(Await(producer).error, "");
    ZEND_ASYNC_EVENT_RELEASE(&reader->event);
  }));
  EXPECT_EQ(got, "ping");
  EXPECT_EQ(order, (std::vector<std::string>{"reader parks", "writer writes",
                                             "reader resumed"}));
}

// A coroutine parked on a read is woken by close() with "Stream was
// closed" (php-async tests/io 007-pipe_close_during_io).
TEST_F(IoStreamTest, ACoroutineParkedOnAReadIsWokenByCloseWithTheException) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_READABLE);
    ASSERT_NE(io, nullptr);
    zend_coroutine_t* consumer =
        SpawnReader(io, 8, [&](zend_async_io_req_t* req) {
          EXPECT_FALSE(WaitForIo(io, req));
          EXPECT_TRUE(req->io_closed);
        });
    zar::testing::Yield();  // the consumer parks
    EXPECT_TRUE(ZEND_ASYNC_IO_CLOSE(io));
    const AwaitOutcome outcome = Await(consumer);
    EXPECT_EQ(outcome.error, "Async\\InputOutputException: Stream was closed");
    ZEND_ASYNC_EVENT_RELEASE(&io->event);
  }));
}

// php-async tests/io 039-pipe_read_timeout, 040-pipe_read_timeout_then_success:
// a read awaited with a timeout that passes first gives the
// TimeoutException; its owner disposes it, and the next read gets the
// bytes written afterwards.
TEST_F(IoStreamTest, AReadWhoseTimeoutPassesFirstIsDisposedAndTheNextReadsOn) {
  std::string got;
  EXPECT_TRUE(RunMain([&] {
    zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_READABLE);
    ASSERT_NE(io, nullptr);
    zend_coroutine_t* reader = Spawn([&] {
      zend_async_io_req_t* first = ZEND_ASYNC_IO_READ(io, nullptr, 8);
      ASSERT_NE(first, nullptr);
      EXPECT_FALSE(WaitForIo(io, first, 5));
      EXPECT_EQ(TakeExceptionText(),
                "Async\\TimeoutException: Operation has been cancelled by "
                "timeout");
      EXPECT_FALSE(first->completed);
      first->dispose(first);
      WriteAll(pair_.b(), "later");
      zend_async_io_req_t* second = ZEND_ASYNC_IO_READ(io, nullptr, 8);
      ASSERT_NE(second, nullptr);
      EXPECT_TRUE(WaitForIo(io, second, 1000));
      got.assign(second->buf, static_cast<size_t>(second->transferred));
      second->dispose(second);
    });
    zar::testing::CoroutineRef held(reader);
    EXPECT_EQ(Await(reader).error, "");
    ZEND_ASYNC_EVENT_RELEASE(&io->event);
  }));
  EXPECT_EQ(got, "later");
}

// Cancelled while its read is in flight: the coroutine disposes the
// request; nothing leaks and nothing is delivered later.
TEST_F(IoStreamTest, ACoroutineCancelledWhileReadingLeaksNothing) {
  EXPECT_TRUE(RunMain([&] {
    zend_async_io_t* io = pair_.HandleOnA(ZEND_ASYNC_IO_READABLE);
    ASSERT_NE(io, nullptr);
    zend_coroutine_t* consumer = SpawnReader(
        io, 8,
        [&](zend_async_io_req_t* req) { EXPECT_FALSE(WaitForIo(io, req)); });
    zar::testing::CoroutineRef held(consumer);
    zar::testing::Yield();
    zar::testing::Cancel(consumer);
    const AwaitOutcome outcome = Await(consumer);
    EXPECT_EQ(outcome.error.rfind("Async\\AsyncCancellation", 0), 0u)
        << outcome.error;
    WriteAll(pair_.b(), "late");
    zar::testing::YieldTimes(3);
    ZEND_ASYNC_EVENT_RELEASE(&io->event);
  }));
}

// ---- TCP over loopback ------------------------------------------------------

// A connected loopback TCP pair: `client` for a handle, `server` plain.
struct LoopbackTcp {
  int client = -1;
  int server = -1;
  LoopbackTcp() {
    const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in address;
    std::memset(&address, 0, sizeof(address));
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    EXPECT_EQ(
        bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof(address)),
        0);
    EXPECT_EQ(listen(listener, 1), 0);
    EXPECT_EQ(
        getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length),
        0);
    client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    EXPECT_EQ(
        connect(client, reinterpret_cast<sockaddr*>(&address), sizeof(address)),
        0);
    server = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    close(listener);
  }
  ~LoopbackTcp() {
    if (client >= 0) close(client);
    if (server >= 0) close(server);
  }
};

// A peer that resets the connection (SO_LINGER 0, then close): the read
// in flight completes with -1 and the libuv error.
TEST_F(IoStreamTest, AReadOfAResetConnectionCompletesWithAPipeReadError) {
  LoopbackTcp tcp;
  zend_async_io_t* io = ZEND_ASYNC_IO_CREATE(tcp.client, ZEND_ASYNC_IO_TYPE_TCP,
                                             ZEND_ASYNC_IO_READABLE);
  ASSERT_NE(io, nullptr);
  tcp.client = -1;
  AddIoRecorder(io, &log_);
  zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, nullptr, 8);
  ASSERT_NE(req, nullptr);
  const struct linger reset = {1, 0};
  ASSERT_EQ(
      setsockopt(tcp.server, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset)), 0);
  close(tcp.server);
  tcp.server = -1;
  EXPECT_TRUE(Drive(io, [&] { return req->completed; }));
  EXPECT_EQ(req->transferred, -1);
  ASSERT_EQ(log_.size(), 1u);
  EXPECT_EQ(log_[0].exception,
            "Async\\InputOutputException: Pipe read error: connection reset "
            "by peer");
  EXPECT_EQ(io->state & ZEND_ASYNC_IO_EOF, 0u);
  req->dispose(req);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

TEST_F(IoStreamTest, ATcpHandleEchoesOverLoopbackAndTakesSocketOptions) {
  LoopbackTcp tcp;
  zend_async_io_t* io =
      ZEND_ASYNC_IO_CREATE(tcp.client, ZEND_ASYNC_IO_TYPE_TCP,
                           ZEND_ASYNC_IO_READABLE | ZEND_ASYNC_IO_WRITABLE);
  ASSERT_NE(io, nullptr);
  tcp.client = -1;
  EXPECT_EQ(ZEND_ASYNC_IO_SET_OPTION(io, ZEND_ASYNC_SOCKET_OPT_NODELAY, 1), 0);
  EXPECT_EQ(ZEND_ASYNC_IO_SET_OPTION(io, ZEND_ASYNC_SOCKET_OPT_KEEPALIVE, 1),
            0);
  // A UDP option on TCP is accepted and ignored; an unknown one is -1.
  EXPECT_EQ(ZEND_ASYNC_IO_SET_OPTION(io, ZEND_ASYNC_SOCKET_OPT_BROADCAST, 1),
            0);
  EXPECT_EQ(ZEND_ASYNC_IO_SET_OPTION(
                io, static_cast<zend_async_socket_option_t>(99), 1),
            -1);

  zend_async_io_req_t* sent = ZEND_ASYNC_IO_WRITE(io, "hello", 5);
  ASSERT_NE(sent, nullptr);
  EXPECT_TRUE(RunUntil([&] { return sent->completed; }));
  char buf[8];
  EXPECT_EQ(recv(tcp.server, buf, sizeof(buf), 0), 5);
  EXPECT_EQ(send(tcp.server, buf, 5, 0), 5);
  EXPECT_EQ(DriveARead(io, 8), "hello");
  sent->dispose(sent);
  ZEND_ASYNC_EVENT_RELEASE(&io->event);
}

}  // namespace
}  // namespace zar::io_testing
