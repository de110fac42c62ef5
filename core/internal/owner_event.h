// zend-async-ref core: an event that parks its callers, and the calls
// parked on it. The pool (a parked acquire) and the channel (a parked send
// or receive) are such owners; this is the glue they share around the
// waiter queue (waiter_queue.h):
//
//   OwnerEventOf<Self, Abi>                the owner's struct: FromAbi,
//                                          FromEvent, event(), closed()
//   InitOwnerEvent(event, dispose, info)   the owner event's vtable: its
//                                          callbacks vector holds the
//                                          parked waiters' callbacks
//                                          (Add/DelWaiterCallback); no loop
//                                          arms it (StartNothing)
//   EnterCoroutine(outside, refuse_off)    a call outside a coroutine that
//                                          must wait launches the scheduler
//   InitWaiter(waiter, coroutine, owner)   a waiter in the waiting call's
//                                          frame, before the owner keeps it
//   ParkWaiter(waiter, park)               the park (zend_async_ref/park.h)
//                                          on the owner's event, plus a
//                                          timeout or cancellations
//   LeaveQueue(queue, waiter)              the woken waiter leaves
//
// A parked call, start to end:
//
//   Waiter waiter;
//   InitWaiter(&waiter, coroutine, owner->event());
//   owner->waiters.PushBack(&waiter);          the owner's hold
//   zend_async_ref_park_t park = {};           + timeout, cancellations
//   ParkWaiter(&waiter, &park);                suspended until woken
//   const bool reserved = waiter.reserved;
//   LeaveQueue(&owner->waiters, &waiter);      nothing refers to it now
//
// The waiter's callback counts its holders as waiter_queue.h says: the
// waiting call, where the owner keeps it (its queue, or another slot such
// as the channel's delivering sender), the owner event's callbacks vector
// from the park until the waker's clean or the owner deletes it.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_INTERNAL_OWNER_EVENT_H_
#define ZAR_CORE_INTERNAL_OWNER_EVENT_H_

#include <cstdint>
#include <cstring>

#include "core/internal/event_vtable.h"
#include "core/internal/waiter_queue.h"

extern "C" {
#include "zend_async_ref/park.h"
}

namespace zar::core::internal {

// The base of an owner's struct (AsyncPool, AsyncChannel): its first member
// `base` is its ABI structure (Abi), which starts with the
// zend_async_event_t `event`.
//   struct AsyncPool : OwnerEventOf<AsyncPool, zend_async_pool_t> {
//     zend_async_pool_t base;  // first
//     ...
//   };
template <typename Self, typename Abi>
struct OwnerEventOf {
  static Self* FromAbi(Abi* abi) { return reinterpret_cast<Self*>(abi); }
  static Self* FromEvent(zend_async_event_t* event) {
    return reinterpret_cast<Self*>(event);
  }
  zend_async_event_t* event() { return &static_cast<Self*>(this)->base.event; }
  bool closed() const {
    return ZEND_ASYNC_EVENT_IS_CLOSED(
        &static_cast<const Self*>(this)->base.event);
  }
};

// Installs the vtable of an owner event (ref_count 1, everything else
// zeroed): its callbacks vector holds parked waiters' callbacks, it is never
// started or stopped.
inline void InitOwnerEvent(zend_async_event_t* event,
                           zend_async_event_dispose_t dispose,
                           zend_async_event_info_t info) {
  memset(event, 0, sizeof(*event));
  event->ref_count = 1;
  SetUnarmedVtable(event, {.add_callback = AddWaiterCallback,
                           .del_callback = DelWaiterCallback,
                           .dispose = dispose,
                           .info = info});
}

// Why a call outside a coroutine could not become one (EnterCoroutine).
enum class Entered : uint8_t {
  kYes,           // the caller runs as the main coroutine now
  kAsyncOff,      // refused: async is off
  kLaunchFailed,  // ZEND_ASYNC_SCHEDULER_LAUNCH threw
  kNoScheduler,   // the launch gave the caller no coroutine
};

// Called outside a coroutine by a call that must wait: launches the
// scheduler, so that the caller becomes the main coroutine. Anything but
// kYes leaves an exception in flight: the launch's, or Async\AsyncException
// `outside` (async is off while `refuse_while_off`, or no coroutine came
// of the launch).
[[gnu::noinline]] inline Entered EnterCoroutine(const char* outside,
                                                bool refuse_while_off) {
  if (refuse_while_off && ZEND_ASYNC_IS_OFF) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "%s", outside);
    return Entered::kAsyncOff;
  }
  ZEND_ASYNC_SCHEDULER_LAUNCH();
  if (EG(exception) != nullptr) return Entered::kLaunchFailed;
  if (ZEND_ASYNC_CURRENT_COROUTINE == nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "%s", outside);
    return Entered::kNoScheduler;
  }
  return Entered::kYes;
}

// Sets up `waiter` (in the waiting call's frame) for `coroutine` parking on
// `owner`: its callback resumes the coroutine
// (zend_async_waker_callback_resolve) and is held twice, by the waiting
// call and by where the owner keeps the waiter, which the caller puts it
// in next: a WaiterQueue's PushBack, which sets its marks and links, or a
// slot of its own, where the caller marks it unreserved and unqueued.
// REQUIRES: `coroutine` and `owner` are not NULL (ParkWaiter tells the
// compiler so: the park then tests neither).
inline void InitWaiter(Waiter* waiter, zend_coroutine_t* coroutine,
                       zend_async_event_t* owner) {
  waiter->callback.base.ref_count = 2;
  waiter->callback.base.callback = zend_async_waker_callback_resolve;
  waiter->callback.base.dispose = DisposeWaiterCallback;
  waiter->callback.coroutine = coroutine;
  waiter->callback.event = owner;
  waiter->event_slot = Waiter::kNoSlot;
}

// Parks the waiter's coroutine (zend_async_ref_park) on the owner's event
// with the waiter's callback (park->events[0], set here), and on what
// `park` adds: events[1] and [2] (cancellations), a timeout. Returns as
// zend_async_ref_park does; afterwards the owner's event no longer holds
// the callback.
[[gnu::always_inline]] inline bool ParkWaiter(Waiter* waiter,
                                              zend_async_ref_park_t* park) {
  zend_async_event_t* owner = waiter->callback.event;
  zend_coroutine_t* coroutine = waiter->callback.coroutine;
  // InitWaiter's REQUIRES, told to the compiler.
  if (coroutine == nullptr || owner == nullptr) __builtin_unreachable();
  park->events[0] = {owner, zend_async_waker_callback_resolve,
                     &waiter->callback, false};
  return zend_async_ref_park(coroutine, park);
}

// Takes `waiter` out of `queue` if it is still queued, dropping the
// queue's hold on its callback. Whether it was queued.
inline bool LeaveQueue(WaiterQueue* queue, Waiter* waiter) {
  if (!queue->Remove(waiter)) return false;
  waiter->callback.base.ref_count--;  // the queue's hold: at least 1
  return true;
}

}  // namespace zar::core::internal

#endif  // ZAR_CORE_INTERNAL_OWNER_EVENT_H_
