// zend-async-ref core: exec events (zend_async_exec_event_t) and exec(), a
// shell command run through uv_spawn with its output captured.
//
// new_exec_event spawns `/bin/sh -c <cmd>` at once: stdin ignored, stdout
// read through a pipe, stderr read through a second pipe when `std_error`
// is given (else inherited). `cwd` (when non-empty) is the child's working
// directory; `env` (when not NULL) is really a `char **` NULL-terminated
// "NAME=value" array, as upstream casts it, and replaces the environment.
// Standard output goes, by exec_mode, as it arrives:
//
//   EXEC         result_buffer = the last complete line, trailing
//                whitespace stripped (isspace, as PHP's exec)
//   SYSTEM       written with PHPWRITE, and as EXEC
//   EXEC_ARRAY   each complete line (stripped) appended to the result_buffer
//                array
//   PASSTHRU     written with PHPWRITE, nothing kept
//   SHELL_EXEC   appended to the result_buffer string (set to one first)
//
// Standard error is appended to the `std_error` string. An unterminated
// last line stays pending in the event; exec() (below) finishes it.
//
// The event completes once the child exited AND both pipes reached end of
// file (so that no output is lost); it then sets terminated, exit_code (the
// exit status) and term_signal (the signal that ended it, or 0), closes and
// notifies with result NULL. From spawn to completion the running command
// counts as one active event (ZEND_ASYNC_ACTIVE_EVENT_COUNT), besides the
// references start() takes, as upstream.
//
// stop() dropping the last reference while the child runs sends it SIGTERM
// (a waiter that gives up ends the command); dispose sends SIGTERM too and
// closes the pipes. A child disposed while running is not waited for.
//
// Failures: a spawn libuv refuses raises E_WARNING "Failed to spawn
// process: <libuv message>" and returns NULL (no exception, as upstream); a
// pipe read error other than EOF raises E_WARNING "Process pipe read error:
// <libuv message>" and ends that pipe.
//
// Threading: the request's thread. Ownership: the caller owns the event
// (ref_count 1) and the zvals it passed, which must outlive the event; the
// event keeps its own copy of `cmd`.

#ifndef ZAR_CORE_REACTOR_EXEC_EVENT_H_
#define ZAR_CORE_REACTOR_EXEC_EVENT_H_

#include <cstddef>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::reactor {

// new_exec_event (see above). Returns nullptr with E_WARNING when the spawn
// fails, or with Async\AsyncException thrown if the loop cannot be
// initialised.
zend_async_exec_event_t* NewExecEvent(zend_async_exec_mode exec_mode,
                                      const char* cmd, zval* return_buffer,
                                      zval* return_value, zval* std_error,
                                      const char* cwd, const char* env,
                                      size_t extra_size);

// exec: runs the command in the current coroutine and waits for it.
// return_value (when given) starts as false; after the command it is, for
// EXEC and SYSTEM, the last line of output ("" when none), for EXEC_ARRAY
// the last line appended to return_buffer. SHELL_EXEC leaves the output in
// return_buffer (NULL when the command printed nothing). Returns the exit
// status, or -1: outside a coroutine (Error "Cannot call async_exec()
// outside of an async context"), when the spawn fails, or when the wait
// ends with an exception (cancellation; `timeout` ms > 0 passed first:
// Async\TimeoutException "Operation has been cancelled by timeout"), in
// which case the child is sent SIGTERM.
int Exec(zend_async_exec_mode exec_mode, const char* cmd, zval* return_buffer,
         zval* return_value, zval* std_error, const char* cwd, const char* env,
         zend_ulong timeout);

}  // namespace zar::core::reactor

#endif  // ZAR_CORE_REACTOR_EXEC_EVENT_H_
