// The conformance runner's self-test fault (the implementation library
// zend_async_ref_impl_broken_fifo, docs/conformance.md): the reference's
// waiter queue with one fault. A reservation goes to the newest waiter: it
// jumps ahead of every unreserved waiter and is reserved, so a release (or
// freed capacity) wakes the newest waiter instead of the oldest. The
// queue's invariants still hold; only the service order is wrong, and a
// releaser still cannot take a reserved place.
//
// How it gets in: tools/conformance/broken_fifo/ comes first on that
// library's include path (and on no other), so the pool's and the channel's
// #include "core/internal/waiter_queue.h" finds this header. It includes the
// real one (#include_next) with its class named InOrderWaiterQueue, and
// defines WaiterQueue as that queue with ReserveOldestUnreserved()
// replaced. The production header carries no hook for it.
//
// Threading: as the real queue (the request's thread).

#ifndef ZAR_CONFORMANCE_BROKEN_FIFO_WAITER_QUEUE_H_
#define ZAR_CONFORMANCE_BROKEN_FIFO_WAITER_QUEUE_H_

#define WaiterQueue InOrderWaiterQueue
#include_next "core/internal/waiter_queue.h"
#undef WaiterQueue

namespace zar::core::internal {

class WaiterQueue : public InOrderWaiterQueue {
 public:
  // Moves the newest waiter ahead of every unreserved one, then reserves
  // the first unreserved waiter (now the newest) as the real queue does.
  // O(unreserved waiters), through the real queue's own operations.
  Waiter* ReserveOldestUnreserved() {
    Waiter* newest = back();
    if (HasUnreserved() && newest != FirstUnreserved()) {
      Remove(newest);
      uint32_t others = 0;
      for (Waiter* w = FirstUnreserved(); w != nullptr; w = w->next) {
        others++;
      }
      // Queue: reserved..., others..., newest; rotating the others behind
      // the newest leaves reserved..., newest, others...
      PushBack(newest);
      for (uint32_t i = 0; i < others; i++) {
        Waiter* oldest = FirstUnreserved();
        Remove(oldest);
        PushBack(oldest);
      }
    }
    return InOrderWaiterQueue::ReserveOldestUnreserved();
  }
};

}  // namespace zar::core::internal

#endif  // ZAR_CONFORMANCE_BROKEN_FIFO_WAITER_QUEUE_H_
