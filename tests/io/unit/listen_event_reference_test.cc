// Socket listening: the reference's own choices where the ABI and php-async
// leave them open (docs/io.md, "Differences from upstream (socket listening)"),
// and its trace lines. Label unit, not in the conformance runner.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

extern "C" {
#include "zend_async_ref/trace.h"
}

namespace zar::reactor_testing {
namespace {

using ::testing::ElementsAre;

class ListenReferenceTest : public ReactorTest {};

bool Readable(int fd) {
  pollfd entry{.fd = fd, .events = POLLIN, .revents = 0};
  return poll(&entry, 1, 0) == 1;
}

zend_async_listen_event_t* StartedListener(int* port) {
  zend_async_listen_event_t* listener =
      ZEND_ASYNC_SOCKET_LISTEN("127.0.0.1", 0, 16);
  EXPECT_NE(listener, nullptr);
  EXPECT_EQ(listener->get_local_address(listener, nullptr, 0, port), 0);
  EXPECT_TRUE(listener->base.start(&listener->base));
  return listener;
}

struct Kept {
  zend_async_event_callback_t base;
  std::vector<int>* sockets;
};

void Keep(zend_async_event_t* event, zend_async_event_callback_t* callback,
          void* result, zend_object* exception) {
  (void)event;
  (void)exception;
  reinterpret_cast<Kept*>(callback)->sockets->push_back(
      *static_cast<zend_socket_t*>(result));
}

void AddKeeper(zend_async_listen_event_t* listener, std::vector<int>* sockets) {
  auto* callback = reinterpret_cast<Kept*>(
      zend_async_event_callback_new(Keep, sizeof(Kept)));
  callback->sockets = sockets;
  ASSERT_TRUE(listener->base.add_callback(&listener->base, &callback->base));
}

// php-async leaves the socket of a connection nobody was told of open.
TEST_F(ListenReferenceTest, WithoutACallbackTheReactorClosesTheConnection) {
  int port = 0;
  zend_async_listen_event_t* listener = StartedListener(&port);
  const int client = ConnectTcp(port);
  ASSERT_GE(client, 0);

  ASSERT_TRUE(RunUntil([&] { return Readable(client); }));
  char byte;
  EXPECT_LE(read(client, &byte, 1), 0);
  close(client);
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
}

// php-async's dup() leaves the copy inheritable by exec'd programs.
TEST_F(ListenReferenceTest, DeliveredSocketIsNonBlockingAndCloseOnExec) {
  int port = 0;
  zend_async_listen_event_t* listener = StartedListener(&port);
  std::vector<int> sockets;
  AddKeeper(listener, &sockets);
  const int client = ConnectTcp(port);
  ASSERT_GE(client, 0);
  ASSERT_TRUE(RunUntil([&] { return sockets.size() == 1; }));

  EXPECT_NE(fcntl(sockets[0], F_GETFL) & O_NONBLOCK, 0);
  EXPECT_NE(fcntl(sockets[0], F_GETFD) & FD_CLOEXEC, 0);
  close(sockets[0]);
  close(client);
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
}

// php-async passes the port on to libuv, which keeps its low 16 bits.
TEST_F(ListenReferenceTest, PortOutOfRangeIsAParseError) {
  EXPECT_EQ(ZEND_ASYNC_SOCKET_LISTEN("127.0.0.1", 70000, 16), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Failed to parse address 127.0.0.1:70000: "
            "invalid argument");
  EXPECT_EQ(ZEND_ASYNC_SOCKET_LISTEN("127.0.0.1", -1, 16), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Failed to parse address 127.0.0.1:-1: "
            "invalid argument");
}

// php-async dereferences a NULL host.
TEST_F(ListenReferenceTest, NullHostIsRefused) {
  EXPECT_EQ(ZEND_ASYNC_SOCKET_LISTEN(nullptr, 80, 16), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Failed to parse address <null>:80: invalid "
            "argument");
  EXPECT_EQ(
      ZEND_ASYNC_SOCKET_LISTEN_EX(nullptr, 0, 16, ZEND_ASYNC_LISTEN_F_UNIX, 0),
      nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Failed to bind AF_UNIX socket <null>: "
            "invalid argument");
}

void Capture(const char* line, size_t length, void* arg) {
  const std::string text(line, length);
  if (text.find(" listen ") != std::string::npos) {
    static_cast<std::vector<std::string>*>(arg)->push_back(text);
  }
}

TEST_F(ListenReferenceTest, TraceTellsStartPauseHoldResumeAndAccept) {
  std::vector<std::string> lines;
  zend_async_ref_trace_to_callback(Capture, &lines);

  int port = 0;
  zend_async_listen_event_t* listener = StartedListener(&port);
  std::vector<int> sockets;
  AddKeeper(listener, &sockets);
  ASSERT_TRUE(listener->base.stop(&listener->base));
  const int client = ConnectTcp(port);
  ASSERT_GE(client, 0);
  zend_async_trigger_event_t* keeper = ZEND_ASYNC_NEW_TRIGGER_EVENT();
  ASSERT_TRUE(keeper->base.start(&keeper->base));
  for (int i = 0; i < 20; i++) ZEND_ASYNC_REACTOR_EXECUTE(true);
  ZEND_ASYNC_EVENT_RELEASE(&keeper->base);
  ASSERT_TRUE(listener->base.start(&listener->base));
  ASSERT_TRUE(RunUntil([&] { return sockets.size() == 1; }));
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
  zend_async_ref_trace_disable();

  EXPECT_THAT(lines, ElementsAre("[trace] main listen start Listen#1 "
                                 "(backlog=16)",
                                 "[trace] main listen pause Listen#1",
                                 "[trace] main listen hold Listen#1",
                                 "[trace] main listen resume Listen#1",
                                 "[trace] main listen accept Listen#1",
                                 "[trace] main listen pause Listen#1"));
  close(sockets[0]);
  close(client);
}

}  // namespace
}  // namespace zar::reactor_testing
