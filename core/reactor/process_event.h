// zend-async-ref core: process events (zend_async_process_event_t), a
// child process's exit observed through SIGCHLD.
//
// One event per process id: new_process_event for a pid that already has a
// live, unstopped event returns that event with another reference (the
// exit status can be collected only once, however many wait for it).
//
//   start()   watches SIGCHLD (a uv_signal_t per event), then collects the
//             child at once (waitpid WNOHANG): a child that already exited
//             closes the event and notifies it from start() itself; a
//             child reaped by someone else (ECHILD) counts as exited with
//             exit_code -1. Any other waitpid failure notifies
//             Async\AsyncException "Failed to monitor process <pid>:
//             <strerror>" and start() returns false if a callback left an
//             exception pending. A pid <= 0 is such a failure (EINVAL):
//             waitpid would reap some other child.
//   SIGCHLD   each started event collects its own child (waitpid WNOHANG);
//             the exit notifies with result NULL, exit_code = the exit
//             status, or -<signal> for a child a signal ended. The event
//             stays started until its consumer stops it.
//   stop()    closes the event (as upstream: a stopped process event is not
//             started again) and takes it out of the pid table, so that a
//             later new_process_event for the pid makes a new event.
//
// Threading: the request's thread. Ownership: the returned reference
// belongs to the caller; the child process is the caller's (it is reaped
// by the event, never killed).

#ifndef ZAR_CORE_REACTOR_PROCESS_EVENT_H_
#define ZAR_CORE_REACTOR_PROCESS_EVENT_H_

#include <cstddef>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::reactor {

// new_process_event. Returns nullptr (Async\AsyncException thrown) if the
// loop or the SIGCHLD handle cannot be initialised ("Failed to initialize
// signal handle: ..."). A start that cannot watch SIGCHLD throws
// Async\AsyncException "Failed to start signal handle: ..." (upstream's
// process start is its SIGCHLD handler's start).
zend_async_process_event_t* NewProcessEvent(zend_process_t process_handle,
                                            size_t extra_size);

}  // namespace zar::core::reactor

#endif  // ZAR_CORE_REACTOR_PROCESS_EVENT_H_
