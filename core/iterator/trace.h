// zend-async-ref core/iterator: the async iterators' trace lines
// (zend_async_ref/trace.h; docs/tracing.md has the full list).
//
//   iterator worker Iterator#1 -> #7 (2/4)      a worker was spawned (slots
//                                               in use / concurrency, "-"
//                                               for no limit)
//   iterator done Iterator#1 (5 call(s))        the iteration ended: the
//   iterator done Iterator#1 (2 call(s)) -> Exception "boom"
//                                               last worker left (or run()
//                                               ended with none), before
//                                               the completion event is
//                                               notified
//
// Callers test ZEND_ASYNC_REF_TRACING() first. Iterator ids count from 1
// in each request, in creation order.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_ITERATOR_TRACE_H_
#define ZAR_CORE_ITERATOR_TRACE_H_

#include <cstdint>

extern "C" {
#include "Zend/zend_async_API.h"
#include "zend_async_ref/trace.h"
}

namespace zar::core {

[[gnu::cold]] void TraceIteratorWorker(uint64_t id,
                                       const zend_coroutine_t* worker,
                                       unsigned int active,
                                       unsigned int concurrency);
[[gnu::cold]] void TraceIteratorDone(uint64_t id, uint64_t calls,
                                     const zend_object* exception);

}  // namespace zar::core

#endif  // ZAR_CORE_ITERATOR_TRACE_H_
