// zend-async-ref core: the libuv reactor, seen from the rest of core/.
//
// core/reactor/ is the ABI's reactor group (zend_async_reactor_register),
// php-async's libuv_reactor.c:
//   reactor.{h,cc}            registration (the 22 entries), lifecycle hooks
//   reactor_loop.{h,cc}       the request's uv_loop_t (ASYNC_G(uvloop)),
//                             startup, execute, shutdown
//   reactor_event.{h,cc}      what every event shares: one emalloc'd block,
//                             start/stop bookkeeping, closing the handle
//   timer_event, poll_event, poll_proxy_event, signal_event, trigger_event,
//   dns_event, process_event, one file per event type of the ABI (DNS:
//   exec_event                getaddrinfo and getnameinfo lookups; a child
//                             process's exit; a shell command with its
//                             output, and exec())
//   filesystem_event          filesystem watches (uv_fs_event_t)
//   thread_event              thread events and start_thread's lightweight
//                             threads (OS threads running thread_run_fn)
//   thread_registry           the threads the reactor started, and
//                             reactor_quiesce
//
//
// Everything else reaches the reactor only through the ABI
// (ZEND_ASYNC_REACTOR_*, ZEND_ASYNC_NEW_*_EVENT); these three functions are
// the extension's lifecycle hooks into it.
//
// Threading: all functions run on the request's thread.

#ifndef ZAR_CORE_REACTOR_REACTOR_H_
#define ZAR_CORE_REACTOR_REACTOR_H_

namespace zar::core {

// The module name the reactor registers under (one pointer, as identity).
extern char kReactorModuleName[];

// Registers the reactor through zend_async_reactor_register(). Called from
// the extension's MINIT. Returns the register function's result.
bool RegisterReactor();

// Initialises the request's loop (ASYNC_G(uvloop)), so that it is live for
// the whole request, as upstream's C test harness expects: it may
// uv_run(&ASYNC_G(uvloop), UV_RUN_NOWAIT) before anything used the reactor.
// False, with an exception, when libuv fails. Called from the extension's
// RINIT.
bool StartReactorForRequest();

// Lets go of the request's worker pools (they are closed; their futures
// released: core/thread_pool/worker_pool.h), then closes every handle of the
// request's loop and runs the loop until every close has completed, so that
// no event memory outlives the request. Safe to call when the loop was never
// started, and more than once. Called from the extension's RSHUTDOWN.
void ShutdownReactorForRequest();

}  // namespace zar::core

#endif  // ZAR_CORE_REACTOR_REACTOR_H_
