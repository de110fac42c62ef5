// zend-async-ref core: the FIFO queue of coroutines parked on an event,
// with reservations: the one waiting mechanism of the pool (a parked
// acquire) and the channel (a parked send or receive).
//
// A Waiter is one parked call: the coroutine callback the owner's event
// and the coroutine's waker know it by (first member, so a callback pointer
// is a waiter pointer), a `reserved` mark, and the links of this queue.
// WaiterQueue threads waiters into an intrusive doubly linked list:
//
//   PushBack(w)                 arrival: w becomes the newest waiter
//   ReserveOldestUnreserved()   the owner picks whom to wake: the oldest
//                               waiter not yet holding a reservation,
//                               marked reserved; it stays queued until it
//                               runs and removes itself
//   Remove(w)                   w leaves (it ran, timed out, was cancelled)
//   PopBack()                   close drains the queue from the newest end
//
// Ordering: arrival order is the service order. Every operation is O(1) and
// none reorders the others: removing a waiter from the middle (a timeout or
// a cancellation) keeps everyone else's place.
//
// Invariant: reserved waiters form a prefix of the queue. A reservation is
// only ever given to the oldest unreserved waiter, new waiters arrive
// unreserved at the back, and removals keep relative order, so the first
// unreserved waiter (first_unreserved_) is found without a scan.
//
// Ownership: the queue never allocates or frees; the waiters live in the
// frames of the calls that wait (owner_event.h sets them up and parks them).
// A waiter is in at most one queue.
//
// Threading: not thread-safe; the request's thread.

#ifndef ZAR_CORE_INTERNAL_WAITER_QUEUE_H_
#define ZAR_CORE_INTERNAL_WAITER_QUEUE_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::internal {

struct Waiter {
  // ABI structure (must be first): registered on the owner's event through
  // zend_async_resume_when and invoked by the owner to wake the coroutine.
  zend_coroutine_event_callback_t callback;
  // Woken with a reserved place (a pool's idle resource or capacity to
  // create one; a channel's value or free slot) that no unreserved caller
  // may take until this waiter runs.
  bool reserved;
  // Linked into a WaiterQueue (prev/next are meaningful only then).
  bool queued;
  // Index of `callback` in the owner event's callbacks vector while it is
  // registered there (kNoSlot otherwise); lets del_callback run in O(1).
  uint32_t event_slot;
  Waiter* prev;  // older neighbour, nullptr at the front
  Waiter* next;  // newer neighbour, nullptr at the back

  static constexpr uint32_t kNoSlot = UINT32_MAX;

  static Waiter* FromCallback(zend_async_event_callback_t* callback) {
    return reinterpret_cast<Waiter*>(callback);
  }
};

static_assert(std::is_standard_layout_v<Waiter>);
static_assert(offsetof(Waiter, callback) == 0);

class WaiterQueue {
 public:
  WaiterQueue() = default;
  WaiterQueue(const WaiterQueue&) = delete;
  WaiterQueue& operator=(const WaiterQueue&) = delete;

  bool empty() const { return size_ == 0; }
  uint32_t size() const { return size_; }
  // The oldest / newest waiter, or nullptr when empty.
  Waiter* front() const { return front_; }
  Waiter* back() const { return back_; }

  // The oldest waiter without a reservation, or nullptr.
  Waiter* FirstUnreserved() const { return first_unreserved_; }
  bool HasUnreserved() const { return first_unreserved_ != nullptr; }

  // Appends `waiter` as the newest, unreserved.
  // REQUIRES: !waiter->queued.
  void PushBack(Waiter* waiter) {
    waiter->reserved = false;
    waiter->queued = true;
    waiter->next = nullptr;
    waiter->prev = back_;
    if (back_ != nullptr) {
      back_->next = waiter;
    } else {
      front_ = waiter;
    }
    back_ = waiter;
    if (first_unreserved_ == nullptr) first_unreserved_ = waiter;
    size_++;
  }

  // Marks the oldest unreserved waiter reserved and returns it (it stays
  // queued); nullptr when every waiter already holds a reservation.
  Waiter* ReserveOldestUnreserved() {
    Waiter* waiter = first_unreserved_;
    if (waiter == nullptr) return nullptr;
    waiter->reserved = true;
    first_unreserved_ = waiter->next;
    return waiter;
  }

  // Unlinks `waiter`, keeping the order of the others. Returns false (and
  // does nothing) when it is not queued. Its own links are left as they
  // were: they mean nothing once it is not queued.
  bool Remove(Waiter* waiter) {
    if (!waiter->queued) return false;
    if (first_unreserved_ == waiter) first_unreserved_ = waiter->next;
    if (waiter->prev != nullptr) {
      waiter->prev->next = waiter->next;
    } else {
      front_ = waiter->next;
    }
    if (waiter->next != nullptr) {
      waiter->next->prev = waiter->prev;
    } else {
      back_ = waiter->prev;
    }
    waiter->queued = false;
    size_--;
    return true;
  }

  // Removes and returns the newest waiter, or nullptr when empty.
  Waiter* PopBack() {
    Waiter* waiter = back_;
    if (waiter != nullptr) Remove(waiter);
    return waiter;
  }

  // Checks the invariants above (tests): links consistent, size right,
  // reserved waiters a prefix, first_unreserved_ the first unreserved.
  bool CheckInvariants() const {
    uint32_t count = 0;
    const Waiter* previous = nullptr;
    const Waiter* first_unreserved = nullptr;
    for (const Waiter* w = front_; w != nullptr; w = w->next) {
      if (!w->queued || w->prev != previous) return false;
      if (w->reserved && first_unreserved != nullptr) return false;
      if (!w->reserved && first_unreserved == nullptr) first_unreserved = w;
      previous = w;
      count++;
    }
    return previous == back_ && count == size_ &&
           first_unreserved == first_unreserved_;
  }

 private:
  Waiter* front_ = nullptr;
  Waiter* back_ = nullptr;
  // The oldest unreserved waiter; every waiter before it is reserved.
  Waiter* first_unreserved_ = nullptr;
  uint32_t size_ = 0;
};

// ---- A waiter's callback on its owner's event -------------------------------
//
// A waiter lives in the frame of the call that waits, so parking allocates
// nothing. Its callback's ref_count counts who holds it, as the ABI's
// callback rules say: the waiting call (from the start of the wait to its
// end), the queue (while queued), the owner event's callbacks vector (from
// resume_when until the coroutine's waker lets go of the event, or the
// owner deletes it). Dispose therefore only ever counts down, never frees.
// An owner whose event holds waiters installs AddWaiterCallback and
// DelWaiterCallback as its add_callback/del_callback.

// Drops one reference to a waiter's callback.
inline void CountDownWaiterCallback(zend_async_event_callback_t* callback) {
  if (callback->ref_count > 0) callback->ref_count--;
}

// The dispose of a waiter's callback: counts down.
inline void DisposeWaiterCallback(zend_async_event_callback_t* callback,
                                  zend_async_event_t* /*event*/) {
  CountDownWaiterCallback(callback);
}

// Whether `callback` is a waiter's (its dispose identifies it).
inline bool IsWaiterCallback(const zend_async_event_callback_t* callback) {
  return callback->dispose == DisposeWaiterCallback;
}

// add_callback of an owner event: appends, recording a waiter's slot.
inline bool AddWaiterCallback(zend_async_event_t* event,
                              zend_async_event_callback_t* callback) {
  zend_async_callbacks_push(event, callback);
  if (IsWaiterCallback(callback)) {
    Waiter::FromCallback(callback)->event_slot = event->callbacks.length - 1;
  }
  return true;
}

// del_callback of an owner event: removes a waiter's callback in O(1)
// through its recorded slot (false at once when it has none: a waiter's
// callback is in the vector only between AddWaiterCallback and its
// deletion) (swap with the last, fixing the moved waiter's
// slot) unless a notification walks the vector; anything else with
// zend_async_callbacks_remove. The vector's order does not matter: service
// order is the waiter queue's.
inline bool DelWaiterCallback(zend_async_event_t* event,
                              zend_async_event_callback_t* callback) {
  zend_async_callbacks_vector_t* vector = &event->callbacks;
  if (IsWaiterCallback(callback) &&
      Waiter::FromCallback(callback)->event_slot == Waiter::kNoSlot) {
    // Never added, or already deleted (the channel deletes a waiter's
    // callback when it wakes it; the waker's clean-up deletes it again):
    // not in the vector, so no scan.
    return false;
  }
  if (IsWaiterCallback(callback) && vector->current_iterator == nullptr) {
    Waiter* waiter = Waiter::FromCallback(callback);
    const uint32_t slot = waiter->event_slot;
    if (slot < vector->length && vector->data[slot] == callback) {
      zend_async_event_callback_t* last = vector->data[--vector->length];
      if (slot != vector->length) {
        vector->data[slot] = last;
        if (IsWaiterCallback(last)) {
          Waiter::FromCallback(last)->event_slot = slot;
        }
      }
      waiter->event_slot = Waiter::kNoSlot;
      CountDownWaiterCallback(callback);  // its dispose
      return true;
    }
  }
  if (IsWaiterCallback(callback)) {
    Waiter::FromCallback(callback)->event_slot = Waiter::kNoSlot;
  }
  return zend_async_callbacks_remove(event, callback);
}

}  // namespace zar::core::internal

#endif  // ZAR_CORE_INTERNAL_WAITER_QUEUE_H_
