#include "core/reactor_loop.h"

#include "core/reactor_event.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
}

namespace zar::core::reactor {
namespace {

// The request's loop. Static storage: one request at a time (non-ZTS).
struct LoopState {
  uv_loop_t loop;
  bool initialised = false;  // uv_loop_init succeeded, uv_loop_close pending
  bool running = false;      // inside uv_run (LoopExecute or LoopShutdown)
};

LoopState& State() {
  static LoopState state;
  return state;
}

}  // namespace

uv_loop_t* AcquireLoop() {
  LoopState& state = State();
  if (state.initialised) {
    return &state.loop;
  }
  const int error = uv_loop_init(&state.loop);
  if (error != 0) {
    zend_throw_error(nullptr, "Failed to initialize loop: %s",
                     uv_strerror(error));
    return nullptr;
  }
  state.initialised = true;
  return &state.loop;
}

bool LoopStartup() { return AcquireLoop() != nullptr; }

bool LoopShutdown() {
  LoopState& state = State();
  if (!state.initialised) {
    return true;
  }
  if (state.running) {
    return false;
  }

  ShutdownAllEvents();
  ZEND_ASSERT(LiveEventCount() == 0);

  // Only closing handles are left (and libuv's internal ones, which do not
  // keep the loop alive): each pass runs every close callback queued
  // before it.
  state.running = true;
  while (uv_loop_alive(&state.loop) != 0) {
    uv_run(&state.loop, UV_RUN_NOWAIT);
  }
  state.running = false;

  const int error = uv_loop_close(&state.loop);
  ZEND_ASSERT(error == 0);
  (void)error;
  state.initialised = false;
  return true;
}

bool LoopExecute(bool no_wait) {
  LoopState& state = State();
  if (!state.initialised || state.running || uv_loop_alive(&state.loop) == 0) {
    return LoopAlive();
  }
  const bool wait = !no_wait && ZEND_ASYNC_ACTIVE_EVENT_COUNT > 0;
  state.running = true;
  uv_run(&state.loop, wait ? UV_RUN_ONCE : UV_RUN_NOWAIT);
  state.running = false;
  return LoopAlive();
}

bool LoopAlive() {
  LoopState& state = State();
  return state.initialised && ZEND_ASYNC_ACTIVE_EVENT_COUNT > 0 &&
         uv_loop_alive(&state.loop) != 0;
}

void LoopQuiesce() {}

uint64_t LoopNow() {
  uv_loop_t* loop = AcquireLoop();
  return loop != nullptr ? uv_now(loop) : 0;
}

unsigned int LoopAvailableParallelism() {
  const unsigned int parallelism = uv_available_parallelism();
  return parallelism > 0 ? parallelism : 1;
}

}  // namespace zar::core::reactor
