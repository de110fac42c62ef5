// zend-async-ref IO tests: support.
//
//   - IoTest: the reactor fixture (tests/reactor/support/reactor_test.h):
//     the async extension under test loaded, the leak check at TearDown.
//   - IoLog / AddIoRecorder: a listener on a handle's event that records
//     each notification: which request it carries (by submission index),
//     the request's outcome then, and the exception.
//   - Drive: runs the loop with the handle's event started (as a waker
//     starts it when a coroutine parks on it) until a condition holds.
//   - Descriptors: pipes, socket pairs, temporary files, loopback sockets.
//
// Everything the tests do to IO goes through the ZEND_ASYNC_* macros and
// the event vtables.
//
// Threading: the test's thread.

#ifndef ZAR_TESTS_IO_SUPPORT_IO_TEST_H_
#define ZAR_TESTS_IO_SUPPORT_IO_TEST_H_

#include <functional>
#include <string>
#include <vector>

#include "tests/reactor/support/reactor_test.h"
#include "zend_async_ref/testing/coroutines.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
}

namespace zar::io_testing {

// SIGPIPE is ignored, as PHP's CLI ignores it at startup: a write to a
// closed peer then fails with EPIPE instead of ending the process.
class IoTest : public reactor_testing::ReactorTest {
 protected:
  void SetUp() override;
};

// One notification of a handle's event.
struct IoNotification {
  void* result = nullptr;   // the request (or NULL)
  ssize_t transferred = 0;  // of a zend_async_io_req_t result
  bool completed = false;   // of a zend_async_io_req_t result
  std::string exception;    // "Class: message", or ""
};

using IoLog = std::vector<IoNotification>;

// Adds a recorder to `io`'s event. With `udp`, results are read as
// zend_async_udp_req_t. `log` must outlive the handle's callbacks.
void AddIoRecorder(zend_async_io_t* io, IoLog* log, bool udp = false);

// Starts `io`'s event, runs the loop until `done()` holds (or it stops),
// stops the event; returns done().
bool Drive(zend_async_io_t* io, const std::function<bool()>& done);

// A pipe: read end [0], write end [1].
class Pipe : public reactor_testing::DescriptorPair {
 public:
  Pipe();
  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }
  // The end was handed to a handle (closed with it).
  void ForgetReadEnd() { fds_[0] = -1; }
  void ForgetWriteEnd() { fds_[1] = -1; }
  void CloseWriteEnd() { Close(1); }
  // A PIPE handle over the read end with `state` (the handle now owns the
  // end); NULL with the exception left pending when refused.
  zend_async_io_t* HandleOnReadEnd(uint32_t state);
};

// A connected AF_UNIX stream pair; `a` is meant for a handle.
class StreamPair : public reactor_testing::DescriptorPair {
 public:
  StreamPair();
  int a() const { return fds_[0]; }
  int b() const { return fds_[1]; }
  void ForgetA() { fds_[0] = -1; }
  // A PIPE handle over `a` with `state` (the handle now owns `a`); NULL
  // with the exception left pending when refused.
  zend_async_io_t* HandleOnA(uint32_t state);
  void CloseB() { Close(1); }
  // Everything `b` can read now (non-blocking), as a string.
  std::string DrainB();
};

// A file in a fresh temporary directory, removed with it.
class TempFile {
 public:
  explicit TempFile(const std::string& content = "");
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }
  const std::string& dir() const { return dir_; }
  std::string Content() const;
  // open(2) of the file; the caller closes it.
  int Open(int flags) const;

 private:
  std::string dir_;
  std::string path_;
};

// A FILE handle with `state` over open(2) of `file` with `flags`. The
// descriptor stays the caller's (*fd_out, when given): it closes it after
// releasing the handle.
zend_async_io_t* OpenFile(const TempFile& file, int flags, uint32_t state,
                          int* fd_out = nullptr);

// A FILE handle (OpenFile) over a new TempFile with `content`, and the
// descriptor it works on; with `log`, a recorder of the handle's
// notifications (AddIoRecorder: `log` must outlive this). When this goes,
// the handle is released (unless Release() did it already), then the
// descriptor closed.
class OpenedFile {
 public:
  OpenedFile(const std::string& content, int flags, uint32_t state,
             IoLog* log = nullptr);
  ~OpenedFile();
  OpenedFile(const OpenedFile&) = delete;
  OpenedFile& operator=(const OpenedFile&) = delete;
  const TempFile& file() const { return file_; }
  zend_async_io_t* io() const { return io_; }
  int fd() const { return fd_; }
  // Releases the handle now; the descriptor stays open until this goes.
  void Release();

 private:
  TempFile file_;
  int fd_ = -1;
  zend_async_io_t* io_ = nullptr;
};

// The reactor tests' support (RunUntil, InfoOf, LoopbackAddress,
// TakeExceptionText, ...) and the coroutine helpers the IO tests use.
using namespace reactor_testing;  // NOLINT(build/namespaces)
using zar::testing::Await;
using zar::testing::AwaitOutcome;
using zar::testing::Spawn;
using zar::testing::WaitForIo;

}  // namespace zar::io_testing

#endif  // ZAR_TESTS_IO_SUPPORT_IO_TEST_H_
