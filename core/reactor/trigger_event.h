// zend-async-ref core: trigger events (zend_async_trigger_event_t over
// uv_async_t).
//
// event->trigger(event) wakes the loop (from any thread) and the event
// notifies, with no result and no exception, on the next loop pass; several
// triggers before that pass give one notification (uv_async_send coalesces).
// A trigger notifies whether or not the event is started: starting it only
// makes it keep the loop alive (and count in ZEND_ASYNC_ACTIVE_EVENT_COUNT),
// so that a blocking execute() waits for the trigger. A CLOSED trigger event
// no longer notifies. It never closes itself.
//
// Threading: trigger() is safe from any thread while the event is alive
// (not yet disposed): it only calls uv_async_send and reads nothing else;
// the caller must make sure the event outlives every such call.
// Everything else runs on the request's thread. Ownership: New* returns the
// only reference (ref_count 1).

#ifndef ZAR_CORE_REACTOR_TRIGGER_EVENT_H_
#define ZAR_CORE_REACTOR_TRIGGER_EVENT_H_

#include <cstddef>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::reactor {

// new_trigger_event. Returns nullptr (Async\AsyncException thrown) if the
// loop cannot be initialised.
zend_async_trigger_event_t* NewTriggerEvent(size_t extra_size);

}  // namespace zar::core::reactor

#endif  // ZAR_CORE_REACTOR_TRIGGER_EVENT_H_
