#include "core/reactor/reactor_loop.h"

#include "core/reactor/reactor_event.h"
#include "core/reactor/thread_registry.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "ext/async/php_async.h"
#include "php.h"
}

namespace zar::core::reactor {
namespace {

// Whether a uv_run is in progress (LoopExecute or LoopShutdown), and
// whether it is LoopExecute's blocking pass (UV_RUN_ONCE). The loop itself
// and whether it is initialised live in the extension's globals:
// ASYNC_G(uvloop), ASYNC_G(reactor_started).
bool running = false;
bool blocking_pass = false;

}  // namespace

uv_loop_t* AcquireLoop() {
  if (ASYNC_G(reactor_started)) {
    return &ASYNC_G(uvloop);
  }
  // No request (async OFF): no loop to make, as upstream's reactor startup
  // refuses.
  if (ZEND_ASYNC_IS_OFF) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Async mode is disabled. Reactor API cannot be used.");
    return nullptr;
  }
  const int error = uv_loop_init(&ASYNC_G(uvloop));
  if (error != 0) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to initialize loop: %s", uv_strerror(error));
    return nullptr;
  }
  ASYNC_G(reactor_started) = true;
  return &ASYNC_G(uvloop);
}

bool LoopStartup() { return AcquireLoop() != nullptr; }

bool LoopShutdown() {
  if (!ASYNC_G(reactor_started)) {
    return true;
  }
  if (running) {
    return false;
  }

  ShutdownAllEvents();
  ZEND_ASSERT(LiveEventCount() == 0);

  // Only closing handles are left, and requests being cancelled or
  // finishing (a DNS lookup already running in libuv's thread pool cannot
  // be cancelled); libuv's internal handles do not keep the loop alive. A
  // pass with closing handles does not block; one with only requests left
  // sleeps until the next completes.
  uv_loop_t* loop = &ASYNC_G(uvloop);
  running = true;
  while (uv_loop_alive(loop) != 0) {
    uv_run(loop, UV_RUN_ONCE);
  }
  running = false;

  const int error = uv_loop_close(loop);
  ZEND_ASSERT(error == 0);
  (void)error;
  ASYNC_G(reactor_started) = false;
  return true;
}

bool LoopExecute(bool no_wait) {
  uv_loop_t* loop = &ASYNC_G(uvloop);
  if (!ASYNC_G(reactor_started) || running || uv_loop_alive(loop) == 0) {
    return LoopAlive();
  }
  const bool wait = !no_wait && ZEND_ASYNC_ACTIVE_EVENT_COUNT > 0;
  running = true;
  blocking_pass = wait;
  uv_run(loop, wait ? UV_RUN_ONCE : UV_RUN_NOWAIT);
  blocking_pass = false;
  running = false;
  return LoopAlive();
}

void EndBlockingPassAfterTimer(uv_loop_t* loop) {
  if (blocking_pass) uv_stop(loop);
}

bool LoopAlive() {
  return ASYNC_G(reactor_started) && ZEND_ASYNC_ACTIVE_EVENT_COUNT > 0 &&
         uv_loop_alive(&ASYNC_G(uvloop)) != 0;
}

void LoopQuiesce() { ThreadRegistryQuiesce(); }

void LoopAfterForkChild() {
  if (!ASYNC_G(reactor_started)) return;
  // libuv has already reset its own thread pool in the child (its atfork
  // handler); a failure leaves the loop as it is, which is all the child
  // could do about it.
  (void)uv_loop_fork(&ASYNC_G(uvloop));
}

uint64_t LoopNow() {
  uv_loop_t* loop = AcquireLoop();
  return loop != nullptr ? uv_now(loop) : 0;
}

unsigned int LoopAvailableParallelism() {
  const unsigned int parallelism = uv_available_parallelism();
  return parallelism > 0 ? parallelism : 1;
}

}  // namespace zar::core::reactor
