// zend-async-ref core: a timer an owner runs on its own behalf, its
// callback embedded in the owner: the pool's healthcheck and the channel's
// deadlock timer.
//
//   struct Owner { ...; internal::EmbeddedTimer tick; };
//   owner->tick.Start(ms, /*periodic=*/true, /*hidden=*/true, OnTick);
//   void OnTick(zend_async_event_t*, zend_async_event_callback_t* cb, ...) {
//     Owner* owner = EmbeddedTimer::OwnerOf<Owner>(cb, offsetof(Owner, tick));
//   }
//   owner->tick.Stop();
//
// Ownership: while running, the EmbeddedTimer holds the timer event's one
// reference; the callback lives in the owner, so its dispose does nothing
// and the owner must Stop() before it goes.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_INTERNAL_EMBEDDED_TIMER_H_
#define ZAR_CORE_INTERNAL_EMBEDDED_TIMER_H_

#include <cstddef>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::internal {

struct EmbeddedTimer {
  // The running timer; nullptr when none runs.
  zend_async_timer_event_t* timer = nullptr;
  // Registered on `timer` while it runs.
  zend_async_event_callback_t callback = {};

  bool running() const { return timer != nullptr; }

  // Starts a timer of `ms` milliseconds (periodic, or one-shot) whose firing
  // calls `on_fire` with `callback`. `hidden`: ZEND_ASYNC_EVENT_SET_HIDDEN,
  // the timer neither keeps the loop alive nor hides a deadlock. False, and
  // nothing held, when no timer could be made or it refused to start (an
  // exception it threw stays in flight). REQUIRES: !running().
  bool Start(zend_ulong ms, bool periodic, bool hidden,
             zend_async_event_callback_fn on_fire) {
    zend_async_timer_event_t* made = ZEND_ASYNC_NEW_TIMER_EVENT(ms, periodic);
    if (made == nullptr) return false;
    if (hidden) ZEND_ASYNC_EVENT_SET_HIDDEN(&made->base);
    callback.ref_count = 0;
    callback.callback = on_fire;
    callback.dispose = DisposeNothing;
    made->base.add_callback(&made->base, &callback);
    if (!made->base.start(&made->base)) {
      made->base.del_callback(&made->base, &callback);
      ZEND_ASYNC_EVENT_RELEASE(&made->base);
      return false;
    }
    timer = made;
    return true;
  }

  // Stops and releases the timer; nothing when none runs.
  void Stop() {
    zend_async_timer_event_t* running_timer = timer;
    if (running_timer == nullptr) return;
    timer = nullptr;
    running_timer->base.stop(&running_timer->base);
    running_timer->base.del_callback(&running_timer->base, &callback);
    ZEND_ASYNC_EVENT_RELEASE(&running_timer->base);
  }

  // The owner whose EmbeddedTimer, at `offset` in Owner, holds `fired`.
  template <typename Owner>
  static Owner* OwnerOf(zend_async_event_callback_t* fired, size_t offset) {
    return reinterpret_cast<Owner*>(reinterpret_cast<char*>(fired) -
                                    offsetof(EmbeddedTimer, callback) - offset);
  }

  // The callback is the owner's memory: nothing to free.
  static void DisposeNothing(zend_async_event_callback_t*,
                             zend_async_event_t*) {}
};

}  // namespace zar::core::internal

#endif  // ZAR_CORE_INTERNAL_EMBEDDED_TIMER_H_
