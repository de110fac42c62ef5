// Socket listening (zend_async_socket_listening_register): creation and
// its errors, the local address, delivery of connections with a socket the
// consumer owns, pausing with stop() and resuming with start(), disposal,
// AF_UNIX paths and adopted descriptors. Only loopback addresses, paths in
// a temporary folder and the tests' own sockets are used.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mock_zend/inspect.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

using ::testing::ElementsAre;

// Loop passes that let every queued accept and close callback run.
constexpr int kSettlePasses = 20;

// What the accept callbacks saw. The delivered sockets are the test's:
// closed with this object.
struct Accepts {
  std::vector<int> sockets;  // in delivery order
  std::vector<std::string> exceptions;
  int seen_inside_start = 0;
  bool inside_start = false;
  // Stopped from the callback after this many deliveries (0: never).
  zend_async_listen_event_t* pause_listener = nullptr;
  size_t pause_after = 0;
  // Disposed (its last reference released) from the first delivery.
  zend_async_listen_event_t* release_listener = nullptr;

  Accepts() = default;
  Accepts(const Accepts&) = delete;
  Accepts& operator=(const Accepts&) = delete;
  ~Accepts() {
    for (int fd : sockets) close(fd);
  }
};

struct AcceptCallback {
  zend_async_event_callback_t base;
  Accepts* accepts;
};

void OnAccept(zend_async_event_t* event, zend_async_event_callback_t* callback,
              void* result, zend_object* exception) {
  (void)event;
  Accepts* accepts = reinterpret_cast<AcceptCallback*>(callback)->accepts;
  if (exception != nullptr) {
    accepts->exceptions.push_back(mock_zend::ClassName(exception) + ": " +
                                  mock_zend::ExceptionMessage(exception));
    return;
  }
  ASSERT_NE(result, nullptr);
  const zend_socket_t fd = *static_cast<zend_socket_t*>(result);
  ASSERT_GE(fd, 0);
  accepts->sockets.push_back(fd);
  if (accepts->inside_start) accepts->seen_inside_start++;
  if (accepts->pause_listener != nullptr &&
      accepts->sockets.size() == accepts->pause_after) {
    zend_async_event_t* listener = &accepts->pause_listener->base;
    EXPECT_TRUE(listener->stop(listener));
  }
  if (accepts->release_listener != nullptr) {
    zend_async_event_t* listener = &accepts->release_listener->base;
    accepts->release_listener = nullptr;
    ZEND_ASYNC_EVENT_RELEASE(listener);
  }
}

void AddAcceptCallback(zend_async_listen_event_t* listener, Accepts* accepts) {
  auto* callback = reinterpret_cast<AcceptCallback*>(
      zend_async_event_callback_new(OnAccept, sizeof(AcceptCallback)));
  callback->accepts = accepts;
  ASSERT_TRUE(listener->base.add_callback(&listener->base, &callback->base));
}

// The test's own sockets, closed at the end.
class Sockets {
 public:
  Sockets() = default;
  Sockets(const Sockets&) = delete;
  Sockets& operator=(const Sockets&) = delete;
  ~Sockets() {
    for (int fd : fds_) close(fd);
  }
  int Keep(int fd) {
    fds_.push_back(fd);
    return fd;
  }

 private:
  std::vector<int> fds_;
};

int ConnectUnix(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)),
            0)
      << std::strerror(errno);
  return fd;
}

int LocalPort(int fd) {
  sockaddr_in address{};
  socklen_t length = sizeof(address);
  EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  return ntohs(address.sin_port);
}

int PeerPort(int fd) {
  sockaddr_in address{};
  socklen_t length = sizeof(address);
  EXPECT_EQ(getpeername(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  return ntohs(address.sin_port);
}

// Waits until `fd` is readable and reads what is there ("" at the end of
// the connection). The wait is bounded only so that an implementation that
// never answers fails the behaviour with "<no answer>" instead of hanging
// it: the answer is due at once (the tests assert outcomes, not durations).
std::string ReadSome(int fd) {
  constexpr int kNoAnswerAfterMs = 10000;
  pollfd entry{.fd = fd, .events = POLLIN, .revents = 0};
  if (poll(&entry, 1, kNoAnswerAfterMs) != 1) return "<no answer>";
  char buffer[64];
  const ssize_t length = read(fd, buffer, sizeof(buffer));
  return length > 0 ? std::string(buffer, static_cast<size_t>(length)) : "";
}

void WriteAll(int fd, const std::string& text) {
  ASSERT_EQ(write(fd, text.data(), text.size()),
            static_cast<ssize_t>(text.size()));
}

// One non-blocking loop pass at a time, `passes` times.
void Settle(int passes = kSettlePasses) {
  for (int i = 0; i < passes; i++) {
    ZEND_ASYNC_REACTOR_EXECUTE(true);
  }
}

// The host `listener` tells with get_local_address (and its port in
// *port); "<failed>" when it fails.
std::string LocalAddress(zend_async_listen_event_t* listener, int* port) {
  char host[256] = "";
  if (listener->get_local_address(listener, host, sizeof(host), port) != 0) {
    return "<failed>";
  }
  return host;
}

// A started trigger event that is never triggered: it keeps the loop
// running its passes while every listener is paused.
class LoopKeeper {
 public:
  LoopKeeper() : trigger_(ZEND_ASYNC_NEW_TRIGGER_EVENT()) {
    EXPECT_TRUE(trigger_->base.start(&trigger_->base));
  }
  ~LoopKeeper() { ZEND_ASYNC_EVENT_RELEASE(&trigger_->base); }
  LoopKeeper(const LoopKeeper&) = delete;
  LoopKeeper& operator=(const LoopKeeper&) = delete;

 private:
  zend_async_trigger_event_t* trigger_;
};

class SocketListenTest : public ReactorTest {
 protected:
  void TearDown() override {
    ReactorTest::TearDown();
    for (const std::string& path : paths_) unlink(path.c_str());
    if (!folder_.empty()) rmdir(folder_.c_str());
  }

  // 127.0.0.1 on a free port (written to *port), with the accept callback.
  zend_async_listen_event_t* ListenOnFreePort(int* port, Accepts* accepts,
                                              int backlog = 16) {
    zend_async_listen_event_t* listener =
        ZEND_ASYNC_SOCKET_LISTEN("127.0.0.1", 0, backlog);
    EXPECT_NE(listener, nullptr);
    if (listener == nullptr) return nullptr;
    EXPECT_EQ(listener->get_local_address(listener, nullptr, 0, port), 0);
    EXPECT_GT(*port, 0);
    AddAcceptCallback(listener, accepts);
    return listener;
  }

  // A listener on a free port that was started once and paused (stop):
  // its socket listens, nothing is accepted until the next start().
  zend_async_listen_event_t* PausedListenerOnFreePort(int* port,
                                                      Accepts* accepts) {
    zend_async_listen_event_t* listener = ListenOnFreePort(port, accepts);
    if (listener == nullptr) return nullptr;
    EXPECT_TRUE(listener->base.start(&listener->base));
    EXPECT_TRUE(listener->base.stop(&listener->base));
    return listener;
  }

  void StartMarked(zend_async_listen_event_t* listener, Accepts* accepts) {
    accepts->inside_start = true;
    EXPECT_TRUE(listener->base.start(&listener->base));
    accepts->inside_start = false;
  }

  // A path in the test's temporary folder (removed, with the path, after
  // the test).
  std::string TempPath(const char* name) {
    if (folder_.empty()) {
      char pattern[] = "/tmp/zar-listen-XXXXXX";
      EXPECT_NE(mkdtemp(pattern), nullptr);
      folder_ = pattern;
    }
    paths_.push_back(folder_ + "/" + name);
    return paths_.back();
  }

  // ListenOnFreePort and PausedListenerOnFreePort with port_ and accepts_.
  zend_async_listen_event_t* Listen() {
    return ListenOnFreePort(&port_, &accepts_);
  }
  zend_async_listen_event_t* PausedListener() {
    return PausedListenerOnFreePort(&port_, &accepts_);
  }
  // A client of port_, kept in clients_ (-1 when refused).
  int Connect() { return clients_.Keep(ConnectTcp(port_)); }

  // A paused listener holding one connection is disposed by `dispose`
  // while a LoopKeeper runs the passes: nothing is delivered, the client
  // sees the end of its connection, nothing is left in the loop.
  void ExpectDisposalClosesTheHeldConnection(
      const std::function<void(zend_async_listen_event_t*)>& dispose) {
    zend_async_listen_event_t* listener = PausedListener();
    ASSERT_NE(listener, nullptr);
    const int client = Connect();
    {
      LoopKeeper keeper;
      Settle();
      dispose(listener);
      Settle();
    }
    EXPECT_TRUE(accepts_.sockets.empty());
    EXPECT_EQ(ReadSome(client), "");
    ExpectNothingLeft();
  }

  // Adds the accept callback (accepts_) to `listener` and starts it, then
  // keeps the client `connect` makes in clients_ and runs the loop until
  // one connection was delivered: the client, or -1 when none was.
  int StartAndAcceptOne(zend_async_listen_event_t* listener,
                        const std::function<int()>& connect) {
    AddAcceptCallback(listener, &accepts_);
    EXPECT_TRUE(listener->base.start(&listener->base));
    const int client = clients_.Keep(connect());
    if (client < 0) return -1;
    return RunUntil([&] { return accepts_.sockets.size() == 1; }) ? client : -1;
  }

  // Nothing is active and the loop has nothing left to run.
  static void ExpectNothingLeft() {
    EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
    EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  }

  Accepts accepts_;
  int port_ = 0;
  Sockets clients_;

 private:
  std::string folder_;
  std::vector<std::string> paths_;
};

// ---- Creation ---------------------------------------------------------------

TEST_F(SocketListenTest, ListenerOnAFreePortTellsItsAddressAndIsNotStarted) {
  zend_async_listen_event_t* listener =
      ZEND_ASYNC_SOCKET_LISTEN("127.0.0.1", 0, 16);
  ASSERT_NE(listener, nullptr);

  EXPECT_STREQ(listener->host, "127.0.0.1");
  EXPECT_EQ(listener->port, 0);
  EXPECT_EQ(listener->backlog, 16);
  EXPECT_GE(listener->socket_fd, 0);
  EXPECT_EQ(listener->base.ref_count, 1u);
  ExpectLoopReferences(&listener->base, 0, 0);
  EXPECT_EQ(InfoOf(&listener->base), "Listen(host=127.0.0.1, port=0)");

  int port = 0;
  EXPECT_EQ(LocalAddress(listener, &port), "127.0.0.1");
  EXPECT_GT(port, 0);
  EXPECT_EQ(LocalPort(listener->socket_fd), port);
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
}

TEST_F(SocketListenTest, ExtraSizeGivesZeroedBytesAtTheExtraOffset) {
  zend_async_listen_event_t* listener =
      ZEND_ASYNC_SOCKET_LISTEN_EX("127.0.0.1", 0, 4, 0, 32);
  ASSERT_NE(listener, nullptr);
  ASSERT_GE(listener->base.extra_offset, sizeof(zend_async_listen_event_t));
  auto* extra =
      reinterpret_cast<unsigned char*>(listener) + listener->base.extra_offset;
  for (int i = 0; i < 32; i++) EXPECT_EQ(extra[i], 0) << i;
  std::memset(extra, 0xAB, 32);
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
}

TEST_F(SocketListenTest, BadHostIsAnErrorAndLeavesNothingBehind) {
  EXPECT_EQ(ZEND_ASYNC_SOCKET_LISTEN("this is not an ip address", 80, 10),
            nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Failed to parse address this is not an ip "
            "address:80: invalid argument");
  // The handle's close completes on the loop's passes.
  Settle(5);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
}

TEST_F(SocketListenTest, PrivilegedPortIsRefusedToAnUnprivilegedProcess) {
  if (geteuid() == 0) {
    GTEST_SKIP() << "root may bind port 1";
  }
  zend_async_listen_event_t* listener =
      ZEND_ASYNC_SOCKET_LISTEN("127.0.0.1", 1, 10);
  if (listener != nullptr) {
    ZEND_ASYNC_EVENT_RELEASE(&listener->base);
    GTEST_SKIP() << "this system lets unprivileged processes bind port 1";
  }
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Failed to bind to 127.0.0.1:1: permission "
            "denied");
  Settle(5);
}

// A port another listener holds is refused when the socket is bound or,
// where the bind is deferred (libuv's TCP handles), by the first start().
TEST_F(SocketListenTest, PortInUseIsRefusedAtCreationOrAtStart) {
  Accepts accepts;
  int port = 0;
  zend_async_listen_event_t* first = ListenOnFreePort(&port, &accepts);
  ASSERT_NE(first, nullptr);
  ASSERT_TRUE(first->base.start(&first->base));

  zend_async_listen_event_t* second =
      ZEND_ASYNC_SOCKET_LISTEN("127.0.0.1", port, 16);
  const std::string where = "127.0.0.1:" + std::to_string(port);
  if (second == nullptr) {
    EXPECT_EQ(TakeExceptionText(), "Async\\AsyncException: Failed to bind to " +
                                       where + ": address already in use");
  } else {
    EXPECT_FALSE(second->base.start(&second->base));
    EXPECT_EQ(TakeExceptionText(),
              "Async\\AsyncException: Failed to start listening: address "
              "already in use");
    EXPECT_EQ(second->base.loop_ref_count, 0u);
    ZEND_ASYNC_EVENT_RELEASE(&second->base);
  }
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);
  ZEND_ASYNC_EVENT_RELEASE(&first->base);
}

TEST_F(SocketListenTest, ReusePortLetsTwoListenersShareAPort) {
  zend_async_listen_event_t* first = ZEND_ASYNC_SOCKET_LISTEN_EX(
      "127.0.0.1", 0, 16, ZEND_ASYNC_LISTEN_F_REUSEPORT, 0);
  ASSERT_NE(first, nullptr);
  int port = 0;
  ASSERT_EQ(first->get_local_address(first, nullptr, 0, &port), 0);
  ASSERT_TRUE(first->base.start(&first->base));

  zend_async_listen_event_t* second = ZEND_ASYNC_SOCKET_LISTEN_EX(
      "127.0.0.1", port, 16, ZEND_ASYNC_LISTEN_F_REUSEPORT, 0);
  ASSERT_NE(second, nullptr) << TakeExceptionText();
  EXPECT_TRUE(second->base.start(&second->base)) << TakeExceptionText();
  int second_port = 0;
  EXPECT_EQ(second->get_local_address(second, nullptr, 0, &second_port), 0);
  EXPECT_EQ(second_port, port);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 2u);

  ZEND_ASYNC_EVENT_RELEASE(&second->base);
  ZEND_ASYNC_EVENT_RELEASE(&first->base);
}

TEST_F(SocketListenTest, Ipv6LoopbackListenerTellsItsAddress) {
  zend_async_listen_event_t* listener = ZEND_ASYNC_SOCKET_LISTEN_EX(
      "::1", 0, 16, ZEND_ASYNC_LISTEN_F_IPV6ONLY, 0);
  if (listener == nullptr) {
    GTEST_SKIP() << "no IPv6 loopback: " << TakeExceptionText();
  }
  EXPECT_STREQ(listener->host, "::1");
  EXPECT_EQ(InfoOf(&listener->base), "Listen(host=::1, port=0)");
  int port = 0;
  EXPECT_EQ(LocalAddress(listener, &port), "::1");
  EXPECT_GT(port, 0);
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
}

// ---- Connections
// --------------------------------------------------------------

TEST_F(SocketListenTest, ConnectionIsRefusedUntilTheFirstStart) {
  zend_async_listen_event_t* listener = Listen();
  ASSERT_NE(listener, nullptr);

  EXPECT_EQ(ConnectTcp(port_), -1);
  EXPECT_EQ(errno, ECONNREFUSED);

  ASSERT_TRUE(listener->base.start(&listener->base));
  EXPECT_GE(Connect(), 0);
  ASSERT_TRUE(RunUntil([&] { return accepts_.sockets.size() == 1; }));
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
}

// php-async tests/stream/004 and 007: a client and the server's end of its
// connection talk both ways.
TEST_F(SocketListenTest, DeliveredSocketIsTheServersEndOfTheConnection) {
  zend_async_listen_event_t* listener = Listen();
  ASSERT_NE(listener, nullptr);
  ASSERT_TRUE(listener->base.start(&listener->base));
  ExpectLoopReferences(&listener->base, 1, 1);
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());

  const int client = Connect();
  ASSERT_GE(client, 0);
  ASSERT_TRUE(RunUntil([&] { return accepts_.sockets.size() == 1; }));
  EXPECT_TRUE(accepts_.exceptions.empty());

  const int server = accepts_.sockets[0];
  EXPECT_EQ(PeerPort(server), LocalPort(client));
  WriteAll(client, "ping");
  EXPECT_EQ(ReadSome(server), "ping");
  WriteAll(server, "pong");
  EXPECT_EQ(ReadSome(client), "pong");

  // The socket stays the consumer's after the listener is gone.
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
  Settle(5);
  WriteAll(server, "still open");
  EXPECT_EQ(ReadSome(client), "still open");
}

// php-async tests/socket_ext/005: three clients, each accepted, in the
// order they connected, and each answered on its own socket.
TEST_F(SocketListenTest, ConnectionsAreDeliveredInArrivalOrder) {
  zend_async_listen_event_t* listener = Listen();
  ASSERT_NE(listener, nullptr);
  ASSERT_TRUE(listener->base.start(&listener->base));

  std::vector<int> client_ports;
  std::vector<int> client_fds;
  for (int i = 0; i < 3; i++) {
    client_fds.push_back(Connect());
    client_ports.push_back(LocalPort(client_fds.back()));
  }
  ASSERT_TRUE(RunUntil([&] { return accepts_.sockets.size() == 3; }));

  for (size_t i = 0; i < 3; i++) {
    EXPECT_EQ(PeerPort(accepts_.sockets[i]), client_ports[i]) << i;
    WriteAll(accepts_.sockets[i], "response " + std::to_string(i + 1));
  }
  for (size_t i = 0; i < 3; i++) {
    EXPECT_EQ(ReadSome(client_fds[i]), "response " + std::to_string(i + 1));
  }
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
}

struct SocketSeen {
  zend_async_event_callback_t base;
  std::vector<int>* seen;
};

void RecordSocket(zend_async_event_t* event,
                  zend_async_event_callback_t* callback, void* result,
                  zend_object* exception) {
  (void)event;
  (void)exception;
  reinterpret_cast<SocketSeen*>(callback)->seen->push_back(
      *static_cast<zend_socket_t*>(result));
}

TEST_F(SocketListenTest, EveryCallbackSeesTheSameSocket) {
  zend_async_listen_event_t* listener = Listen();
  ASSERT_NE(listener, nullptr);
  std::vector<int> seen;
  auto* second = reinterpret_cast<SocketSeen*>(
      zend_async_event_callback_new(RecordSocket, sizeof(SocketSeen)));
  second->seen = &seen;
  ASSERT_TRUE(listener->base.add_callback(&listener->base, &second->base));
  ASSERT_TRUE(listener->base.start(&listener->base));

  Connect();
  ASSERT_TRUE(RunUntil([&] { return seen.size() == 1; }));
  ASSERT_EQ(accepts_.sockets.size(), 1u);
  EXPECT_EQ(seen[0], accepts_.sockets[0]);
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
}

TEST_F(SocketListenTest, StartsCountAndTheLastStopReleasesTheLoop) {
  zend_async_listen_event_t* listener = Listen();
  ASSERT_NE(listener, nullptr);
  ASSERT_TRUE(listener->base.start(&listener->base));
  ASSERT_TRUE(listener->base.start(&listener->base));
  ExpectLoopReferences(&listener->base, 2, 1);

  EXPECT_TRUE(listener->base.stop(&listener->base));
  EXPECT_EQ(listener->base.loop_ref_count, 1u);
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());

  EXPECT_TRUE(listener->base.stop(&listener->base));
  ExpectLoopReferences(&listener->base, 0, 0);
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  EXPECT_TRUE(listener->base.stop(&listener->base));
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
}

TEST_F(SocketListenTest, ListenerReleasedFromItsCallbackDeliversNoMore) {
  zend_async_listen_event_t* listener = Listen();
  ASSERT_NE(listener, nullptr);
  ASSERT_TRUE(listener->base.start(&listener->base));
  accepts_.release_listener = listener;

  for (int i = 0; i < 3; i++) Connect();
  ASSERT_TRUE(RunUntil([&] { return !accepts_.sockets.empty(); }));
  Settle();
  EXPECT_EQ(accepts_.sockets.size(), 1u);
  ExpectNothingLeft();
}

// ---- Pausing (php-src sapi/asynctest/tests/test_listen_pause.c)
// ----------------

// Three clients connect while the listener is paused: none is accepted until
// start(), none inside start(), all three on the passes after it.
TEST_F(SocketListenTest, PausedListenerAcceptsNothingUntilStart) {
  zend_async_listen_event_t* listener = PausedListener();
  ASSERT_NE(listener, nullptr);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);

  {
    LoopKeeper keeper;
    for (int i = 0; i < 3; i++) Connect();
    Settle();
    EXPECT_TRUE(accepts_.sockets.empty());

    StartMarked(listener, &accepts_);
    EXPECT_EQ(accepts_.seen_inside_start, 0);
  }
  ASSERT_TRUE(RunUntil([&] { return accepts_.sockets.size() == 3; }));
  EXPECT_EQ(accepts_.seen_inside_start, 0);
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
}

// A connection that arrived while paused survives a second pause made
// before the pass that would deliver it, and the listener keeps accepting.
TEST_F(SocketListenTest, HeldConnectionSurvivesASecondPause) {
  zend_async_listen_event_t* listener = PausedListener();
  ASSERT_NE(listener, nullptr);

  const int first = Connect();
  {
    LoopKeeper keeper;
    Settle();
    EXPECT_TRUE(accepts_.sockets.empty());

    ASSERT_TRUE(listener->base.start(&listener->base));
    ASSERT_TRUE(listener->base.stop(&listener->base));
    Settle();
    EXPECT_TRUE(accepts_.sockets.empty());
  }

  ASSERT_TRUE(listener->base.start(&listener->base));
  ASSERT_TRUE(RunUntil([&] { return accepts_.sockets.size() == 1; }));
  EXPECT_EQ(PeerPort(accepts_.sockets[0]), LocalPort(first));

  const int second = Connect();
  ASSERT_TRUE(RunUntil([&] { return accepts_.sockets.size() == 2; }));
  EXPECT_EQ(PeerPort(accepts_.sockets[1]), LocalPort(second));
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
}

// Disposing a paused listener that holds a connection closes it: the
// client sees the end of the connection, nothing is delivered, nothing is
// left in the loop.
TEST_F(SocketListenTest, DisposeWhilePausedClosesTheHeldConnection) {
  ExpectDisposalClosesTheHeldConnection(
      [](zend_async_listen_event_t* listener) {
        EXPECT_TRUE(listener->base.start(&listener->base));
        EXPECT_TRUE(listener->base.stop(&listener->base));
        ZEND_ASYNC_EVENT_RELEASE(&listener->base);
      });
}

// A callback that pauses the listener during the delivery stops it there:
// the rest waits for the next start().
TEST_F(SocketListenTest, PauseFromACallbackStopsTheDelivery) {
  zend_async_listen_event_t* listener = PausedListener();
  ASSERT_NE(listener, nullptr);

  {
    LoopKeeper keeper;
    for (int i = 0; i < 3; i++) Connect();
    Settle();
    accepts_.pause_listener = listener;
    accepts_.pause_after = 1;
    ASSERT_TRUE(listener->base.start(&listener->base));
    // At least one: a listener that delivers more in the same pass must
    // fail the count below, not wait here for a size it went past.
    ASSERT_TRUE(RunUntil([&] { return !accepts_.sockets.empty(); }));
    Settle();
    EXPECT_EQ(accepts_.sockets.size(), 1u);
    EXPECT_EQ(listener->base.loop_ref_count, 0u);
  }

  accepts_.pause_listener = nullptr;
  ASSERT_TRUE(listener->base.start(&listener->base));
  ASSERT_TRUE(RunUntil([&] { return accepts_.sockets.size() == 3; }));
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
}

// Disposing between start() and the pass that would deliver a held
// connection delivers nothing and leaves nothing behind.
TEST_F(SocketListenTest, DisposeBeforeTheDeliveryPassDeliversNothing) {
  ExpectDisposalClosesTheHeldConnection(
      [](zend_async_listen_event_t* listener) {
        EXPECT_TRUE(listener->base.start(&listener->base));
        ZEND_ASYNC_EVENT_RELEASE(&listener->base);
      });
}

// ---- AF_UNIX
// ------------------------------------------------------------------

TEST_F(SocketListenTest, UnixListenerBindsItsPathAndRemovesItOnDispose) {
  const std::string path = TempPath("server.sock");
  zend_async_listen_event_t* listener = ZEND_ASYNC_SOCKET_LISTEN_EX(
      path.c_str(), 1234, 16, ZEND_ASYNC_LISTEN_F_UNIX, 0);
  ASSERT_NE(listener, nullptr) << TakeExceptionText();
  EXPECT_EQ(listener->host, path);
  EXPECT_EQ(InfoOf(&listener->base),
            "Listen(host=" + path + ", port=" + std::to_string(1234) + ")");

  int port = -1;  // written 0 for a path
  EXPECT_EQ(LocalAddress(listener, &port), path);
  EXPECT_EQ(port, 0);

  const int client =
      StartAndAcceptOne(listener, [&] { return ConnectUnix(path); });
  ASSERT_GE(client, 0);
  WriteAll(client, "over a path");
  EXPECT_EQ(ReadSome(accepts_.sockets[0]), "over a path");

  struct stat info;
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_TRUE(S_ISSOCK(info.st_mode));
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
  Settle(5);
  EXPECT_EQ(stat(path.c_str(), &info), -1);
  EXPECT_EQ(errno, ENOENT);
}

TEST_F(SocketListenTest, UnixPathInUseIsAnError) {
  const std::string path = TempPath("taken.sock");
  zend_async_listen_event_t* first = ZEND_ASYNC_SOCKET_LISTEN_EX(
      path.c_str(), 0, 16, ZEND_ASYNC_LISTEN_F_UNIX, 0);
  ASSERT_NE(first, nullptr);

  EXPECT_EQ(ZEND_ASYNC_SOCKET_LISTEN_EX(path.c_str(), 0, 16,
                                        ZEND_ASYNC_LISTEN_F_UNIX, 0),
            nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Failed to bind AF_UNIX socket " + path +
                ": address already in use");
  Settle(5);
  ZEND_ASYNC_EVENT_RELEASE(&first->base);
}

// ---- Adopted descriptors
// ----------------------------------------------------------

// A listening TCP socket of the test's, on a free loopback port.
int ListeningTcpSocket(int* port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  EXPECT_GE(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)),
            0);
  EXPECT_EQ(listen(fd, 8), 0);
  *port = LocalPort(fd);
  return fd;
}

TEST_F(SocketListenTest, AdoptedSocketIsListenedOnAndClosedOnDispose) {
  int port = 0;
  const int fd = ListeningTcpSocket(&port);
  zend_async_listen_event_t* listener =
      ZEND_ASYNC_SOCKET_LISTEN_FD(fd, 8, 0, 0);
  ASSERT_NE(listener, nullptr) << TakeExceptionText();
  EXPECT_EQ(listener->host, nullptr);
  EXPECT_EQ(listener->port, 0);
  EXPECT_EQ(listener->backlog, 8);
  EXPECT_EQ(listener->socket_fd, fd);
  EXPECT_EQ(InfoOf(&listener->base), "Listen(host=<null>, port=0)");
  int local_port = 0;
  EXPECT_EQ(LocalAddress(listener, &local_port), "127.0.0.1");
  EXPECT_EQ(local_port, port);

  ASSERT_GE(StartAndAcceptOne(listener, [&] { return ConnectTcp(port); }), 0);

  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
  Settle(5);
  EXPECT_EQ(fcntl(fd, F_GETFD), -1);
  EXPECT_EQ(errno, EBADF);
}

TEST_F(SocketListenTest, AdoptedUnixSocketTellsItsPath) {
  const std::string path = TempPath("adopted.sock");
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)),
            0);
  ASSERT_EQ(listen(fd, 8), 0);

  zend_async_listen_event_t* listener =
      ZEND_ASYNC_SOCKET_LISTEN_FD(fd, 8, ZEND_ASYNC_LISTEN_F_UNIX, 0);
  ASSERT_NE(listener, nullptr) << TakeExceptionText();
  int port = -1;
  EXPECT_EQ(LocalAddress(listener, &port), path);
  EXPECT_EQ(port, 0);

  ASSERT_GE(StartAndAcceptOne(listener, [&] { return ConnectUnix(path); }), 0);
  ZEND_ASYNC_EVENT_RELEASE(&listener->base);
  Settle(5);
  // Not bound by the listener: the path stays.
  struct stat info;
  EXPECT_EQ(stat(path.c_str(), &info), 0);
}

TEST_F(SocketListenTest, BadDescriptorIsRefused) {
  EXPECT_EQ(ZEND_ASYNC_SOCKET_LISTEN_FD(-1, 8, 0, 0), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Failed to adopt listening socket fd: bad "
            "file descriptor");
  EXPECT_EQ(ZEND_ASYNC_SOCKET_LISTEN_FD(-1, 8, ZEND_ASYNC_LISTEN_F_UNIX, 0),
            nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: Failed to adopt listening socket fd: bad "
            "file descriptor");
  Settle(5);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
}

}  // namespace
}  // namespace zar::reactor_testing
