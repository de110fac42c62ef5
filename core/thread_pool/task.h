// zend-async-ref core: thread pool tasks (zend_async_task_t), a C function
// run on one of libuv's worker threads (uv_queue_work) and completed as an
// event on the request's thread.
//
//   new_task(run, data)  a task event (ref_count 1, info "ThreadPoolTask");
//                        run NULL: Async\AsyncException "Cannot create a
//                        task without a run function", NULL.
//   queue_task(task)     submits it: `run(task)` runs on a worker thread and
//                        must not touch the engine (no emalloc, no zvals,
//                        no exceptions). While in flight the task holds one
//                        more reference of its own, so the caller may
//                        release it at any time. Refusals, each
//                        Async\AsyncException and false: "Cannot queue a
//                        NULL task", "Cannot queue a task without a run
//                        function", "Failed to queue thread pool task:
//                        <libuv message>".
//   completion           on the request's thread, in the loop: the task
//                        closes and notifies (result NULL); a task libuv
//                        cancelled before it ran notifies
//                        Async\CancellationException "Thread pool task was
//                        cancelled". Then the in-flight reference goes.
//   start()/stop()       only count the task as an active event (the work
//                        runs from queue_task whether started or not).
//
// At request end a task still in flight is destroyed without its
// notification; its memory stays until libuv's completion callback ran
// (the loop's shutdown waits for running work).
//
// Threading: every function on the request's thread, `run` on a worker.

#ifndef ZAR_CORE_THREAD_POOL_TASK_H_
#define ZAR_CORE_THREAD_POOL_TASK_H_

#include <cstddef>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::thread_pool {

zend_async_task_t* NewTask(zend_async_task_run_t run, void* data,
                           size_t extra_size);
bool QueueTask(zend_async_task_t* task);

}  // namespace zar::core::thread_pool

#endif  // ZAR_CORE_THREAD_POOL_TASK_H_
