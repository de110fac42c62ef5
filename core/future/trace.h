// zend-async-ref core/future: the futures' trace lines
// (zend_async_ref/trace.h; docs/tracing.md has the full list).
//
//   future complete Future#2 -> int(7)             resolve, before the
//   future reject Future#2 -> Exception "boom"      callbacks run
//   future chain Future#2 -> #7                    the coroutine that
//                                                  settles its derived
//                                                  futures was spawned
//
// Callers test ZEND_ASYNC_REF_TRACING() first. Future ids count from 1 in
// each request, in creation order.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_FUTURE_TRACE_H_
#define ZAR_CORE_FUTURE_TRACE_H_

extern "C" {
#include "Zend/zend_async_API.h"
#include "zend_async_ref/trace.h"
}

namespace zar::core {

[[gnu::cold]] void TraceFutureResolve(const zend_future_t* future);
[[gnu::cold]] void TraceFutureChain(const zend_future_t* future,
                                    const zend_coroutine_t* run);

}  // namespace zar::core

#endif  // ZAR_CORE_FUTURE_TRACE_H_
