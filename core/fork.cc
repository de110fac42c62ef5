#include "core/fork.h"

#include "core/reactor/reactor_loop.h"
#include "core/reactor/thread_registry.h"
#include "core/scheduler/scheduler.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core {
namespace {

bool BeforeFork() {
  if (ZEND_ASYNC_IS_OFF) {
    return true;
  }
  if (!OnlyMainCoroutineIsAlive()) {
    zend_throw_error(nullptr,
                     "Cannot fork() while coroutines other than the main one "
                     "are running. fork() is only allowed when just the main "
                     "coroutine is active.");
    return false;
  }
  if (!reactor::ThreadRegistryEmpty()) {
    zend_throw_error(nullptr, "%s", kForkWithThreadsError);
    return false;
  }
  return true;
}

void AfterForkChild() { reactor::LoopAfterForkChild(); }

}  // namespace

void RegisterForkHooks() {
  zend_async_fork_register(BeforeFork, AfterForkChild);
}

}  // namespace zar::core
