// zend-async-ref core: the fork hooks (ABI v0.24, zend_async_fork_register),
// which php-src's pcntl_fork() calls around fork(2) through
// ZEND_ASYNC_BEFORE_FORK() and ZEND_ASYNC_AFTER_FORK_CHILD() (php-async
// async.c async_before_fork, libuv_reactor.c libuv_after_fork_child).
//
//   before fork, in the parent  With async active, a coroutine other than
//                               main (and the scheduler's) alive refuses the
//                               fork: Error "Cannot fork() while coroutines
//                               other than the main one are running. fork()
//                               is only allowed when just the main coroutine
//                               is active." (upstream's text), false. A
//                               parked coroutine's reactor state cannot
//                               survive in the child. The reference also
//                               refuses while a thread the reactor started
//                               is running (a worker pool's, a thread
//                               event's): the child would wait forever for a
//                               thread that does not exist there.
//   after fork, in the child    The child gets a loop of its own
//                               (uv_loop_fork), so its reactor no longer
//                               shares the parent's epoll instance.
//
// With async off (no request, or never initialised) forking is not
// restricted.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_FORK_H_
#define ZAR_CORE_FORK_H_

namespace zar::core {

// The reference's refusal while reactor threads run (before fork).
inline constexpr char kForkWithThreadsError[] =
    "Cannot fork() while threads started by the reactor are running. "
    "Close the thread pools and wait for the threads first.";

// Installs both hooks with zend_async_fork_register(). Called from MINIT.
void RegisterForkHooks();

}  // namespace zar::core

#endif  // ZAR_CORE_FORK_H_
