// DNS lookups: getaddrinfo, getnameinfo, freeaddrinfo.
//
// No test reaches a name server: addresses are numeric (AI_NUMERICHOST,
// NI_NUMERICHOST) or "localhost", which the system resolves from its hosts
// file.

#include <arpa/inet.h>
#include <dlfcn.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"
#include "zend_async_ref/testing/coroutines.h"

// The address lists libc hands out, counted: this program's getaddrinfo()
// and freeaddrinfo() come first in symbol lookup, so every caller (libuv's
// worker threads, uv_freeaddrinfo, an --impl library) goes through them to
// libc's. Any thread.
namespace {
std::atomic<int64_t> addrinfo_answers{0};  // lists getaddrinfo() made
std::atomic<int64_t> addrinfo_lists{0};    // of them, not freed yet
}  // namespace

extern "C" int getaddrinfo(const char* node, const char* service,
                           const struct addrinfo* hints,
                           struct addrinfo** res) {
  static auto* const libc =
      reinterpret_cast<decltype(&getaddrinfo)>(dlsym(RTLD_NEXT, "getaddrinfo"));
  const int status = libc(node, service, hints, res);
  if (status == 0 && *res != nullptr) {
    addrinfo_lists.fetch_add(1);
    addrinfo_answers.fetch_add(1);
  }
  return status;
}

extern "C" void freeaddrinfo(struct addrinfo* ai) noexcept {
  static auto* const libc = reinterpret_cast<decltype(&freeaddrinfo)>(
      dlsym(RTLD_NEXT, "freeaddrinfo"));
  if (ai != nullptr) addrinfo_lists.fetch_sub(1);
  libc(ai);
}

namespace zar::reactor_testing {
namespace {

using zar::testing::Await;
using zar::testing::AwaitOutcome;
using zar::testing::Spawn;
using zar::testing::WaitFor;

class DnsTest : public ReactorTest {};

// Hints for a stream socket of `family` (numeric node and service unless
// `flags` says otherwise).
struct addrinfo Hints(int family, int flags = AI_NUMERICHOST | AI_NUMERICSERV) {
  struct addrinfo hints;
  std::memset(&hints, 0, sizeof(hints));
  hints.ai_family = family;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = flags;
  return hints;
}

// A getaddrinfo lookup of `node`/`service`, not started, the caller's.
zend_async_dns_addrinfo_t* LookUp(const char* node, const char* service,
                                  const struct addrinfo& hints) {
  return ZEND_ASYNC_GETADDRINFO(node, service, &hints);
}

// The hand-over of a lookup's answer: the pointer is copied, the event's
// cleared and the event released; the list is the caller's.
struct addrinfo* TakeTheAnswer(zend_async_dns_addrinfo_t* lookup) {
  struct addrinfo* taken = lookup->result;
  lookup->result = nullptr;
  ZEND_ASYNC_EVENT_RELEASE(&lookup->base);
  return taken;
}

// "127.0.0.1:80" (or "[::1]:80") of one result entry.
std::string AddressOf(const struct addrinfo* ai) {
  char host[INET6_ADDRSTRLEN] = "";
  int port = 0;
  if (ai->ai_family == AF_INET) {
    const auto* in = reinterpret_cast<const struct sockaddr_in*>(ai->ai_addr);
    inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
    port = ntohs(in->sin_port);
    return std::string(host) + ":" + std::to_string(port);
  }
  const auto* in6 = reinterpret_cast<const struct sockaddr_in6*>(ai->ai_addr);
  inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
  port = ntohs(in6->sin6_port);
  return "[" + std::string(host) + "]:" + std::to_string(port);
}

// One lookup of each kind, of 127.0.0.1:80, not started, the caller's.
struct Lookups {
  zend_async_dns_addrinfo_t* addr;
  zend_async_dns_nameinfo_t* name;
};

Lookups NewLookupsOfLoopback() {
  const struct addrinfo hints = Hints(AF_INET);
  const struct sockaddr_in address = LoopbackAddress(80);
  return {
      ZEND_ASYNC_GETADDRINFO("127.0.0.1", "80", &hints),
      ZEND_ASYNC_GETNAMEINFO(reinterpret_cast<const struct sockaddr*>(&address),
                             NI_NUMERICHOST)};
}

// Looks `node`/`service` up with a recorder named "dns" on the event,
// starts it and runs the loop until it answered. The event is the caller's.
zend_async_dns_addrinfo_t* AnsweredAddrInfo(const char* node,
                                            const char* service,
                                            const struct addrinfo& hints,
                                            NotificationLog* log) {
  zend_async_dns_addrinfo_t* lookup = LookUp(node, service, hints);
  if (lookup == nullptr) return nullptr;
  AddRecorder(&lookup->base, log, "dns");
  EXPECT_TRUE(lookup->base.start(&lookup->base));
  EXPECT_TRUE(RunUntil([&] { return !log->empty(); }));
  return lookup;
}

TEST_F(DnsTest, AddrInfoNotifiesOnceWithTheAddressAndClosesTheEvent) {
  NotificationLog log;
  zend_async_dns_addrinfo_t* lookup =
      AnsweredAddrInfo("127.0.0.1", "80", Hints(AF_INET), &log);
  ASSERT_NE(lookup, nullptr);
  // Answered and closed: nothing keeps the loop alive, nothing more comes.
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_EXECUTE(true));

  ASSERT_EQ(log.size(), 1u);
  EXPECT_FALSE(log[0].has_result);
  EXPECT_EQ(log[0].exception, "");
  EXPECT_TRUE(log[0].closed);
  EXPECT_EQ(log[0].loop_ref_count, 0u);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ASSERT_NE(lookup->result, nullptr);
  EXPECT_EQ(AddressOf(lookup->result), "127.0.0.1:80");
  EXPECT_EQ(lookup->result->ai_socktype, SOCK_STREAM);
  ZEND_ASYNC_EVENT_RELEASE(&lookup->base);  // the list goes with the event
}

TEST_F(DnsTest, AConsumerTakesTheListAndFreesItWithFreeAddrInfo) {
  NotificationLog log;
  zend_async_dns_addrinfo_t* lookup =
      AnsweredAddrInfo("::1", "8080", Hints(AF_INET6), &log);
  ASSERT_NE(lookup, nullptr);

  struct addrinfo* taken = TakeTheAnswer(lookup);

  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(AddressOf(taken), "[::1]:8080");
  EXPECT_TRUE(ZEND_ASYNC_FREEADDRINFO(taken));
}

TEST_F(DnsTest, LocalhostResolvesToALoopbackAddress) {
  NotificationLog log;
  zend_async_dns_addrinfo_t* lookup =
      AnsweredAddrInfo("localhost", nullptr, Hints(AF_INET, 0), &log);
  ASSERT_NE(lookup, nullptr);

  EXPECT_EQ(log[0].exception, "");
  ASSERT_NE(lookup->result, nullptr);
  EXPECT_EQ(AddressOf(lookup->result), "127.0.0.1:0");
  ZEND_ASYNC_EVENT_RELEASE(&lookup->base);
}

TEST_F(DnsTest, AnUnresolvableNameNotifiesADnsException) {
  NotificationLog log;
  zend_async_dns_addrinfo_t* lookup =
      AnsweredAddrInfo("not-an-address", "80", Hints(AF_UNSPEC), &log);
  ASSERT_NE(lookup, nullptr);

  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].exception,
            "Async\\DnsException: DNS error: unknown node or service");
  EXPECT_TRUE(log[0].closed);
  EXPECT_EQ(lookup->result, nullptr);
  ZEND_ASYNC_EVENT_RELEASE(&lookup->base);
}

TEST_F(DnsTest, AddrInfoWithoutNodeOrServiceThrowsAtCreation) {
  EXPECT_EQ(ZEND_ASYNC_GETADDRINFO(nullptr, nullptr, nullptr), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\DnsException: Failed to initialize getaddrinfo handle: "
            "invalid argument");
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
}

TEST_F(DnsTest, NameInfoAnswersWithHostnameAndService) {
  NotificationLog log;
  const struct sockaddr_in address = LoopbackAddress(443);
  zend_async_dns_nameinfo_t* lookup =
      ZEND_ASYNC_GETNAMEINFO(reinterpret_cast<const struct sockaddr*>(&address),
                             NI_NUMERICHOST | NI_NUMERICSERV);
  ASSERT_NE(lookup, nullptr);
  AddRecorder(&lookup->base, &log, "dns");
  ASSERT_TRUE(lookup->base.start(&lookup->base));
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].exception, "");
  EXPECT_TRUE(log[0].closed);
  ASSERT_NE(lookup->hostname, nullptr);
  ASSERT_NE(lookup->service, nullptr);
  EXPECT_STREQ(ZSTR_VAL(lookup->hostname), "127.0.0.1");
  EXPECT_STREQ(ZSTR_VAL(lookup->service), "443");
  ZEND_ASYNC_EVENT_RELEASE(&lookup->base);  // the strings go with it
}

TEST_F(DnsTest, NameInfoOfNoAddressOrAFamilyLibuvCannotNameThrowsAtCreation) {
  struct sockaddr_un address;
  std::memset(&address, 0, sizeof(address));
  address.sun_family = AF_UNIX;
  EXPECT_EQ(ZEND_ASYNC_GETNAMEINFO(
                reinterpret_cast<const struct sockaddr*>(&address), 0),
            nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\DnsException: Failed to initialize getnameinfo handle: "
            "invalid argument");

  EXPECT_EQ(ZEND_ASYNC_GETNAMEINFO(nullptr, 0), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Async\\DnsException: Failed to initialize getnameinfo handle: "
            "invalid argument");
}

TEST_F(DnsTest, OnlyAStartedLookupKeepsTheLoopAlive) {
  zend_async_dns_addrinfo_t* lookup = LookUp("127.0.0.1", "80", Hints(AF_INET));
  ASSERT_NE(lookup, nullptr);
  EXPECT_FALSE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);

  ASSERT_TRUE(lookup->base.start(&lookup->base));
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_LOOP_ALIVE());
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);
  EXPECT_EQ(lookup->base.loop_ref_count, 1u);
  ZEND_ASYNC_EVENT_RELEASE(&lookup->base);
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
}

// Released before libuv answered: nothing is notified, the request is
// cancelled or finishes unseen, and every byte goes (the fixture's leak
// check, with the request's end waiting for libuv's answer).
TEST_F(DnsTest, ALookupDisposedBeforeItsAnswerNotifiesNothing) {
  NotificationLog log;
  const auto [addr_lookup, name_lookup] = NewLookupsOfLoopback();
  ASSERT_NE(addr_lookup, nullptr);
  ASSERT_NE(name_lookup, nullptr);
  AddRecorder(&addr_lookup->base, &log, "addr");
  AddRecorder(&name_lookup->base, &log, "name");
  ASSERT_TRUE(addr_lookup->base.start(&addr_lookup->base));
  ZEND_ASYNC_EVENT_RELEASE(&addr_lookup->base);
  ZEND_ASYNC_EVENT_RELEASE(&name_lookup->base);

  EXPECT_FALSE(ZEND_ASYNC_REACTOR_EXECUTE(true));
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
}

TEST_F(DnsTest, InfoNamesTheLookup) {
  const auto [addr_lookup, name_lookup] = NewLookupsOfLoopback();
  ASSERT_NE(addr_lookup, nullptr);
  ASSERT_NE(name_lookup, nullptr);
  // Upstream's texts; its node and service read "<null>" (it does not
  // keep the arguments), so only the prefix is shared.
  EXPECT_EQ(InfoOf(&addr_lookup->base).rfind("DNSAddrInfo(node=", 0), 0u);
  EXPECT_EQ(InfoOf(&name_lookup->base), "DNSNameInfo");
  ZEND_ASYNC_EVENT_RELEASE(&addr_lookup->base);
  ZEND_ASYNC_EVENT_RELEASE(&name_lookup->base);
}

TEST_F(DnsTest, ExtraSizeGivesZeroedBytesAtTheExtraOffset) {
  const struct addrinfo hints = Hints(AF_INET);
  zend_async_dns_addrinfo_t* lookup =
      ZEND_ASYNC_GETADDRINFO_EX("127.0.0.1", "80", &hints, 32);
  ASSERT_NE(lookup, nullptr);
  const auto* extra = reinterpret_cast<const unsigned char*>(lookup) +
                      lookup->base.extra_offset;
  for (size_t i = 0; i < 32; i++) {
    EXPECT_EQ(extra[i], 0u) << "byte " << i;
  }
  ZEND_ASYNC_EVENT_RELEASE(&lookup->base);
}

TEST_F(DnsTest, FreeAddrInfoAcceptsNull) {
  EXPECT_TRUE(ZEND_ASYNC_FREEADDRINFO(nullptr));
  EXPECT_EQ(TakeExceptionText(), "");
}

// Spawns a coroutine that looks `node`/`service` up, waits on the lookup
// through its waker, expects the wait to fail and releases the lookup.
zend_coroutine_t* SpawnFailingWaiter(const char* node, const char* service,
                                     int family) {
  return Spawn([node, service, family] {
    zend_async_dns_addrinfo_t* lookup = LookUp(node, service, Hints(family));
    ASSERT_NE(lookup, nullptr);
    EXPECT_FALSE(WaitFor(&lookup->base));
    ZEND_ASYNC_EVENT_RELEASE(&lookup->base);
  });
}

// As PHP's network layer resolves: the coroutine waits on the lookup
// through its waker and reads the answer after it is resumed.
TEST_F(DnsTest, ACoroutineWaitsForTheAnswerThroughItsWaker) {
  std::string seen;
  EXPECT_TRUE(RunMain([&] {
    zend_coroutine_t* resolver = Spawn([&] {
      zend_async_dns_addrinfo_t* lookup =
          LookUp("127.0.0.1", "5432", Hints(AF_INET));
      ASSERT_NE(lookup, nullptr);
      EXPECT_TRUE(WaitFor(&lookup->base));
      struct addrinfo* taken = TakeTheAnswer(lookup);
      ASSERT_NE(taken, nullptr);
      seen = AddressOf(taken);
      ZEND_ASYNC_FREEADDRINFO(taken);
    });
    const AwaitOutcome outcome = Await(resolver);
    EXPECT_EQ(outcome.error, "");
  }));
  EXPECT_EQ(seen, "127.0.0.1:5432");
}

// A waiter resumed with the lookup's exception sees the DnsException.
TEST_F(DnsTest, ACoroutineWaitingOnAFailingLookupGetsTheDnsException) {
  EXPECT_TRUE(RunMain([&] {
    zend_coroutine_t* resolver =
        SpawnFailingWaiter("not-an-address", nullptr, AF_UNSPEC);
    const AwaitOutcome outcome = Await(resolver);
    EXPECT_EQ(outcome.error,
              "Async\\DnsException: DNS error: unknown node or service");
  }));
}

// Cancelled once libc answered but before the answer reached the loop: the
// waiter gets the cancellation and releases the lookup, and the answer
// nobody takes is freed (the address lists libc made are all freed when
// the request has ended; emalloc blocks: the fixture's leak check).
TEST_F(DnsTest, ACoroutineCancelledWhileItsLookupRunsLeaksNothing) {
  const int64_t answers = addrinfo_answers.load();
  const int64_t lists = addrinfo_lists.load();
  EXPECT_TRUE(RunMain([&] {
    zend_coroutine_t* resolver = SpawnFailingWaiter("127.0.0.1", "80", AF_INET);
    zar::testing::CoroutineRef held(resolver);
    zar::testing::Yield();  // the resolver is parked on its lookup
    // libc's answer (bounded: an implementation may resolve otherwise).
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (addrinfo_answers.load() == answers &&
           std::chrono::steady_clock::now() < give_up) {
      std::this_thread::yield();
    }
    zar::testing::Cancel(resolver);
    const AwaitOutcome outcome = Await(resolver);
    EXPECT_EQ(outcome.error.rfind("Async\\AsyncCancellation", 0), 0u)
        << outcome.error;
  }));
  ShutdownRequest();  // waits for libuv's answer
  EXPECT_EQ(addrinfo_lists.load(), lists) << "address lists nobody freed";
}

}  // namespace
}  // namespace zar::reactor_testing
