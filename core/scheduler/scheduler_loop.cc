// The scheduler fiber: where control goes when nothing is runnable.
//
// One iteration: heartbeat, microtasks, one reactor turn (blocking only
// when nothing is runnable and some counted event is active), then the
// next queued coroutine. With nothing queued:
//   - no coroutine left (and no counted event alive): the loop ends and the
//     fiber exits to the main flow (which is then in
//     ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN: the main coroutine counts as a
//     live coroutine until it finished);
//   - coroutines left but nothing that could wake them (no counted active
//     event, or the loop is dead): a deadlock (deadlock.cc).

#include "core/scheduler/scheduler.h"

namespace zar::core::internal {
namespace {

void RunLoop(SchedulerState* s, Fiber* self) {
  for (;;) {
    ZEND_ASYNC_SCHEDULER_CONTEXT = true;
    ZEND_ASYNC_SCHEDULER_HEARTBEAT;
    RunMicrotasks(s);
    const bool runnable = !s->run_queue.empty() || !s->microtasks.empty();
    const bool no_wait = runnable || ZEND_ASYNC_ACTIVE_EVENT_COUNT == 0;
    const bool alive = ZEND_ASYNC_REACTOR_EXECUTE(no_wait);
    if (EG(exception) != nullptr) HandleUncaughtException();
    s->until_poll = kPollInterval;
    ZEND_ASYNC_SCHEDULER_CONTEXT = false;

    AsyncCoroutine* next = TakeNext(s);
    if (next != nullptr) {
      RunNext(s, self, next);
      ZEND_ASYNC_CURRENT_COROUTINE = &s->scheduler->coroutine;
      continue;
    }
    if (!s->microtasks.empty()) continue;
    if (zend_hash_num_elements(&s->coroutines) == 0) {
      if (alive && ZEND_ASYNC_ACTIVE_EVENT_COUNT > 0) continue;
      return;
    }
    if (!alive || ZEND_ASYNC_ACTIVE_EVENT_COUNT == 0) ResolveDeadlock(s);
  }
}

}  // namespace

void SchedulerFiberBody(Fiber* self) {
  SchedulerState* s = State();
  for (;;) {
    volatile bool done = false;
    zend_try {
      RunLoop(s, self);
      done = true;
    }
    zend_catch {
      zend_mock_release_bailout_frames();
      EG(current_execute_data) = nullptr;
      ZEND_ASYNC_SCHEDULER_CONTEXT = false;
      zend_clear_exception();
      ZEND_ASYNC_CURRENT_COROUTINE = &s->scheduler->coroutine;
      OnBailout(s);
    }
    zend_end_try();
    if (done) break;
  }
  // Everything has run: back to the main flow, for good.
  if (ZEND_ASYNC_REF_TRACING()) {
    TraceSwitch(&s->scheduler->coroutine, nullptr);
  }
  s->scheduler_fiber = nullptr;
  ZEND_ASYNC_CURRENT_COROUTINE = nullptr;
  self->ExitTo(s->thread_fiber);
}

}  // namespace zar::core::internal
