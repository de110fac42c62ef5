// zend-async-ref pdo_sim: waiting on the reactor from driver code, so that
// the calling coroutine parks and others run meanwhile: for a time
// (SleepOnReactor: scripted latency, SQLite's busy retries) or until a
// socket is ready (ReactorSocket: a network client's I/O).
//
// Both park through zend_async_ref_park() on ABI events, launching the
// scheduler when the main flow has not yet (CanWaitOnReactor()).
//
// Threading: the engine's thread.

#ifndef ZAR_PDO_SIM_SRC_DRIVERS_REACTOR_WAIT_H_
#define ZAR_PDO_SIM_SRC_DRIVERS_REACTOR_WAIT_H_

#include <cstdint>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace pdo_sim::internal {

// Whether the running code can park on the reactor: not in scheduler
// context, no exception in flight, and a coroutine running or an active
// async API whose scheduler can be launched.
bool CanWaitOnReactor();

// Suspends the running coroutine for `ms` milliseconds on a reactor timer
// (ZEND_ASYNC_NEW_TIMER_EVENT, parked on through zend_async_ref_park),
// launching the scheduler when the main flow has not yet. Does not wait
// (returns true at once) in scheduler context or when the async API is not
// active. A finished coroutine running its finish callbacks (a binding
// giving its slot back) waits like any other.
// Returns false when an exception (a cancellation) ended the wait; it stays
// in flight.
bool SleepOnReactor(uint32_t ms);

// A socket driver code waits on. It owns one poll event
// (ZEND_ASYNC_NEW_SOCKET_EVENT), made at the first wait and reused by every
// later one (its interest set before each park, while it is stopped), until
// Close() or the socket changes.
//
// Lifetime: inside the request (the poll event is the reactor's); Close()
// before the request ends.
class ReactorSocket {
 public:
  ReactorSocket() = default;
  ReactorSocket(const ReactorSocket&) = delete;
  ReactorSocket& operator=(const ReactorSocket&) = delete;
  ~ReactorSocket() { Close(); }

  // Waits until `fd` is ready for `interest` (ASYNC_READABLE, WRITABLE,
  // PRIORITIZED) or `timeout_ms` (0: no timeout) passed. The running
  // coroutine parks on the poll event, and on a timer when there is a
  // timeout; where the running code cannot park (CanWaitOnReactor() is
  // false) the thread waits in poll(2) instead.
  // Returns false when an exception (a cancellation, the reactor's error on
  // the socket) ended the wait: it stays in flight. Else *ready is the
  // readiness seen (ASYNC_DISCONNECT for a hang-up), 0 when the timeout
  // passed first.
  bool Wait(zend_socket_t fd, async_poll_event interest, uint32_t timeout_ms,
            async_poll_event* ready);

  // Releases the poll event. Idempotent.
  void Close();

 private:
  zend_async_poll_event_t* poll_ = nullptr;
  zend_socket_t fd_ = -1;
};

}  // namespace pdo_sim::internal

#endif  // ZAR_PDO_SIM_SRC_DRIVERS_REACTOR_WAIT_H_
