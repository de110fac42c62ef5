// zend-async-ref core: the vtable of an event no loop arms (a pool, a
// channel, a future, a task group, a coroutine, a scope), set in one place:
//
//   SetUnarmedVtable(event, {.replay = Replay, .dispose = Dispose,
//                            .info = Info});
//
// start and stop do nothing (StartNothing). Its callbacks vector is the
// ABI's own (zend_async_callbacks_push / zend_async_callbacks_remove)
// unless the event keeps books of its own (a future's late subscriber, an
// owner event's parked waiters: AddWaiterCallback/DelWaiterCallback through
// InitOwnerEvent, owner_event.h). A reactor event's vtable is
// InitEvent's (reactor/reactor_event.h), with the same callbacks vector.
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

// What differs between the vtables of unarmed events.
struct UnarmedVtable {
  zend_async_event_add_callback_t add_callback = zend_async_callbacks_push;
  zend_async_event_del_callback_t del_callback = zend_async_callbacks_remove;
  zend_async_event_replay_t replay = nullptr;
  zend_async_event_dispose_t dispose = nullptr;
  zend_async_event_info_t info = nullptr;
};

// Sets `event`'s vtable (its other fields are the caller's).
inline void SetUnarmedVtable(zend_async_event_t* event,
                             const UnarmedVtable& vtable) {
  event->add_callback = vtable.add_callback;
  event->del_callback = vtable.del_callback;
  event->start = StartNothing;
  event->stop = StartNothing;
  event->replay = vtable.replay;
  event->dispose = vtable.dispose;
  event->info = vtable.info;
}

}  // namespace zar::core::internal

#endif  // ZAR_CORE_INTERNAL_EVENT_VTABLE_H_
