// zend-async-ref core: the thread pool group, seen from the rest of core/.
//
// core/thread_pool/ holds the ABI's zend_async_thread_pool_register group
// (php-async's libuv_reactor.c "Thread Pool API", thread_pool.c and the
// thread.c):
//   thread_pool.{h,cc}    the group's 11 entries and their registration,
//                         from the extension's MINIT
//   task.{h,cc}           tasks (zend_async_task_t): a C function run on one
//                         of libuv's worker threads, completed as an event
//                         on the request's thread
//   zval_transfer.{h,cc}  the deep copy of zvals between threads
//   thread.{h,cc}         a thread's lifecycle: the scheduler group's
//                         thread_snapshot_*, thread_run, thread_load_result
//   remote_exception.{h,cc} Async\RemoteException
//   worker_pool.{h,cc}    worker pools (new_thread_pool) for C tasks,
//                         Async\ThreadPoolException
// (start_thread and thread events are the reactor's: core/reactor/
// thread_event.h.)
//
// Threading: the entries run on the request's thread; a task's run function
// runs on a worker thread (see task.h).

#ifndef ZAR_CORE_THREAD_POOL_THREAD_POOL_H_
#define ZAR_CORE_THREAD_POOL_THREAD_POOL_H_

namespace zar::core {

// Registers zend_async_thread_pool_register's 11 functions under the
// reactor's module name (as php-async registers it with its reactor).
void RegisterThreadPool();

}  // namespace zar::core

#endif  // ZAR_CORE_THREAD_POOL_THREAD_POOL_H_
