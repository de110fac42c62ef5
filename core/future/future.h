// zend-async-ref core/future: futures, the ABI's zend_future_t. This header
// is the subsystem's map; docs/futures.md is its full description.
//
// Files (all in core/future/, the OBJECT library zar_core_future); after "="
// the upstream concepts each holds (php-async's future.c):
//
//   future.{h,cc}   the zend_future_t event = init_zend_future and the
//                   zend_future_* event handlers, async_new_future
//   object.{h,cc}   Async\FutureState and Async\Future objects and methods
//                   = the FUTURE_STATE_METHOD / FUTURE_METHOD bodies,
//                   async_new_future_obj
//   mapper.{h,cc}   map()/catch()/finally() and the chain run that settles
//                   derived futures = async_future_create_mapper,
//                   process_future_mapper, the future iterator
//   classes.{h,cc}  the two classes = async_register_future_ce
//   trace.{h,cc}    the "future ..." trace lines (ours: docs/tracing.md)
//
// A future is an event completed once, with a result (ZEND_FUTURE_COMPLETE)
// or an exception (ZEND_FUTURE_REJECT); both go through its resolve method
// and later calls are ignored. stop() does nothing and start() succeeds.
//
//   resolve(event, iterator)
//       marks the event CLOSED, records where it was completed
//       (completed_filename/lineno), notifies the event's callbacks with
//       (&result, exception), then the resolve_callbacks vector (the
//       map/catch/finally subscriptions, mapper.h) with `iterator` as the
//       result pointer, and frees that vector. A waiter that received the
//       exception (EXCEPTION_HANDLED) marks it caught (EXC_CAUGHT).
//   add_callback on a completed future calls the callback at once with the
//       outcome instead of registering it; false when that call threw.
//   replay(callback | result, exception)
//       false while pending; otherwise the outcome, as upstream: to the
//       callback, or the result copied to `result` and the exception given
//       to `*exception` (one reference) or, when `exception` is NULL,
//       thrown.
//   info    "FutureState(pending)" or "FutureState(completed)".
//   dispose (the last reference)
//       E_CORE_WARNING "Future was never used; call await(), map(),
//       catch(), finally() or ignore() to suppress this warning[. Created
//       at F:L]" unless the future is IGNORED or USED, and "Unhandled
//       exception in Future: <message>; use catch() or ignore() to
//       handle[. Created at F:L[, completed at F:L]]" when it was rejected
//       and the exception was neither caught nor ignored; then frees the
//       result, the exception, the locations and both callback vectors.
//
// The result is a zval (ZVAL_RESULT): waiters receive &future->result.
// Each future carries a per-request id, before the ABI struct, for its
// trace name "Future#<id>"; the ABI struct and the caller's extra bytes
// are laid out as upstream's (extra_size bytes right after the struct).
// `thread_safe` is accepted and ignored, as upstream ignores it (a future
// does not cross threads in this implementation). extra_size bytes after
// the struct are zeroed and the caller's.
//
// Lifetime: created with ref_count 1, the caller's reference; every
// registered callback holds one more (the event base's rule).
// Threading: the request's thread.

#ifndef ZAR_CORE_FUTURE_FUTURE_H_
#define ZAR_CORE_FUTURE_FUTURE_H_

#include <cstddef>

extern "C" {
#include "Zend/zend_async_API.h"
#include "zend_async_ref/trace.h"
}

namespace zar::core {

// new_future_fn (ZEND_ASYNC_NEW_FUTURE): a pending future created where the
// engine is executing now.
zend_future_t* NewFuture(bool thread_safe, size_t extra_size);

// "Future#<id>" for a future NewFuture made.
const char* FutureToken(const zend_future_t* future,
                        char buf[ZEND_ASYNC_REF_NAME_SIZE]);

// Future ids start again at 1 (RINIT).
void ResetFutureIds();

}  // namespace zar::core

#endif  // ZAR_CORE_FUTURE_FUTURE_H_
