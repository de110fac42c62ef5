// zend-async-ref core: the channel's trace lines (zend_async_ref/trace.h).
//
// One function per event of the channel's algorithm; each formats and
// emits one line. Callers test ZEND_ASYNC_REF_TRACING() first, so that
// nothing here runs (nor is any argument computed) while tracing is off.
// Lines (docs/tracing.md has the full list):
//
//   channel create Channel#1 (capacity=0)
//   channel send Channel#1 int(1) -> buffered | handed | wait (...)
//   channel send Channel#1 -> fail <exception> (...)
//   channel recv Channel#1 -> int(1) | wait | fail <exception> (...)
//   channel reserve Channel#1 value for #4 | slot for #4 (...)
//   channel delivered Channel#1 to #3 (...)  a rendezvous sender hears
//                                            its value was taken
//   channel hand-on Channel#1 (...)          an unused reservation passed on
//   channel wake Channel#1 #4 -> <exception> close wakes a waiter
//   channel close Channel#1 explicit | disposed | no producers timeout |
//                 no consumers timeout (...)   the reason's enum value
//   channel dispose Channel#1
//
// The statistics in parentheses, taken after the step:
// (count=1 receivers=0 senders=2 reserved=0/1).
//
// Threading: the request's thread.

#ifndef ZAR_CORE_CHANNEL_TRACE_H_
#define ZAR_CORE_CHANNEL_TRACE_H_

#include "core/channel/channel.h"

extern "C" {
#include "zend_async_ref/trace.h"
}

namespace zar::core {

[[gnu::cold]] void TraceChannelCreate(const AsyncChannel* channel);
// `outcome`: "buffered" (kept in the buffer), "handed" (a receiver was
// woken for it) or "wait" (the sender parks).
[[gnu::cold]] void TraceChannelSend(const AsyncChannel* channel,
                                    const zval* value, const char* outcome);
// A send or receive gives up with EG(exception).
[[gnu::cold]] void TraceChannelFail(const AsyncChannel* channel,
                                    const char* operation);
// A receive took `value`, or (NULL) parks.
[[gnu::cold]] void TraceChannelReceive(const AsyncChannel* channel,
                                       const zval* value);
// `what`: "value" or "slot".
[[gnu::cold]] void TraceChannelReserve(const AsyncChannel* channel,
                                       const internal::Waiter* waiter,
                                       const char* what);
[[gnu::cold]] void TraceChannelDelivered(const AsyncChannel* channel,
                                         const internal::Waiter* waiter);
[[gnu::cold]] void TraceChannelHandOn(const AsyncChannel* channel);
[[gnu::cold]] void TraceChannelWake(const AsyncChannel* channel,
                                    const internal::Waiter* waiter,
                                    zend_object* error);
[[gnu::cold]] void TraceChannelClose(const AsyncChannel* channel);
[[gnu::cold]] void TraceChannelDispose(const AsyncChannel* channel);

}  // namespace zar::core

#endif  // ZAR_CORE_CHANNEL_TRACE_H_
