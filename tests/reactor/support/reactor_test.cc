#include "tests/reactor/support/reactor_test.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "mock_zend/inspect.h"

namespace zar::reactor_testing {
namespace {

// Lives in emalloc'd memory the event frees without running destructors:
// only trivially destructible members.
struct Recorder {
  zend_async_event_callback_t base;
  NotificationLog* log;
  const char* name;
  ResultKind kind;
  RecorderHook hook;
  void* hook_arg;
};

void Record(zend_async_event_t* event, zend_async_event_callback_t* callback,
            void* result, zend_object* exception) {
  auto* recorder = reinterpret_cast<Recorder*>(callback);
  Notification notification;
  notification.name = recorder->name;
  notification.closed = ZEND_ASYNC_EVENT_IS_CLOSED(event);
  notification.loop_ref_count = event->loop_ref_count;
  notification.has_result = result != nullptr;
  switch (recorder->kind) {
    case ResultKind::kNone:
      break;
    case ResultKind::kPollMask:
      notification.value =
          reinterpret_cast<zend_async_poll_event_t*>(event)->triggered_events;
      break;
    case ResultKind::kProxyMask:
      notification.value =
          reinterpret_cast<zend_async_poll_proxy_t*>(event)->triggered_events;
      break;
    case ResultKind::kSignalNum:
      notification.value =
          reinterpret_cast<zend_async_signal_event_t*>(event)->signal;
      break;
  }
  if (exception != nullptr) {
    notification.exception = mock_zend::ClassName(exception) + ": " +
                             mock_zend::ExceptionMessage(exception);
  }
  recorder->log->push_back(notification);
  if (recorder->hook != nullptr) {
    recorder->hook(event, recorder->hook_arg);
  }
}

}  // namespace

void AddRecorder(zend_async_event_t* event, NotificationLog* log,
                 const char* name, ResultKind kind, RecorderHook hook,
                 void* hook_arg) {
  auto* recorder = reinterpret_cast<Recorder*>(
      zend_async_event_callback_new(Record, sizeof(Recorder)));
  recorder->log = log;
  recorder->name = name;
  recorder->kind = kind;
  recorder->hook = hook;
  recorder->hook_arg = hook_arg;
  ASSERT_TRUE(event->add_callback(event, &recorder->base));
}

struct sockaddr_in LoopbackAddress(int port) {
  struct sockaddr_in address;
  std::memset(&address, 0, sizeof(address));
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

int ConnectTcp(int port) {
  const struct sockaddr_in address = LoopbackAddress(port);
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  EXPECT_GE(fd, 0);
  if (connect(fd, reinterpret_cast<const sockaddr*>(&address),
              sizeof(address)) != 0) {
    const int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

zend_async_timer_event_t* StartedTimer(zend_ulong ms, bool periodic,
                                       NotificationLog* log, const char* name,
                                       RecorderHook hook, void* hook_arg) {
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(ms, periodic);
  AddRecorder(&timer->base, log, name, ResultKind::kNone, hook, hook_arg);
  EXPECT_TRUE(timer->base.start(&timer->base));
  return timer;
}

unsigned int TimeoutOf(zend_ulong ms, zend_ulong ns) {
  zend_async_timer_event_t* timer =
      ZEND_ASYNC_NEW_TIMER_EVENT_NS(ms, ns, false);
  const unsigned int timeout = timer->timeout;
  ZEND_ASYNC_EVENT_RELEASE(&timer->base);
  return timeout;
}

std::vector<std::string> Names(const NotificationLog& log) {
  std::vector<std::string> names;
  for (const Notification& notification : log) {
    names.push_back(notification.name);
  }
  return names;
}

ScratchDirectory::ScratchDirectory() {
  const char* tmp = getenv("TMPDIR");
  std::string pattern =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") +
      "/zar-fs-XXXXXX";
  if (mkdtemp(pattern.data()) != nullptr) {
    path_ = pattern;
  } else {
    ADD_FAILURE() << "mkdtemp " << pattern << ": " << std::strerror(errno);
  }
}

ScratchDirectory::~ScratchDirectory() {
  if (path_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

bool RunUntil(const std::function<bool()>& done, int max_passes) {
  for (int pass = 0; pass < max_passes && !done(); pass++) {
    if (!ZEND_ASYNC_REACTOR_EXECUTE(false) && !done()) {
      // Not alive any more: one last non-blocking pass for late callbacks.
      ZEND_ASYNC_REACTOR_EXECUTE(true);
      break;
    }
  }
  return done();
}

std::string InfoOf(zend_async_event_t* event) {
  zend_string* info = event->info(event);
  std::string text(ZSTR_VAL(info), ZSTR_LEN(info));
  zend_string_release(info);
  return text;
}

void ExpectLoopReferences(const zend_async_event_t* event, uint32_t loop_refs,
                          unsigned int active_events) {
  EXPECT_EQ(event->loop_ref_count, loop_refs);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, active_events);
}

void ExpectStartRefused(zend_async_event_t* event,
                        const std::string& exception) {
  EXPECT_FALSE(event->start(event));
  EXPECT_EQ(TakeExceptionText(), exception);
  ExpectLoopReferences(event, 0, 0);
}

namespace {

// The children of this process that have not ended, now.
int RunningChildrenNow() {
  int running = 0;
  const std::string parent = std::to_string(getpid());
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    const size_t after_comm = line.rfind(')');
    if (after_comm == std::string::npos) continue;
    std::istringstream fields(line.substr(after_comm + 1));
    std::string state, ppid;
    fields >> state >> ppid;
    if (ppid == parent && state != "Z" && state != "X") running++;
  }
  return running;
}

}  // namespace

int RunningChildProcesses() {
  const auto give_up =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  int running = RunningChildrenNow();
  while (running > 0 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    running = RunningChildrenNow();
  }
  return running;
}

EveryKind::EveryKind() {
  timer = ZEND_ASYNC_NEW_TIMER_EVENT_EX(60000, true, 16);
  poll = ZEND_ASYNC_NEW_SOCKET_EVENT_EX(sockets.left(), ASYNC_READABLE, 8);
  proxy = ZEND_ASYNC_NEW_POLL_PROXY_EVENT_EX(poll, ASYNC_READABLE, 8);
  signal = ZEND_ASYNC_NEW_SIGNAL_EVENT_EX(SIGUSR1, 8);
  trigger = ZEND_ASYNC_NEW_TRIGGER_EVENT_EX(8);
  for (zend_async_event_t* event : Events()) {
    AddRecorder(event, &log, "any");
  }
}

bool EveryKind::StartAll() const {
  for (zend_async_event_t* event : Events()) {
    if (!event->start(event)) return false;
  }
  return true;
}

void EveryKind::ReleaseAll() const {
  for (zend_async_event_t* event : Events()) {
    ZEND_ASYNC_EVENT_RELEASE(event);
  }
}

DescriptorPair::~DescriptorPair() {
  for (int fd : fds_) {
    if (fd >= 0) close(fd);
  }
}

void DescriptorPair::Close(int i) {
  close(fds_[i]);
  fds_[i] = -1;
}

SocketPair::SocketPair() {
  EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds_), 0);
  for (int fd : fds_) {
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  }
}

void SocketPair::WriteRight() {
  const char byte = 'x';
  EXPECT_EQ(write(fds_[1], &byte, 1), 1);
}

}  // namespace zar::reactor_testing
