// Async IO: the reference's own choices where the ABI speaks of stream
// handles only (docs/io.md). ZEND_ASYNC_IO_WRITE_FAILED is defined for
// writes on stream handles; the reference also marks a FILE handle whose
// write fails or is refused, and leaves the flag to writes alone. Label
// unit, not in the conformance runner.

#include <fcntl.h>
#include <unistd.h>

#include "gtest/gtest.h"
#include "tests/io/support/io_test.h"

namespace zar::io_testing {
namespace {

class IoReferenceTest : public IoTest {};

bool WriteFailed(const zend_async_io_t* io) {
  return (io->state & ZEND_ASYNC_IO_WRITE_FAILED) != 0;
}

TEST_F(IoReferenceTest, AFileWriteThatFailsMarksTheHandleWriteFailed) {
  OpenedFile opened("x", O_RDONLY, ZEND_ASYNC_IO_READABLE);
  zend_async_io_t* io = opened.io();
  ASSERT_NE(io, nullptr);
  zend_async_io_req_t* req = ZEND_ASYNC_IO_WRITE(io, "y", 1);
  ASSERT_NE(req, nullptr);
  EXPECT_FALSE(WriteFailed(io));  // in the thread pool yet
  EXPECT_TRUE(RunUntil([&] { return req->completed; }));
  EXPECT_EQ(req->transferred, -1);
  EXPECT_TRUE(WriteFailed(io));
  req->dispose(req);
}

TEST_F(IoReferenceTest, AVectoredWriteOnAFileIsRefusedAndMarksTheHandle) {
  OpenedFile opened("", O_RDWR, ZEND_ASYNC_IO_WRITABLE);
  zend_async_io_t* io = opened.io();
  ASSERT_NE(io, nullptr);
  zend_string* text = zend_string_init("x", 1, 0);
  zend_string* bufs[] = {zend_string_copy(text)};
  EXPECT_EQ(ZEND_ASYNC_IO_WRITEV(io, bufs, 1), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Vectored write only valid on stream IO");
  EXPECT_EQ(GC_REFCOUNT(text), 1u);
  EXPECT_TRUE(WriteFailed(io));
  zend_string_release(text);
}

TEST_F(IoReferenceTest, AReadThatFailsLeavesWriteFailedClear) {
  OpenedFile opened("x", O_WRONLY, ZEND_ASYNC_IO_READABLE);
  zend_async_io_t* io = opened.io();
  ASSERT_NE(io, nullptr);
  zend_async_io_req_t* req = ZEND_ASYNC_IO_READ(io, nullptr, 4);
  ASSERT_NE(req, nullptr);
  EXPECT_TRUE(RunUntil([&] { return req->completed; }));
  EXPECT_EQ(req->transferred, -1);
  EXPECT_FALSE(WriteFailed(io));
  req->dispose(req);
}

}  // namespace
}  // namespace zar::io_testing
