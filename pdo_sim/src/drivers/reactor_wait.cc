// zend-async-ref pdo_sim: waiting on the reactor from driver code
// (reactor_wait.h).

#include "pdo_sim/src/drivers/reactor_wait.h"

#include <errno.h>
#include <poll.h>

extern "C" {
#include "zend_async_ref/park.h"
}

namespace pdo_sim::internal {
namespace {

// The coroutine to park where CanWaitOnReactor() holds, the scheduler
// launched first when the main flow has not yet. Null when the launch left
// none (nothing to park: the caller does not wait, or blocks) or failed (an
// exception is then in flight).
zend_coroutine_t* ParkableCoroutine() {
  if (zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE) return self;
  ZEND_ASYNC_SCHEDULER_LAUNCH();
  if (EG(exception) != nullptr) return nullptr;
  return ZEND_ASYNC_CURRENT_COROUTINE;
}

// poll(2) for `fd` without the reactor: the thread blocks.
async_poll_event BlockingWait(zend_socket_t fd, async_poll_event interest,
                              uint32_t timeout_ms) {
  pollfd p = {fd, 0, 0};
  if (interest & ASYNC_READABLE) p.events |= POLLIN;
  if (interest & ASYNC_WRITABLE) p.events |= POLLOUT;
  if (interest & ASYNC_PRIORITIZED) p.events |= POLLPRI;
  const int timeout = timeout_ms > 0 ? static_cast<int>(timeout_ms) : -1;
  int n;
  do {
    n = poll(&p, 1, timeout);
  } while (n < 0 && errno == EINTR);
  if (n <= 0) return static_cast<async_poll_event>(0);
  int ready = 0;
  if (p.revents & (POLLIN | POLLERR)) ready |= ASYNC_READABLE;
  if (p.revents & POLLOUT) ready |= ASYNC_WRITABLE;
  if (p.revents & POLLPRI) ready |= ASYNC_PRIORITIZED;
  if (p.revents & POLLHUP) ready |= ASYNC_DISCONNECT;
  return static_cast<async_poll_event>(ready);
}

}  // namespace

bool CanWaitOnReactor() {
  if (ZEND_ASYNC_IS_SCHEDULER_CONTEXT || EG(exception) != nullptr) {
    return false;
  }
  return ZEND_ASYNC_CURRENT_COROUTINE != nullptr ||
         (ZEND_ASYNC_IS_READY && ZEND_ASYNC_IS_ENABLED());
}

bool SleepOnReactor(uint32_t ms) {
  if (ms == 0 || !CanWaitOnReactor()) return EG(exception) == nullptr;
  zend_coroutine_t* self = ParkableCoroutine();
  if (self == nullptr) return EG(exception) == nullptr;
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(ms, false);
  if (timer == nullptr) return false;
  // The park owns the timer (trans_event): the waker lets it go.
  zend_async_ref_park_t park = {};
  park.events[0].event = &timer->base;
  park.events[0].trans_event = true;
  return zend_async_ref_park(self, &park);
}

bool ReactorSocket::Wait(zend_socket_t fd, async_poll_event interest,
                         uint32_t timeout_ms, async_poll_event* ready) {
  if (!CanWaitOnReactor()) {
    *ready = BlockingWait(fd, interest, timeout_ms);
    return true;
  }
  zend_coroutine_t* self = ParkableCoroutine();
  if (self == nullptr) {
    if (EG(exception) != nullptr) return false;  // the launch failed
    *ready = BlockingWait(fd, interest, timeout_ms);
    return true;
  }
  if (poll_ != nullptr && fd_ != fd) Close();
  if (poll_ == nullptr) {
    poll_ = ZEND_ASYNC_NEW_SOCKET_EVENT(fd, interest);
    if (poll_ == nullptr) return false;
    fd_ = fd;
  }
  // Stopped between waits (the park's clean stops it): its next start
  // watches this interest.
  poll_->events = interest;
  poll_->triggered_events = static_cast<async_poll_event>(0);
  zend_async_ref_park_t park = {};
  park.events[0].event = &poll_->base;  // ours: the park borrows it
  if (timeout_ms > 0) {
    park.timeout_ms = timeout_ms;
    park.timeout_callback = zend_async_waker_callback_resolve;
  }
  if (!zend_async_ref_park(self, &park)) return false;
  *ready = poll_->triggered_events;
  return true;
}

void ReactorSocket::Close() {
  if (poll_ == nullptr) return;
  zend_async_poll_event_t* poll = poll_;
  poll_ = nullptr;
  fd_ = -1;
  ZEND_ASYNC_EVENT_RELEASE(&poll->base);
}

}  // namespace pdo_sim::internal
