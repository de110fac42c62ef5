// zend-async-ref core: signal events (zend_async_signal_event_t over
// uv_signal_t).
//
// While started, the event takes delivery of `signal` (libuv installs its
// own handler for the signal number; several events may watch the same
// signal, each is notified). Each delivery notifies with result = a pointer
// to the signal number (int*, valid during the call) on the next loop pass
// (the kernel may merge deliveries of one signal that are still pending).
// A signal event never closes itself. When the last libuv watcher of a
// signal stops, libuv restores the default disposition.
//
// Threading: the request's thread (libuv's handler forwards the delivery to
// the loop). Ownership: New* returns the only reference (ref_count 1).

#ifndef ZAR_CORE_REACTOR_SIGNAL_EVENT_H_
#define ZAR_CORE_REACTOR_SIGNAL_EVENT_H_

#include <cstddef>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::reactor {

// new_signal_event. An invalid signal number is reported by start()
// (Async\AsyncException "Failed to start signal handle: invalid argument").
// Returns nullptr (Async\AsyncException thrown) if the loop cannot be
// initialised.
zend_async_signal_event_t* NewSignalEvent(int signum, size_t extra_size);

}  // namespace zar::core::reactor

#endif  // ZAR_CORE_REACTOR_SIGNAL_EVENT_H_
