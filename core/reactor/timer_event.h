// zend-async-ref core: timer events (zend_async_timer_event_t over
// uv_timer_t).
//
// A timer fires `timeout` ms after it is started (timeout = ms + ns rounded
// up to the next millisecond, saturated at UINT_MAX). Timers whose deadlines
// are equal fire in start order: libuv's timer heap breaks ties by start id.
//
// On fire:
//   periodic              notifies and keeps running (every `timeout` ms,
//                         at least 1 ms);
//   one-shot              stops, becomes CLOSED, then notifies (the
//                         ZEND_ASYNC_CALLBACKS_NOTIFY_AND_CLOSE order); it
//                         can never be started again;
//   one-shot + MULTISHOT  stops (every loop reference dropped) and notifies;
//                         it stays open: start() or TimerRearm() arms it
//                         again. Its owner disposes it.
// Notifications carry no result and no exception.
//
// Threading: the request's thread. Ownership: New* returns the only
// reference (ref_count 1); ZEND_ASYNC_EVENT_RELEASE disposes it.

#ifndef ZAR_CORE_REACTOR_TIMER_EVENT_H_
#define ZAR_CORE_REACTOR_TIMER_EVENT_H_

#include <cstddef>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::reactor {

// new_timer_event. Returns nullptr (Async\AsyncException thrown) if the
// loop cannot be initialised.
zend_async_timer_event_t* NewTimerEvent(zend_ulong timeout,
                                        zend_ulong nanoseconds,
                                        bool is_periodic, size_t extra_size);

// timer_rearm (ZEND_ASYNC_TIMER_REARM): sets a new timeout and (re)starts
// the timer from now, keeping its refcount and callbacks. A started timer
// keeps its loop references; a stopped one is started (one reference).
// False, with nothing changed, for NULL, a CLOSED timer or one without
// ZEND_ASYNC_TIMER_F_MULTISHOT; false with Async\AsyncException
// "Failed to rearm timer handle: ..." when libuv refuses.
bool TimerRearm(zend_async_timer_event_t* event, zend_ulong timeout,
                zend_ulong nanoseconds);

}  // namespace zar::core::reactor

#endif  // ZAR_CORE_REACTOR_TIMER_EVENT_H_
