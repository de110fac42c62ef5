#include "tests/io/support/io_test.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "mock_zend/inspect.h"
#include "zend_async_ref/testing/coroutines.h"

namespace zar::io_testing {
namespace {

// Lives in emalloc'd memory the event frees without running destructors:
// only trivially destructible members.
struct IoRecorder {
  zend_async_event_callback_t base;
  IoLog* log;
  bool udp;
};

std::string Describe(zend_object* exception) {
  if (exception == nullptr) return "";
  return mock_zend::ClassName(exception) + ": " +
         mock_zend::ExceptionMessage(exception);
}

void Record(zend_async_event_t*, zend_async_event_callback_t* callback,
            void* result, zend_object* exception) {
  auto* recorder = reinterpret_cast<IoRecorder*>(callback);
  IoNotification notification;
  notification.result = result;
  if (result != nullptr && recorder->udp) {
    auto* req = static_cast<zend_async_udp_req_t*>(result);
    notification.transferred = req->transferred;
    notification.completed = req->completed;
  } else if (result != nullptr) {
    auto* req = static_cast<zend_async_io_req_t*>(result);
    notification.transferred = req->transferred;
    notification.completed = req->completed;
  }
  notification.exception = Describe(exception);
  recorder->log->push_back(notification);
}

}  // namespace

void IoTest::SetUp() {
  signal(SIGPIPE, SIG_IGN);
  reactor_testing::ReactorTest::SetUp();
}

void AddIoRecorder(zend_async_io_t* io, IoLog* log, bool udp) {
  auto* recorder = reinterpret_cast<IoRecorder*>(
      zend_async_event_callback_new(Record, sizeof(IoRecorder)));
  recorder->log = log;
  recorder->udp = udp;
  ASSERT_TRUE(io->event.add_callback(&io->event, &recorder->base));
}

bool Drive(zend_async_io_t* io, const std::function<bool()>& done) {
  EXPECT_TRUE(io->event.start(&io->event));
  const bool reached = reactor_testing::RunUntil(done);
  io->event.stop(&io->event);
  return reached;
}

Pipe::Pipe() { EXPECT_EQ(pipe2(fds_, O_CLOEXEC), 0); }

zend_async_io_t* Pipe::HandleOnReadEnd(uint32_t state) {
  zend_async_io_t* io =
      ZEND_ASYNC_IO_CREATE(fds_[0], ZEND_ASYNC_IO_TYPE_PIPE, state);
  if (io != nullptr) fds_[0] = -1;
  return io;
}

StreamPair::StreamPair() {
  EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds_), 0);
}

zend_async_io_t* StreamPair::HandleOnA(uint32_t state) {
  zend_async_io_t* io =
      ZEND_ASYNC_IO_CREATE(fds_[0], ZEND_ASYNC_IO_TYPE_PIPE, state);
  if (io != nullptr) fds_[0] = -1;
  return io;
}

std::string StreamPair::DrainB() {
  std::string got;
  char buf[4096];
  for (;;) {
    const ssize_t n = recv(fds_[1], buf, sizeof(buf), MSG_DONTWAIT);
    if (n <= 0) break;
    got.append(buf, static_cast<size_t>(n));
  }
  return got;
}

TempFile::TempFile(const std::string& content) {
  char dir_template[] = "/tmp/zar-io-XXXXXX";
  const char* dir = mkdtemp(dir_template);
  EXPECT_NE(dir, nullptr);
  dir_ = dir != nullptr ? dir : "/tmp";
  path_ = dir_ + "/file";
  std::ofstream out(path_, std::ios::binary);
  out << content;
}

TempFile::~TempFile() {
  unlink(path_.c_str());
  rmdir(dir_.c_str());
}

std::string TempFile::Content() const {
  std::ifstream in(path_, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int TempFile::Open(int flags) const {
  return open(path_.c_str(), flags | O_CLOEXEC, 0600);
}

zend_async_io_t* OpenFile(const TempFile& file, int flags, uint32_t state,
                          int* fd_out) {
  const int fd = file.Open(flags);
  EXPECT_GE(fd, 0);
  if (fd_out != nullptr) *fd_out = fd;
  return ZEND_ASYNC_IO_CREATE(fd, ZEND_ASYNC_IO_TYPE_FILE, state);
}

OpenedFile::OpenedFile(const std::string& content, int flags, uint32_t state,
                       IoLog* log)
    : file_(content) {
  io_ = OpenFile(file_, flags, state, &fd_);
  if (io_ != nullptr && log != nullptr) AddIoRecorder(io_, log);
}

OpenedFile::~OpenedFile() {
  Release();
  if (fd_ >= 0) close(fd_);
}

void OpenedFile::Release() {
  if (io_ != nullptr) ZEND_ASYNC_EVENT_RELEASE(&io_->event);
  io_ = nullptr;
}

}  // namespace zar::io_testing
