// zend-async-ref core: thread events (zend_async_thread_event_t) and
// lightweight threads (start_thread), php-async libuv_reactor.c "Thread
// API".
//
// new_thread_event(entry, bootloader, thread_flags, extra_size)
//   makes the event (ref_count 1, thread_flags kept, result UNDEF, no
//   exception, filename NULL, lineno 0) and its context (persistent,
//   ref_count 1: the event's). With an `entry`, the context's snapshot is
//   ZEND_ASYNC_THREAD_SNAPSHOT_CREATE(entry, bootloader); when that fails
//   the event is not made (NULL, the snapshot's exception stays). Without
//   one the caller may set context->internal_entry (a C thread body,
//   pemalloc'd: the thread frees it) before the first start. The event is
//   transparent: HIDDEN, and its wake-up handle (uv_async_t) does not keep
//   the loop alive.
// start()  the first start launches the OS thread, which runs
//   zend_async_thread_run_fn(context) (context->event = the event, one more
//   context reference for the thread, registered with the reactor's
//   registry, detached), and stays transparent. Each further start is an
//   awaiter: the event becomes visible (HIDDEN cleared), counted as active
//   and keeps the loop alive. A CLOSED or disposed event is not started
//   (false, no exception). A thread that cannot be created:
//   Async\AsyncException "Failed to create thread: <libuv message>", false.
// stop()   drops one awaiter; the last one makes the event transparent
//   again (uncounted, HIDDEN).
// the thread's end, on the request's thread (the wake-up handle's
//   callback): ZEND_ASYNC_THREAD_LOAD_RESULT(event) (an exception it leaves
//   pending joins the event's exception as previous, or becomes it); the
//   callbacks are notified with (&result, exception); the event is stopped
//   and CLOSED; an exception a callback handled is marked consumed
//   (ZEND_THREAD_SET_EXCEPTION_CONSUMED).
// replay() on a CLOSED event: the outcome again, to a callback or into
//   result/exception (an exception with no slot for it is thrown); false
//   before the end.
// info()   "thread #<OS thread id> spawned at <filename or unknown>:<line>"
//   (the id is 0 until the thread runs).
// dispose() the last reference detaches the event from its context (a
//   thread still running no longer hands anything over, and releases its
//   own transferred values), drops the event's context reference, releases
//   the filename, the loaded result, and the exception: an exception loaded
//   and never consumed is thrown (it becomes the previous of one already
//   pending), as upstream's dispose does. Values never loaded are released
//   as transferred graphs.
//
// start_thread(entry, context)
//   a lightweight thread with no event: context->internal_entry = entry
//   (ownership moves), one context reference for the thread, registered,
//   created and detached. Returns its key (the context's address), or 0
//   with Async\AsyncException "Failed to create thread: <libuv message>". The
//   thread may free the context as soon as it is created: the caller keeps its
//   own reference if it still needs it.
//
// Threading: everything here on the request's thread, except the thread's
// body (zend_async_thread_run_fn) and notify_parent, which the child calls.

#ifndef ZAR_CORE_REACTOR_THREAD_EVENT_H_
#define ZAR_CORE_REACTOR_THREAD_EVENT_H_

#include <cstddef>
#include <cstdint>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::reactor {

zend_async_thread_event_t* NewThreadEvent(const zend_fcall_t* entry,
                                          const zend_fcall_t* bootloader,
                                          uint32_t thread_flags,
                                          size_t extra_size);

zend_async_thread_handle_t StartThread(
    zend_async_thread_internal_entry_t* entry,
    zend_async_thread_context_t* context);

}  // namespace zar::core::reactor

#endif  // ZAR_CORE_REACTOR_THREAD_EVENT_H_
