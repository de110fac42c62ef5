// zend-async-ref core: a thread's lifecycle, the scheduler group's four
// thread functions (php-async thread.c, its lifecycle half: snapshot,
// async_thread_run, async_thread_load_result).
//
// A thread is a zend_async_thread_context_t (persistent, refcounted) run by
// ThreadRun on an OS thread the reactor starts (a thread event's first
// start(), or the thread pool group's start_thread):
//
//   thread_snapshot_create(entry, bootloader)
//       upstream deep-copies a PHP callable (its op_array, bound variables
//       and $this) so that a child thread's own PHP request can run it.
//       The mock engine is a non-ZTS build: one engine, on the request's
//       thread, and no PHP request can start on another thread (upstream's
//       own non-ZTS build fails that request startup too). So a callable is
//       refused here, before any thread exists: Async\AsyncException
//       (the class of upstream's non-ZTS spawn_thread() refusal)
//       kCallableRefused, NULL. A thread body in C, an internal entry, needs no
//       snapshot.
//   thread_snapshot_destroy(snapshot)
//       frees a snapshot; as thread_snapshot_create never makes one, only
//       NULL reaches it, which is a no-op.
//   thread_run(context)          on the child thread:
//       records the OS thread id (context->thread_id); runs the internal
//       entry, if any: the entry struct is freed (pefree) and
//       handler(event, ctx) is called, `event` being the thread event
//       (NULL for start_thread's threads). Then hands off to the parent:
//       under HandoffMutex(), if the context still has its event, the
//       values the handler left in event->result / event->exception
//       (transferred, persistent) stay for the parent and
//       event->notify_parent(event) is called (it wakes the parent's loop).
//       Last, the thread drops its context reference and then leaves the
//       reactor's registry, so that once reactor_quiesce returns no thread
//       holds a context (upstream leaves the registry first).
//   thread_load_result(event)    on the parent thread, from the event's
//       notification: a bailout message in the context becomes
//       Async\ThreadTransferException(<message>); a transferred exception
//       is loaded and wrapped in Async\RemoteException (message and code
//       copied, getRemoteException() the loaded exception,
//       getRemoteClass() its class name); a transferred result is loaded
//       into event->result (ZEND_ASYNC_EVENT_SET_ZVAL_RESULT). A load that
//       fails becomes Async\ThreadTransferException "Failed to load remote
//       exception of class "<class>"" or "Failed to load thread result
//       into parent thread", the load's error as previous. The
//       transferred values are released; ZEND_THREAD_SET_RESULT_LOADED.
//
// What an internal entry may do: it runs without an engine (this thread
// has none), like a thread pool task's run function: persistent memory
// only (pemalloc, persistent strings), no emalloc, no request values, no
// exceptions. It returns values through its own ctx, or by leaving a
// transferred zval (ZEND_ASYNC_THREAD_TRANSFER_ZVAL_TOPLEVEL, made on the
// request's thread before the start) or a persistent scalar in
// event->result, while its parent keeps the event alive (awaits it).
//
// Threading: snapshot functions and load_result on the request's thread;
// thread_run on the child thread. The hand-off lock is HandoffMutex(), one
// mutex for the process: the ABI's ZEND_ASYNC_THREAD_CONTEXT_EVENT_MUTEX_*
// macros are no-ops in a non-ZTS build, and the reference's threads are
// real, so its thread event and ThreadRun lock this mutex instead.

#ifndef ZAR_CORE_THREAD_POOL_THREAD_H_
#define ZAR_CORE_THREAD_POOL_THREAD_H_

#include <mutex>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::thread_pool {

// Why a PHP callable cannot run on another thread here.
inline constexpr char kCallableRefused[] =
    "Running a PHP callable in a thread requires a Thread-Safe (ZTS) PHP "
    "build";

void* ThreadSnapshotCreate(const zend_fcall_t* entry,
                           const zend_fcall_t* bootloader);
void ThreadSnapshotDestroy(void* snapshot);
void ThreadRun(void* arg);
void ThreadLoadResult(zend_async_thread_event_t* event);

// Frees the transferred values a thread left in `event` and not loaded
// (result, exception); leaves result UNDEF and exception NULL.
void ReleaseHandedOver(zend_async_thread_event_t* event);

// Guards a thread event's hand-off: the child reads context->event and
// calls notify_parent under it; the parent, disposing the event, stores
// NULL into context->event and then takes it once, so that no hand-off is
// still using the event when it is freed.
std::mutex& HandoffMutex();

}  // namespace zar::core::thread_pool

#endif  // ZAR_CORE_THREAD_POOL_THREAD_H_
