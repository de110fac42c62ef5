// zend-async-ref core: the pool's trace lines (zend_async_ref/trace.h).
//
// One function per event of the pool's algorithm; each formats and emits
// one line. Callers test ZEND_ASYNC_REF_TRACING() first, so that nothing
// here runs (nor is any argument computed) while tracing is off. Lines
// (docs/tracing.md has the full list):
//
//   pool create Pool#1 (min=0 max=1)
//   pool acquire Pool#1 -> idle int(1) (idle=0 active=1 reserved=0 waiters=0)
//   pool acquire Pool#1 -> new int(1) (...)
//   pool acquire Pool#1 -> wait (...)        parked (the waiter is counted)
//   pool acquire Pool#1 -> fail Async\PoolException "Pool is closed" (...)
//   pool try-acquire Pool#1 -> idle int(1) | new int(1) | none (...)
//   pool reserve Pool#1 for #4 (...)         a place kept for the oldest
//                                            unreserved waiter, woken
//   pool wait Pool#1 -> reserved | <exception> (...)   a waiter runs again
//   pool hand-on Pool#1 (...)                an unused reservation passed on
//   pool wake Pool#1 #4 -> <exception>       close wakes a waiter
//   pool release Pool#1 int(1) -> idle | rejected | closed (...)
//   pool reject Pool#1 int(1) by beforeAcquire | beforeRelease | healthcheck
//   pool destroy Pool#1 int(1)
//   pool close Pool#1 (...)
//   pool dispose Pool#1
//
// The statistics in parentheses are taken after the step.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_POOL_TRACE_H_
#define ZAR_CORE_POOL_TRACE_H_

#include "core/pool/pool.h"

extern "C" {
#include "zend_async_ref/trace.h"
}

namespace zar::core {

// "Pool#<id>".
const char* PoolToken(const AsyncPool* pool,
                      char buf[ZEND_ASYNC_REF_NAME_SIZE]);

[[gnu::cold]] void TracePoolCreate(const AsyncPool* pool);
// An acquire (or, with `try_acquire`, a tryAcquire) took an idle resource
// or, with `fresh`, a new one.
[[gnu::cold]] void TracePoolAcquired(const AsyncPool* pool, bool try_acquire,
                                     bool fresh, const zval* resource);
// An acquire gives up with EG(exception).
[[gnu::cold]] void TracePoolAcquireFailed(const AsyncPool* pool);
[[gnu::cold]] void TracePoolTryAcquireNone(const AsyncPool* pool);
[[gnu::cold]] void TracePoolWait(const AsyncPool* pool);
// The waiting acquire runs again: with its reservation, or EG(exception).
[[gnu::cold]] void TracePoolWaitEnded(const AsyncPool* pool, bool reserved);
[[gnu::cold]] void TracePoolReserve(const AsyncPool* pool,
                                    const internal::Waiter* waiter);
[[gnu::cold]] void TracePoolWake(const AsyncPool* pool,
                                 const internal::Waiter* waiter,
                                 zend_object* error);
[[gnu::cold]] void TracePoolHandOn(const AsyncPool* pool);
// `outcome`: "idle", "rejected" or "closed".
[[gnu::cold]] void TracePoolRelease(const AsyncPool* pool, const zval* resource,
                                    const char* outcome);
// `hook`: "beforeAcquire", "beforeRelease" or "healthcheck".
[[gnu::cold]] void TracePoolReject(const AsyncPool* pool, const zval* resource,
                                   const char* hook);
[[gnu::cold]] void TracePoolDestroy(const AsyncPool* pool,
                                    const zval* resource);
[[gnu::cold]] void TracePoolClose(const AsyncPool* pool);
[[gnu::cold]] void TracePoolDispose(const AsyncPool* pool);

}  // namespace zar::core

#endif  // ZAR_CORE_POOL_TRACE_H_
