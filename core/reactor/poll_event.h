// zend-async-ref core: poll and socket events (zend_async_poll_event_t over
// uv_poll_t), and the hooks poll proxies use to share one.
//
// A poll event watches one descriptor for the readiness in its `events`
// mask (ASYNC_READABLE / WRITABLE / DISCONNECT / PRIORITIZED, which map to
// UV_READABLE / UV_WRITABLE / UV_DISCONNECT / UV_PRIORITIZED). On readiness
// it sets `triggered_events` to the readiness libuv reported and notifies
// with result = a pointer to that mask (async_poll_event*, valid during the
// call). A libuv error notifies with an exception of class
// ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT "Input output error: <libuv message>"
// (result mask 0); UV_EBADF (the peer went away under the loop) is reported
// as readiness ASYNC_DISCONNECT instead. A poll event never closes itself.
//
// Sharing with proxies (poll_proxy_event.h): every started proxy is
// attached to its poll and holds one loop reference on it. While proxies are
// attached the poll watches the union of their interests, plus its own
// interest if it was also started directly, and `events` shows that union;
// when the last proxy detaches, `events` is restored to the poll's own
// interest. On readiness the poll notifies its own callbacks (only when it
// was started directly and the readiness meets its own interest), then each
// attached proxy whose interest meets it, in attach order.
//
// Threading: the request's thread. Ownership: New* returns the only
// reference (ref_count 1); each proxy holds one more.

#ifndef ZAR_CORE_REACTOR_POLL_EVENT_H_
#define ZAR_CORE_REACTOR_POLL_EVENT_H_

#include <cstddef>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::reactor {

// new_poll_event. Watches `socket` when it is neither 0 nor ZEND_FD_NULL
// (as upstream, 0 means "no socket"), else `fh`. Returns nullptr with
// Async\AsyncException "Failed to initialize poll handle: <libuv message>" when
// libuv refuses the descriptor (neither given: "bad file descriptor"; a regular
// file: "operation not permitted"), or when the loop cannot be initialised.
zend_async_poll_event_t* NewPollEvent(zend_file_descriptor_t fh,
                                      zend_socket_t socket,
                                      async_poll_event events,
                                      size_t extra_size);

// new_socket_event: NewPollEvent(ZEND_FD_NULL, socket, events, extra_size).
zend_async_poll_event_t* NewSocketEvent(zend_socket_t socket,
                                        async_poll_event events,
                                        size_t extra_size);

// A proxy's membership in its poll's list of attached proxies. Owned by
// the proxy (embedded in it).
struct PollProxyLink {
  zend_async_poll_proxy_t* proxy;  // proxy->poll_event is the shared poll
  PollProxyLink* prev;
  PollProxyLink* next;
  bool attached;
  // This proxy holds one of the poll's loop references (false again once
  // the poll was stopped completely, e.g. closed).
  bool holds_poll_ref;
};

// Attaches the proxy and starts the shared poll (one loop reference), which
// now also watches the proxy's interest. Returns 0, or a negative libuv
// error / UV_ECANCELED (the poll is CLOSED or disposed) with nothing
// changed.
int AttachPollProxy(PollProxyLink* link);

// Detaches the proxy, drops its loop reference on the poll and narrows (or
// restores) what the poll watches. No-op when not attached.
void DetachPollProxy(PollProxyLink* link);

}  // namespace zar::core::reactor

#endif  // ZAR_CORE_REACTOR_POLL_EVENT_H_
