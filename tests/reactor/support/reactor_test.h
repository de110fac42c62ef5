// zend-async-ref reactor tests: support.
//
//   - ReactorTest: the engine fixture with the async extension under test
//     loaded (zar::testing::AsyncModule(): its MINIT registers the reactor,
//     with the scheduler and the pool); its TearDown fails the test on any
//     emalloc block or object left at request end. The tests drive the
//     reactor directly and never launch the scheduler.
//   - Recorders: event callbacks (made with zend_async_event_callback_new,
//     so the event frees them) that append one Notification per call.
//   - EveryKind: one event of each kind, for lifetime tests.
//   - RunUntil: drives the loop with ZEND_ASYNC_REACTOR_EXECUTE(false) until
//     a condition holds; tests assert order and outcome, never durations.
//
// Everything the tests do to the reactor goes through the ZEND_ASYNC_*
// macros and the event vtables.
//
// Threading: the test's thread, except where a test says otherwise.

#ifndef ZAR_TESTS_REACTOR_SUPPORT_REACTOR_TEST_H_
#define ZAR_TESTS_REACTOR_SUPPORT_REACTOR_TEST_H_

#include <netinet/in.h>

#include <functional>
#include <string>
#include <vector>

#include "tests/support/implementation.h"
#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
}

namespace zar::reactor_testing {

using ReactorTest = zar::testing::AsyncTest;

// What a recorder logs as the notification's value. The ABI gives a poll
// event's readiness and a signal event's number in the event's own fields
// (php-async notifies both with a NULL result), so these are read from the
// event at the time of the call, never from `result`.
enum class ResultKind {
  kNone,       // nothing (value -1)
  kPollMask,   // zend_async_poll_event_t::triggered_events
  kProxyMask,  // zend_async_poll_proxy_t::triggered_events
  kSignalNum,  // zend_async_signal_event_t::signal
};

// One call of a recorder.
struct Notification {
  std::string name;     // the recorder's name
  bool closed = false;  // the event was CLOSED when notified
  uint32_t loop_ref_count = 0;
  bool has_result = false;  // result != NULL
  int value = -1;           // as ResultKind says, -1 for kNone
  std::string exception;    // "Class: message", or "" without
};

using NotificationLog = std::vector<Notification>;

// Optional action run after a recorder logged a call.
using RecorderHook = void (*)(zend_async_event_t* event, void* arg);

// Adds a recorder named `name` to `event` (through event->add_callback).
// `log` must outlive the event's callbacks.
void AddRecorder(zend_async_event_t* event, NotificationLog* log,
                 const char* name, ResultKind kind = ResultKind::kNone,
                 RecorderHook hook = nullptr, void* hook_arg = nullptr);

// A timer of `ms` (periodic or not) with a recorder named `name` (running
// `hook` after each call, when given), started.
zend_async_timer_event_t* StartedTimer(zend_ulong ms, bool periodic,
                                       NotificationLog* log, const char* name,
                                       RecorderHook hook = nullptr,
                                       void* hook_arg = nullptr);

// The timeout (milliseconds) of a timer made with `ms` and `ns`.
unsigned int TimeoutOf(zend_ulong ms, zend_ulong ns);

// The names in `log`, in order.
std::vector<std::string> Names(const NotificationLog& log);

// Runs ZEND_ASYNC_REACTOR_EXECUTE(false) until `done()` holds or
// `max_passes` passes ran (or the loop is no longer alive); returns done().
bool RunUntil(const std::function<bool()>& done, int max_passes = 10000);

// A directory made fresh under $TMPDIR (/tmp without it) for one test,
// removed with everything in it when destroyed; path() is "" (and the test
// has failed) when it could not be made.
class ScratchDirectory {
 public:
  ScratchDirectory();
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// event->info(event) as a std::string (the zend_string is released).
std::string InfoOf(zend_async_event_t* event);

// Expects `event` to hold `loop_refs` loop references and the request to
// count `active_events` active events.
void ExpectLoopReferences(const zend_async_event_t* event, uint32_t loop_refs,
                          unsigned int active_events);

// Expects event->start to refuse, throwing `exception` ("Class: message",
// taken), and to leave the event without a loop reference and the request
// without an active event.
void ExpectStartRefused(zend_async_event_t* event,
                        const std::string& exception);

// The child processes of this process that are still running (/proc: a
// child that ended and was not reaped yet, a zombie, has ended). Waits for
// them to end, up to 10 s: a killed process ends when the kernel has
// delivered the signal. A test that starts a command reads it once the
// command should be gone; none was running before (each test runs in a
// process of its own under ctest and the conformance runner, and every
// other test ends its commands).
int RunningChildProcesses();

using zar::testing::TakeExceptionText;

// 127.0.0.1:`port`, as a sockaddr_in.
struct sockaddr_in LoopbackAddress(int port);

// A blocking TCP client of 127.0.0.1:`port`, the caller's to close. The
// kernel completes the handshake into a listener's backlog whether or not
// it is accepted, so connect() returns at once; -1 with errno when refused.
int ConnectTcp(int port);

// Two descriptors, each closed with the pair while still open (-1: not
// open, or handed over to a handle that closes it). Not copyable.
class DescriptorPair {
 public:
  DescriptorPair(const DescriptorPair&) = delete;
  DescriptorPair& operator=(const DescriptorPair&) = delete;

 protected:
  DescriptorPair() = default;
  ~DescriptorPair();
  // Closes descriptor `i` (0 or 1) now.
  void Close(int i);

  int fds_[2] = {-1, -1};
};

// A connected AF_UNIX stream socket pair, non-blocking.
class SocketPair : public DescriptorPair {
 public:
  SocketPair();

  int left() const { return fds_[0]; }
  int right() const { return fds_[1]; }
  void CloseRight() { Close(1); }
  // Writes one byte into the right end (readable at the left end).
  void WriteRight();
};

// One event of every kind the reactor implements, each with a recorder
// named "any" logging into `log`; the proxy shares `poll` (a socket event
// on sockets.left()), the timer is periodic (60 s), the signal is SIGUSR1.
// Each event is the owner's (one reference), none is started.
struct EveryKind {
  SocketPair sockets;
  NotificationLog log;
  zend_async_timer_event_t* timer;
  zend_async_poll_event_t* poll;
  zend_async_poll_proxy_t* proxy;
  zend_async_signal_event_t* signal;
  zend_async_trigger_event_t* trigger;

  EveryKind();
  std::vector<zend_async_event_t*> Events() const {
    return {&timer->base, &poll->base, &proxy->base, &signal->base,
            &trigger->base};
  }
  // Starts each event; false at the first that refuses.
  bool StartAll() const;
  // Drops the owner's reference to each event.
  void ReleaseAll() const;
};

}  // namespace zar::reactor_testing

#endif  // ZAR_TESTS_REACTOR_SUPPORT_REACTOR_TEST_H_
