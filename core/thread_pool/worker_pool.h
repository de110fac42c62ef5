// zend-async-ref core: worker pools (zend_async_thread_pool_t), the thread
// pool group's new_thread_pool (php-async thread_pool.c), for C tasks.
//
// A pool is a fixed set of worker threads (start_thread's lightweight
// threads, core/reactor/thread_event.h) taking tasks from one FIFO queue.
// Upstream's workers each run a PHP request, so that a task may be a PHP
// closure and the pool may have a PHP bootloader; the mock engine serves
// one thread (docs/threads.md), so here a pool runs C tasks only
// (submit_internal), and its workers have no engine.
//
// new_thread_pool(worker_count, queue_size, bootloader, coroutine_mode,
//                 concurrency)
//   starts `worker_count` workers (0 or less: none; each holds a pool
//   reference) and returns the pool with ref_count 1 (the caller's) + 1
//   (the request's: released at request end) + 1 per worker. queue_size
//   bounds the tasks waiting for a worker (0 or less: 4 per worker, as
//   upstream's ThreadPool). `coroutine_mode` and `concurrency` concern PHP
//   tasks and are kept, unused. A bootloader is a PHP callable: refused as
//   thread_snapshot_create refuses one (core/thread_pool/thread.h), but with
//   Async\ThreadPoolException (the class of upstream's non-ZTS ThreadPool
//   refusal), NULL. A worker that
//   cannot start: Async\ThreadPoolException "Failed to start worker
//   thread", the pool closed, NULL (the pool goes with its workers).
// submit_internal(pool, handler, ctx)     the request's thread
//   queues handler(NULL, ctx) and returns the event of a new future (one
//   reference, the caller's; ZEND_FUTURE_SET_USED). A worker runs the
//   handler (FIFO); the future then completes on the request's thread with
//   an undefined result (the handler has no engine to report with). While
//   tasks are in flight the pool keeps the loop alive (its notifier, a
//   trigger event, is started). A full queue suspends the calling
//   coroutine until a worker takes a task (or the pool closes); outside a
//   coroutine the scheduler is launched first, so that the caller becomes
//   the main coroutine. Refusals, NULL, the handler never runs and `ctx`
//   stays the caller's: Async\ThreadPoolException "ThreadPool is closed"
//   (for a caller parked on a full queue when the pool closes:
//   Async\ThreadChannelException "ThreadChannel is closed", as upstream,
//   whose submitter waits in its task channel's send and finds it closed),
//   "ThreadPool has no live worker threads", and, when no coroutine can
//   wait (the scheduler cannot launch), "ThreadPool queue is full" (the
//   reference's own text).
// close(pool)    no task is accepted any more; the workers run the tasks
//   already queued, then exit. Idempotent.
// dispose(pool)  the last reference (ZEND_THREAD_POOL_DELREF): frees the
//   pool, on whichever thread dropped it.
// reload         NULL (optional in the ABI): rotating workers is for PHP
//   bootloaders.
// Counters: pending_count (queued), running_count (in a handler),
//   completed_count (handlers returned), closed, worker_count.
// Request end (ShutdownWorkerPools): every pool the request made is
//   closed; its queued tasks are dropped (never run); the futures of its
//   tasks are released (a task still running finishes unobserved); the
//   request's reference goes.
//
// Trace (the request's thread): "worker pool new WorkerPool#1" once its
// workers started, "worker pool submit WorkerPool#1" for each task queued,
// "worker pool done WorkerPool#1" for each future completed.
//
// Threading: new_thread_pool, submit_internal and the request-end hook on
// the request's thread; close and the reference count from any thread;
// handlers on workers. One mutex per pool guards its queue and the
// hand-back of finished tasks.

#ifndef ZAR_CORE_THREAD_POOL_WORKER_POOL_H_
#define ZAR_CORE_THREAD_POOL_WORKER_POOL_H_

#include <cstdint>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::thread_pool {

zend_async_thread_pool_t* NewWorkerPool(int32_t worker_count,
                                        int32_t queue_size,
                                        const zend_fcall_t* bootloader,
                                        bool coroutine_mode,
                                        int32_t concurrency);

// Request end: called by ShutdownReactorForRequest() (core/reactor/
// reactor.h), before the loop closes.
void ShutdownWorkerPools();

// Pool ids (WorkerPool#<id> in traces) start again at 1 (each request).
void ResetWorkerPoolIds();

// Registers Async\ThreadPoolException extends \Exception and
// Async\ThreadChannelException extends Async\AsyncException
// (`async_exception`), as upstream's stubs declare them (MINIT); false if
// either could not be.
bool RegisterThreadPoolExceptionClasses(zend_class_entry* async_exception);

}  // namespace zar::core::thread_pool

#endif  // ZAR_CORE_THREAD_POOL_WORKER_POOL_H_
