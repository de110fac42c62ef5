// zend-async-ref core: the request's libuv loop.
//
// One uv_loop_t per request, ASYNC_G(uvloop) in the extension's globals
// (ext/async/php_async.h, where upstream keeps it), initialised by
// LoopStartup() at request startup (or, after an explicit reactor_shutdown,
// by the next call that needs it: creating an event, LoopNow()), and closed
// by LoopShutdown() at request end;
// ASYNC_G(reactor_started) says whether it is initialised. These functions are
// the bodies of the reactor's loop-level ABI entries (reactor_startup,
// reactor_shutdown, reactor_execute, reactor_loop_alive, reactor_quiesce, now,
// available_parallelism).
//
// Liveness (what the scheduler sees): the loop is alive while at least one
// counted event is started (ZEND_ASYNC_ACTIVE_EVENT_COUNT > 0, which leaves
// out F_HIDDEN events) and libuv has something to run. Hidden events still
// fire whenever the loop runs, but never keep it alive and never make
// execute(false) wait.
//
// Threading: every function runs on the request's thread; libuv calls
// back on that thread, inside LoopExecute() (or inside a uv_run a harness
// makes on ASYNC_G(uvloop)). Lifetime: the loop's storage is the module
// globals; it is initialised and closed once per request (again after a
// LoopShutdown() if used again).

#ifndef ZAR_CORE_REACTOR_REACTOR_LOOP_H_
#define ZAR_CORE_REACTOR_REACTOR_LOOP_H_

#include <uv.h>

#include <cstdint>

namespace zar::core::reactor {

// The request's loop, initialised if it is not (the first use after an
// explicit reactor_shutdown). Returns nullptr, with Async\AsyncException
// thrown, when async is off ("Async mode is disabled. Reactor API cannot be
// used.", no request) or libuv fails ("Failed to initialize loop: <libuv
// message>").
uv_loop_t* AcquireLoop();

// reactor_startup: initialises the loop if needed. False (Async\AsyncException
// thrown) when libuv fails.
bool LoopStartup();

// reactor_shutdown and ShutdownReactorForRequest: destroys every live event
// (stopped, CLOSED, callbacks freed), runs the loop without blocking until
// every close callback ran (so their memory is freed), and closes the loop.
// A no-op when the loop is not initialised. Event pointers are dangling
// afterwards. REQUIRES: not inside LoopExecute() (returns false then).
bool LoopShutdown();

// reactor_execute: one uv_run pass. no_wait, or no counted event started:
// UV_RUN_NOWAIT (poll, never block); otherwise UV_RUN_ONCE (block until at
// least one event is ready). Skipped entirely (no clock read) when libuv
// has nothing to run. Returns LoopAlive() after the pass. A callback that
// leaves an exception pending ends the pass after the current libuv phase
// (EG(exception) stays set). A call from inside a pass (re-entrant) runs
// nothing.
bool LoopExecute(bool no_wait);

// Called by a timer's callback. libuv 1.44's uv_run(UV_RUN_ONCE) runs the
// timers that are due first and then polls for I/O, blocking until the next
// timer or descriptor: a timer that woke a coroutine at the start of a
// blocking pass would leave it queued while the loop sleeps, forever if only
// quiet descriptors are watched. Inside a blocking LoopExecute() pass this
// stops the pass (uv_stop), so its poll does not block and the scheduler
// gets the coroutine at once; elsewhere (a non-blocking pass, a harness's
// own uv_run) it does nothing.
void EndBlockingPassAfterTimer(uv_loop_t* loop);

// reactor_loop_alive: see "Liveness" above. False when not initialised.
bool LoopAlive();

// reactor_quiesce: returns once every thread the reactor started has left
// (thread_registry.h).
void LoopQuiesce();

// The fork hook's child half (ZEND_ASYNC_AFTER_FORK_CHILD, upstream's
// libuv_after_fork_child): the child inherited the parent's loop, whose
// epoll instance it shares with the parent; uv_loop_fork() gives it its own,
// with every handle re-registered. A no-op when no loop is initialised.
void LoopAfterForkChild();

// now: the loop's cached time in milliseconds (uv_now; one load, no
// syscall). It only moves when a loop pass runs, and never backwards.
uint64_t LoopNow();

// available_parallelism: uv_available_parallelism(), always >= 1.
unsigned int LoopAvailableParallelism();

}  // namespace zar::core::reactor

#endif  // ZAR_CORE_REACTOR_REACTOR_LOOP_H_
