// Microtasks: small units of work run in FIFO order before the next
// coroutine (at every switch, see Tick) and on every turn of the scheduler
// fiber.
//
// Reference rules: queuing takes one reference (ref_count++); after its
// run (or its skip, when it was cancelled meanwhile) the queue drops it
// with ZEND_ASYNC_MICROTASK_RELEASE, which runs dtor and efree()s the
// microtask at the last reference. An exception a handler leaves behind
// becomes the exit exception and starts graceful shutdown.

#include "core/scheduler/scheduler.h"

namespace zar::core {

bool AddMicrotask(zend_async_microtask_t* microtask) {
  if (microtask->is_cancelled) return true;
  if (internal::State() == nullptr && !Launch()) return false;
  internal::State()->microtasks.PushBack(microtask);
  microtask->ref_count++;
  return true;
}

namespace internal {

void RunMicrotasks(SchedulerState* s) {
  while (!s->microtasks.empty()) {
    zend_async_microtask_t* microtask = s->microtasks.PopFront();
    if (!microtask->is_cancelled) microtask->handler(microtask);
    ZEND_ASYNC_MICROTASK_RELEASE(microtask);
    if (UNEXPECTED(EG(exception) != nullptr)) HandleUncaughtException();
  }
}

}  // namespace internal
}  // namespace zar::core
