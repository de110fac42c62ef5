// zend-async-ref core: poll proxies (zend_async_poll_proxy_t), narrower views
// of one shared poll event.
//
// A proxy has its own interest (`events`), callbacks and loop references,
// and no libuv handle. Its first start attaches it to the shared poll,
// which then holds one more loop reference and also watches the proxy's
// interest; its last stop detaches it again (see poll_event.h for how the
// poll's mask is widened and restored). When the poll sees readiness that
// meets the proxy's interest, the proxy's `triggered_events` is set to that
// subset and it notifies with result = a pointer to the subset
// (async_poll_event*); a poll error is forwarded as the exception.
//
// Threading: the request's thread. Ownership: New* returns the only
// reference (ref_count 1) and takes one reference on the shared poll,
// released when the proxy is disposed.

#ifndef ZAR_CORE_REACTOR_POLL_PROXY_EVENT_H_
#define ZAR_CORE_REACTOR_POLL_PROXY_EVENT_H_

#include <cstddef>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::reactor {

// new_poll_proxy_event. REQUIRES: `poll_event` was made by this reactor
// (NewPollEvent / NewSocketEvent). Returns nullptr (Async\AsyncException
// thrown) if the loop cannot be initialised. A start that cannot widen the
// shared poll's mask throws Async\AsyncException "Failed to update poll
// handle events: <libuv message>" (as upstream).
zend_async_poll_proxy_t* NewPollProxyEvent(zend_async_poll_event_t* poll_event,
                                           async_poll_event events,
                                           size_t extra_size);

}  // namespace zar::core::reactor

#endif  // ZAR_CORE_REACTOR_POLL_PROXY_EVENT_H_
