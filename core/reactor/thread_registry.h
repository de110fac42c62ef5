// zend-async-ref core: the reactor's registry of child threads, and
// reactor_quiesce (php-async libuv_reactor.c, "child thread registry").
//
// Every OS thread the reactor starts (a thread event's first start(),
// start_thread) is registered by its key, the address of its
// zend_async_thread_context_t, before the thread is created, and removes
// itself as the last thing it does with the engine's data (ThreadRun,
// core/thread_pool/thread.h). reactor_quiesce waits until the registry is
// empty: the engine calls it at the top of php_module_shutdown, so no
// child thread outlives the modules it may use.
//
// Threading: any thread; one mutex and one condition variable for the
// process. Quiesce must not be called from a child thread (it would wait
// for itself).

#ifndef ZAR_CORE_REACTOR_THREAD_REGISTRY_H_
#define ZAR_CORE_REACTOR_THREAD_REGISTRY_H_

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::reactor {

void ThreadRegistryAdd(zend_async_thread_handle_t key);
// Removes `key` (a key not registered is ignored) and wakes a quiesce
// waiting for the last thread.
void ThreadRegistryRemove(zend_async_thread_handle_t key);
// Whether no registered thread is left (right now).
bool ThreadRegistryEmpty();
// reactor_quiesce: returns once no registered thread is left.
void ThreadRegistryQuiesce();

}  // namespace zar::core::reactor

#endif  // ZAR_CORE_REACTOR_THREAD_REGISTRY_H_
