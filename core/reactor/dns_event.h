// zend-async-ref core: DNS lookups (zend_async_dns_addrinfo_t over
// uv_getaddrinfo, zend_async_dns_nameinfo_t over uv_getnameinfo), the
// reactor's getaddrinfo, getnameinfo and freeaddrinfo entries.
//
// A lookup is submitted when its event is created and runs in libuv's
// thread pool; starting the event only makes it keep the loop alive (and
// count in ZEND_ASYNC_ACTIVE_EVENT_COUNT), so that a blocking execute()
// waits for the answer. On completion the event is closed (a one-shot
// event) and its callbacks are notified once, with result NULL:
//   success  addrinfo: event->result is the list (struct addrinfo*);
//            nameinfo: event->hostname / ->service are zend_strings;
//   failure  exception Async\DnsException "DNS error: <libuv message>"
//            (ZEND_ASYNC_EXCEPTION_DNS), result fields NULL.
// Creating a lookup libuv refuses (node and service both NULL, an address
// family it cannot name, ...) throws Async\DnsException "Failed to
// initialize getaddrinfo handle: <libuv message>" (getnameinfo likewise)
// and returns NULL.
//
// Ownership. New* returns the only reference (ref_count 1). The addrinfo
// list belongs to the event while event->result points to it: a consumer
// takes it by copying the pointer and setting event->result to NULL, and
// then frees it with ZEND_ASYNC_FREEADDRINFO; a list nobody took is freed
// with the event. hostname and service are freed with the event (a
// consumer that keeps one adds a reference). node and service of an
// addrinfo event are the event's own copies of the arguments (upstream
// leaves them NULL). Disposing a lookup still running cancels it; its
// memory goes when libuv reports the cancellation, and nothing is notified.
//
// Threading: the request's thread; only libuv's resolver runs elsewhere.

#ifndef ZAR_CORE_REACTOR_DNS_EVENT_H_
#define ZAR_CORE_REACTOR_DNS_EVENT_H_

#include <cstddef>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::reactor {

// getaddrinfo: `hints` may be NULL; node and service are copied.
zend_async_dns_addrinfo_t* GetAddrInfo(const char* node, const char* service,
                                       const struct addrinfo* hints,
                                       size_t extra_size);

// getnameinfo: `addr` is read during the call only (flags: NI_*).
zend_async_dns_nameinfo_t* GetNameInfo(const struct sockaddr* addr, int flags,
                                       size_t extra_size);

// freeaddrinfo: frees a list a consumer took from an addrinfo event; NULL is
// accepted. Always returns true.
bool FreeAddrInfo(struct addrinfo* ai);

}  // namespace zar::core::reactor

#endif  // ZAR_CORE_REACTOR_DNS_EVENT_H_
