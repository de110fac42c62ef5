// zend-async-ref core: the coroutine scheduler.
//
// The functions below are the scheduler's entries in the ABI (registered by
// registration.cc); everything else reaches them through the ZEND_ASYNC_*
// macros. docs/scheduler.md describes the design; in short:
//
//  - One FIFO run queue (RingBuffer) of coroutines whose waker is QUEUED
//    (or IGNORED: cancelled before they started). Spawn appends (priority
//    > 0: prepends), wake-ups append. A coroutine runs until it suspends.
//  - A suspending coroutine switches directly to the next queued one
//    (starting it on a pooled fiber if it has none); only when nothing is
//    runnable does it switch to the scheduler fiber, which runs microtasks,
//    waits in the reactor, detects deadlocks and, after the main script,
//    runs everything to completion.
//  - Between coroutines, at fixed points and never by reading a clock: the
//    heartbeat handler and every queued microtask run, and every
//    kPollInterval-th switch the reactor is polled without blocking.
//
// core/scheduler/ is the ABI's scheduler group (zend_async_scheduler_register),
// php-async's scheduler.c, coroutine.c, scope.c, context.c, exceptions.c.
// One file per step of a coroutine's life, in the order a debugger meets
// them:
//   registration.{h,cc}   the 31 entries, named once
//   launch.cc             READY -> ACTIVE: main and scheduler coroutines
//   spawn.cc              a new coroutine, queued
//   suspend.cc            the current coroutine waits (the hot path)
//   wake.cc               enqueue and resume: back into the run queue
//   dispatch.cc           choosing the next coroutine, switching to it
//   coroutine_run.cc      running bodies on worker fibers, finishing them
//   cancel.cc             cancellation
//   microtasks.cc, scheduler_loop.cc, deadlock.cc
//                         the scheduler fiber's turn
//   run_after_main.cc, graceful_shutdown.cc
//                         the end of the script and of the request
//   scheduler_state.cc    per-request tables and the fiber pool
//   coroutine.{h,cc}, scope.{h,cc}, context.{h,cc}, async_classes.{h,cc}
//                         the objects and the PHP classes
//   introspection.cc, scheduler_trace.{h,cc}
//
// Per-request state (SchedulerState) exists from the launch until
// ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN has drained everything (or until
// RSHUTDOWN, whichever comes first).
//
// Threading: everything runs on the request's thread; coroutines switch
// cooperatively.

#ifndef ZAR_CORE_SCHEDULER_SCHEDULER_H_
#define ZAR_CORE_SCHEDULER_SCHEDULER_H_

#include <cstdint>
#include <vector>

#include "core/fiber/fiber.h"
#include "core/internal/ring_buffer.h"
#include "core/scheduler/coroutine.h"
#include "core/scheduler/scheduler_trace.h"

extern "C" {
#include "mock_zend/exception_park.h"
}

namespace zar::core {

// The scheduler's fast paths: the suspension's common case (SuspendFast in
// suspend.cc) and the wake-ups' (TryEnqueueFast in wake.cc, used by
// Enqueue, Resume and MakeRunnable), each in front of the general path it
// shortens and falling back to it before any side effect. They pay in the
// yield round trip (docs/scheduler.md, "Fast paths"). The CMake option
// ZAR_FAST_PATHS=OFF compiles them out, so that the suite runs on the
// general paths alone (CI does, in one row).
#ifndef ZAR_FAST_PATHS
#define ZAR_FAST_PATHS 1
#endif
inline constexpr bool kFastPaths = ZAR_FAST_PATHS != 0;

// ---- ABI entry points (zend_async_*_fn) -----------------------------------

// scheduler_launch_fn: READY -> ACTIVE. Creates the main scope (if
// missing), the main coroutine (the running main flow, on the thread
// stack), the scheduler coroutine with its fiber in a fresh scope; then
// ZEND_ASYNC_ACTIVATE and the main-coroutine start handlers (their result
// is returned). Errors (Async\AsyncException, false): "The scheduler
// cannot be started when is already enabled", "The scheduler cannot be
// started without the Reactor"; false when the reactor's startup fails.
bool Launch();

// spawn_fn: a new coroutine, queued. Launches the scheduler when READY.
// Scope: `scope`, else the provider's (provideScope()), else the current
// coroutine's, else the main scope (created lazily). Errors
// (Async\AsyncException, NULL), in upstream's order: "Cannot spawn a
// coroutine when async is disabled", "Cannot spawn a coroutine without a
// scope", "Cannot spawn a coroutine in a closed scope", "You cannot use the
// Scheduler scope to create coroutines". The caller sets fcall or
// internal_entry before the coroutine runs; the returned pointer is
// borrowed (the scheduler owns the coroutine).
zend_coroutine_t* Spawn(zend_async_scope_t* scope, zend_object* scope_provider,
                        int32_t priority);

// suspend_fn. from_main = false: suspends the current coroutine until it
// is resumed (see suspend.cc). from_main = true
// (ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN): the main script has ended; runs
// every coroutine to completion (run_after_main.cc).
bool Suspend(bool from_main, bool is_bailout);

// How many suspensions were refused with Async\AsyncException "A coroutine
// cannot be stopped from the Scheduler context" (asked for in a reactor
// callback, a microtask or an event's start()) since the process started.
// Whoever runs foreign code there (the pool's healthcheck tick) compares it
// before and after the call to tell that refusal from the code's own
// exceptions. The request's thread.
uint64_t RefusedSuspensions();

// enqueue_coroutine_fn: makes the coroutine runnable (idempotent).
// NULL means the current coroutine (launching the scheduler if needed).
bool Enqueue(zend_coroutine_t* coroutine);

// resume_fn: wakes a suspended coroutine, optionally with an error to
// throw in it. Async\AsyncException "Cannot resume a coroutine that has
// not been suspended" (false) when it is not waiting.
bool Resume(zend_coroutine_t* coroutine, zend_object* error,
            bool transfer_error);

// cancel_fn (cancel.cc for the rules).
bool Cancel(zend_coroutine_t* coroutine, zend_object* error,
            bool transfer_error, bool is_safely);

// spawn_and_throw_fn: spawns a coroutine that throws `exception` (a new
// reference is taken) as soon as it starts.
bool SpawnAndThrow(zend_object* exception, zend_async_scope_t* scope,
                   int32_t priority);

// shutdown_fn: starts graceful shutdown (graceful_shutdown.cc).
bool Shutdown();
// engine_shutdown_fn: releases the request's scheduler state and the
// reactor's request state.
bool EngineShutdown();

// get_coroutines_fn: a new array of the live coroutine objects (one
// reference each, the main coroutine included, the scheduler's excluded).
// The caller releases the array. An empty array before the launch.
zend_array* GetCoroutines();
// get_awaiting_info_fn: a new array of the descriptions (event info) of
// the events the coroutine waits for; empty when it waits for nothing.
zend_array* GetAwaitingInfo(zend_coroutine_t* coroutine);
// Whether no coroutine but the main one (and the scheduler's) is alive:
// none spawned, or every one finished. True before the launch. The fork
// hook's question (core/fork.h).
bool OnlyMainCoroutineIsAlive();
// add_microtask_fn: queues the microtask (one reference taken); a
// cancelled microtask is not queued.
bool AddMicrotask(zend_async_microtask_t* microtask);

// RSHUTDOWN: frees whatever per-request scheduler state is left (normally
// nothing: ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN has run).
void ReleaseRequestState();

namespace internal {

// Switches between polls of the reactor from a suspending coroutine.
inline constexpr uint32_t kPollInterval = 64;
// Idle fibers kept for reuse; a finished fiber beyond that is freed.
inline constexpr uint32_t kFiberPoolSize = 128;
// A spawn reserves its coroutine's stack while fewer coroutines than this
// are runnable (spawn.cc): coroutines that run and park one after another
// meet a stack limit in their spawner, while a burst of spawns does not map
// a stack for each coroutine that has not run yet.
inline constexpr uint32_t kSpawnReservationWindow = 64;

// The per-request state of a launched scheduler.
//
// Invariants: a coroutine is in run_queue at most once, exactly when its
// `queued` flag is set (a run-queue entry whose waker is no longer QUEUED
// or IGNORED is stale and skipped); every coroutine in `coroutines`
// is registered (AsyncCoroutine::registered), unfinished, and holds the
// scheduler's reference; current_coroutine is the one whose fiber runs
// (the scheduler coroutine on the scheduler fiber).
struct SchedulerState {
  RingBuffer<AsyncCoroutine*> run_queue{64};
  RingBuffer<zend_async_microtask_t*> microtasks;
  // Object handle -> AsyncCoroutine* (IS_PTR): every live coroutine but
  // the scheduler's.
  HashTable coroutines;
  // Fibers without a coroutine, parked in their loop; reused LIFO.
  Fiber* idle_fibers[kFiberPoolSize];
  uint32_t idle_count = 0;
  Fiber* thread_fiber = nullptr;     // the main flow's (OS) stack
  Fiber* scheduler_fiber = nullptr;  // NULL once it exited
  AsyncCoroutine* main = nullptr;    // NULL once the main coroutine finished
  AsyncCoroutine* scheduler = nullptr;
  zend_async_scope_t* scheduler_scope = nullptr;
  // Counts down to the next non-blocking reactor poll.
  uint32_t until_poll = kPollInterval;
  // A coroutine (or the scheduler) bailed out: after shutting down
  // gracefully the main flow bails out again.
  bool bailout = false;
};

// The launched scheduler's state, or NULL (scheduler_state.cc).
extern SchedulerState* current_state;
inline SchedulerState* State() { return current_state; }
// Creates the state (at launch). REQUIRES: State() == NULL.
SchedulerState* CreateState();

// Exceptions in flight across a switch: a flow that suspends parks
// EG(exception) and EG(prev_exception) in its own suspend frame
// (zend_mock_exception_park, mock_zend/exception_park.h) and unparks them
// when it runs again, in PHP's zend_exception_restore order
// (ZEND_MOCK_PARKED_BECOMES_PREVIOUS: one thrown meanwhile stays in flight
// and carries the parked one as its previous). A finishing flow takes its
// exception with zend_mock_exception_take.

// The run queue: appends (or, with `front`, prepends) a coroutine that is
// not queued; takes a queued one out of the queue (dispatch.cc).
inline void PushRunnable(SchedulerState* state, AsyncCoroutine* coroutine,
                         bool front = false) {
  if (coroutine->queued) return;
  coroutine->queued = true;
  if (UNEXPECTED(front)) {
    state->run_queue.PushFront(coroutine);
  } else {
    state->run_queue.PushBack(coroutine);
  }
}
void RemoveFromRunQueue(SchedulerState* state, AsyncCoroutine* coroutine);

// Tables and pools (scheduler_state.cc).
void RegisterCoroutine(SchedulerState* state, AsyncCoroutine* coroutine);
void UnregisterCoroutine(SchedulerState* state, AsyncCoroutine* coroutine);
// Every registered coroutine, each with a reference taken (GC_ADDREF), for
// a loop that may change the table (cancelling them); the caller releases
// each (OBJ_RELEASE).
std::vector<zend_object*> HoldRegisteredCoroutines(SchedulerState* state);
// An idle fiber: a pooled one, or a new one with a new stack. NULL, with
// an Exception "Fiber stack allocate failed: …" thrown (the limit reached
// and how to raise it, StackFailureMessage), when no stack can be mapped.
Fiber* TakeFiber(SchedulerState* state);
// Gives back an idle fiber that runs nothing (pooled, or freed when the
// pool is full).
void ReturnFiber(SchedulerState* state, Fiber* fiber);
// A fiber to start `coroutine` on (TakeFiber): assigns it. False (with the
// exception thrown) when no stack can be mapped.
bool AssignFiber(SchedulerState* state, AsyncCoroutine* coroutine);
// Parks an idle fiber for reuse; false when the pool is full.
bool ParkFiber(SchedulerState* state, Fiber* fiber);
void DestroyState();

// Dispatch (dispatch.cc). The fast paths are inline; the rest is there.
//
// A coroutine cancelled before it started finishes where it is dequeued.
void FinishUnstarted(SchedulerState* state, AsyncCoroutine* coroutine);
// Pops the next coroutine to run, finishing in place those cancelled before
// they started and skipping stale entries; NULL when the queue is empty.
inline AsyncCoroutine* TakeNext(SchedulerState* state) {
  while (!state->run_queue.empty()) {
    AsyncCoroutine* next = state->run_queue.PopFront();
    next->queued = false;
    const zend_async_waker_t* waker = next->coroutine.waker;
    if (EXPECTED(waker->status == ZEND_ASYNC_WAKER_QUEUED)) return next;
    if (waker->status != ZEND_ASYNC_WAKER_IGNORED) continue;  // stale
    if (ZEND_COROUTINE_IS_STARTED(&next->coroutine)) return next;
    FinishUnstarted(state, next);
  }
  return nullptr;
}
// A fiber for a coroutine that never ran; false (the coroutine finished
// with the error) when none could be had.
bool AssignFiberOrFail(SchedulerState* state, AsyncCoroutine* next);
// The part of Enqueue that makes the coroutine runnable, without the trace
// line (wake.cc): for the scheduler's own callers (resume, cancel), which
// trace their own event.
bool MakeRunnable(zend_coroutine_t* coroutine);

// Loads, ahead of time, what the coroutines queued next will touch when
// they run: with many coroutines each switch lands on memory last used a
// thousand switches ago. A pipeline three switches deep, each stage
// reading only what the stage before loaded: the coroutine two places
// back (the lines a switch reads: flags, waker, fiber, queued), the fiber
// control block of the one behind it, and the saved registers and frames
// of the one that runs after `next`. Only prefetches: every entry of the
// run queue is a live coroutine; one not started yet has no fiber. With
// 1,000 coroutines yielding in turn this takes a quarter off a switch (docs/
// scheduler.md, "Speed at scale").
inline void PrefetchQueued(const SchedulerState* state) {
  const RingBuffer<AsyncCoroutine*>& queue = state->run_queue;
  // A short queue's coroutines ran a few switches ago: still cached.
  if (queue.size() < 3) return;
  if (Fiber* fiber = queue[0]->fiber) fiber->PrefetchFrames();
  if (Fiber* fiber = queue[1]->fiber) fiber->PrefetchControl();
  const AsyncCoroutine* third = queue[2];
  __builtin_prefetch(third);
  __builtin_prefetch(&third->coroutine.waker);
  __builtin_prefetch(&third->fiber);
  __builtin_prefetch(&third->waker_storage.status);
}

// Makes `next` current and switches from `self` to its fiber (assigning
// one first if it never ran); returns true when `self` is switched back
// to. False without switching when no fiber could be had for `next`
// (which then finishes with that error).
inline bool RunNext(SchedulerState* state, Fiber* self, AsyncCoroutine* next) {
  if (UNEXPECTED(next->fiber == nullptr) && !AssignFiberOrFail(state, next)) {
    return false;
  }
  PrefetchQueued(state);
  if (ZEND_ASYNC_REF_TRACING()) {
    TraceSwitch(ZEND_ASYNC_CURRENT_COROUTINE, &next->coroutine);
  }
  ZEND_ASYNC_CURRENT_COROUTINE = &next->coroutine;
  self->SwitchTo(next->fiber);
  return true;
}
// The scheduler's part of a switch: heartbeat, microtasks, and a
// non-blocking reactor poll every kPollInterval calls; in scheduler
// context.
void TickSlow(SchedulerState* state);
inline void Tick(SchedulerState* state) {
  if (UNEXPECTED(--state->until_poll == 0) ||
      UNEXPECTED(!state->microtasks.empty()) ||
      UNEXPECTED(ZEND_ASYNC_G(heartbeat_handler) != nullptr)) {
    TickSlow(state);
  }
}

// Coroutine bodies (coroutine_run.cc).
void WorkerFiberBody(Fiber* self);
// Finishes a coroutine: its outcome is `exception` (owned, may be NULL)
// and its result. Notifies awaiters, leaves the scheduler and its scope,
// hands an unhandled exception to the scope (and the exit exception).
void FinishCoroutine(SchedulerState* state, AsyncCoroutine* coroutine,
                     zend_object* exception);
// The scheduler lets go of a finished coroutine.
void ReleaseCoroutine(AsyncCoroutine* coroutine);

// ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN (run_after_main.cc).
bool RunAfterMain(bool is_bailout);

// The scheduler fiber (scheduler_loop.cc).
void SchedulerFiberBody(Fiber* self);

// Microtasks (microtasks.cc): runs every queued microtask, FIFO.
void RunMicrotasks(SchedulerState* state);

// Exit exception and graceful shutdown (graceful_shutdown.cc).
// Makes `exception` the exit exception (a reference is added), the old one
// chained as its previous.
void SetExitException(zend_object* exception);
// Takes EG(exception) (if any) and makes it the exit exception, starting
// graceful shutdown: what the scheduler does with an error nobody caught.
void HandleUncaughtException();
// Cancels every coroutine with Async\AsyncCancellation "Graceful
// shutdown" (once); `reason` (borrowed, may be NULL) becomes the exit
// exception. Without a reason or exit exception, reports E_CORE_WARNING
// "Graceful shutdown mode was started".
void StartGracefulShutdown(zend_object* reason);

// Deadlock (deadlock.cc): every live coroutine waits and nothing can wake
// them. Sets the exit exception to Async\DeadlockError and cancels each.
void ResolveDeadlock(SchedulerState* state);

// A coroutine body or the scheduler bailed out (zend_bailout).
void OnBailout(SchedulerState* state);

}  // namespace internal
}  // namespace zar::core

#endif  // ZAR_CORE_SCHEDULER_SCHEDULER_H_
