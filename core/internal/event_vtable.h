// zend-async-ref core: what the vtables of core's own events share.
//
// An event that no loop arms (a pool, a channel, a future, a task group, a
// coroutine, a scope) has nothing to start or stop: its start and stop are
// StartNothing. An event whose callbacks vector needs no bookkeeping of
// its own takes the ABI's functions for it directly:
//
//   event->add_callback = zend_async_callbacks_push;
//   event->del_callback = zend_async_callbacks_remove;
//
// (an event that parks waiters takes AddWaiterCallback/DelWaiterCallback,
// waiter_queue.h, through InitOwnerEvent, owner_event.h).
//
// Threading: the request's thread.

#ifndef ZAR_CORE_INTERNAL_EVENT_VTABLE_H_
#define ZAR_CORE_INTERNAL_EVENT_VTABLE_H_

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::internal {

// start / stop of an event no loop arms: nothing to do.
inline bool StartNothing(zend_async_event_t* /*event*/) { return true; }

}  // namespace zar::core::internal

#endif  // ZAR_CORE_INTERNAL_EVENT_VTABLE_H_
