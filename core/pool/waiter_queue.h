// zend-async-ref core: the FIFO queue of coroutines parked in a pool's
// acquire, with reservations.
//
// A PoolWaiter is one parked acquire: the coroutine callback the pool event
// and the coroutine's waker know it by (first member, so a callback pointer
// is a waiter pointer), a `reserved` mark, and the links of this queue.
// WaiterQueue threads waiters into an intrusive doubly linked list:
//
//   PushBack(w)                 arrival: w becomes the newest waiter
//   ReserveOldestUnreserved()   the pool picks whom to wake: the oldest
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
// Ownership: the queue never allocates or frees; the pool owns the waiters
// (see pool.h for their reference counts). A waiter is in at most one queue.
//
// Threading: not thread-safe; the request's thread.

#ifndef ZAR_CORE_POOL_WAITER_QUEUE_H_
#define ZAR_CORE_POOL_WAITER_QUEUE_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::internal {

struct PoolWaiter {
  // ABI structure (must be first): registered on the pool event through
  // zend_async_resume_when and invoked by the pool to wake the coroutine.
  zend_coroutine_event_callback_t callback;
  // Woken with a reserved place (an idle resource or the capacity to
  // create one) that no unreserved caller may take until this waiter runs.
  bool reserved;
  // Linked into a WaiterQueue (prev/next are meaningful only then).
  bool queued;
  // Index of `callback` in the pool event's callbacks vector while it is
  // registered there (kNoSlot otherwise); lets del_callback run in O(1).
  uint32_t event_slot;
  PoolWaiter* prev;  // older neighbour, nullptr at the front
  PoolWaiter* next;  // newer neighbour, nullptr at the back

  static constexpr uint32_t kNoSlot = UINT32_MAX;

  static PoolWaiter* FromCallback(zend_async_event_callback_t* callback) {
    return reinterpret_cast<PoolWaiter*>(callback);
  }
};

static_assert(std::is_standard_layout_v<PoolWaiter>);
static_assert(offsetof(PoolWaiter, callback) == 0);

class WaiterQueue {
 public:
  WaiterQueue() = default;
  WaiterQueue(const WaiterQueue&) = delete;
  WaiterQueue& operator=(const WaiterQueue&) = delete;

  bool empty() const { return size_ == 0; }
  uint32_t size() const { return size_; }
  // The oldest / newest waiter, or nullptr when empty.
  PoolWaiter* front() const { return front_; }
  PoolWaiter* back() const { return back_; }

  // The oldest waiter without a reservation, or nullptr.
  PoolWaiter* FirstUnreserved() const { return first_unreserved_; }
  bool HasUnreserved() const { return first_unreserved_ != nullptr; }

  // Appends `waiter` as the newest, unreserved.
  // REQUIRES: !waiter->queued.
  void PushBack(PoolWaiter* waiter) {
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
  PoolWaiter* ReserveOldestUnreserved() {
    PoolWaiter* waiter = first_unreserved_;
    if (waiter == nullptr) return nullptr;
    waiter->reserved = true;
    first_unreserved_ = waiter->next;
    return waiter;
  }

  // Unlinks `waiter`, keeping the order of the others. Returns false (and
  // does nothing) when it is not queued.
  bool Remove(PoolWaiter* waiter) {
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
    waiter->prev = nullptr;
    waiter->next = nullptr;
    waiter->queued = false;
    size_--;
    return true;
  }

  // Removes and returns the newest waiter, or nullptr when empty.
  PoolWaiter* PopBack() {
    PoolWaiter* waiter = back_;
    if (waiter != nullptr) Remove(waiter);
    return waiter;
  }

  // Checks the invariants above (tests): links consistent, size right,
  // reserved waiters a prefix, first_unreserved_ the first unreserved.
  bool CheckInvariants() const {
    uint32_t count = 0;
    const PoolWaiter* previous = nullptr;
    const PoolWaiter* first_unreserved = nullptr;
    for (const PoolWaiter* w = front_; w != nullptr; w = w->next) {
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
  PoolWaiter* front_ = nullptr;
  PoolWaiter* back_ = nullptr;
  // The oldest unreserved waiter; every waiter before it is reserved.
  PoolWaiter* first_unreserved_ = nullptr;
  uint32_t size_ = 0;
};

}  // namespace zar::core::internal

#endif  // ZAR_CORE_POOL_WAITER_QUEUE_H_
