// zend-async-ref core: the pool's strict-mode checks (zend_async_ref/
// strict.h).
//
// A pool created while strict mode is on gets a ledger of what it has lent:
// a multiset of resources keyed by the zval's type and value (the integer,
// the double's bits, or the pointer of a refcounted value or an IS_PTR).
// Acquire and tryAcquire add to it; release takes one out. A release the
// ledger cannot match is refused (nothing is touched: the caller's zval is
// borrowed, the counters and the idle list stay as they were) and reported:
//
//   ... released twice            lent and given back already (or idle now)
//   ... was lent by Pool#2 ...    another strict pool lent it
//   ... was never lent by this pool
//
// The ledger also remembers what came back, to tell "twice" from "never".
// A key is the value's identity, so a new object at the address of a freed
// one that was returned is reported as released twice. Pools created while
// strict mode was off have no ledger and are never checked (their lends
// are unknown); a pool with a ledger keeps it for life and reports only
// while strict mode is on.
//
// Cost: without a ledger, one test of AsyncPool::ledger on acquire and on
// release. With one: a hash-table update per acquire and per release.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_POOL_STRICT_H_
#define ZAR_CORE_POOL_STRICT_H_

#include <string>

#include "core/pool/pool.h"

namespace zar::core {

// The ledger of a pool created in strict mode (strict.cc).
struct PoolLedger;

// "Pool#1 Pool(idle=1, active=0, reserved=0, max=2)": the token and info().
std::string PoolName(AsyncPool* pool);

// Gives `pool` a ledger when strict mode is on (AllocatePool).
void CreatePoolLedger(AsyncPool* pool);
// Frees the ledger (dispose). No-op without one.
void DestroyPoolLedger(AsyncPool* pool);

// `resource` was lent. REQUIRES: pool->ledger.
[[gnu::cold]] void LedgerLend(AsyncPool* pool, const zval* resource);
// Whether the release of `resource` may proceed (and, if so, takes it out
// of the ledger). False: refused and reported, naming `call`.
// REQUIRES: pool->ledger.
[[gnu::cold]] bool LedgerAcceptRelease(AsyncPool* pool, const zval* resource,
                                       const char* call);

// Strict mode: an acquire outside a coroutine cannot go on. Reports
// "<pool>: <problem>: <reason>", naming `call`; `problem`: "cannot wait
// outside a coroutine" (the C API, which needs a coroutine only to wait) or
// "cannot acquire outside a coroutine" (Async\Pool::acquire, which always
// launches the scheduler); `reason`: why the scheduler cannot run it.
[[gnu::cold]] void ReportOutsideCoroutine(AsyncPool* pool, const char* call,
                                          const char* problem,
                                          const char* reason);
// ReportOutsideCoroutine with the reason "the scheduler cannot be launched
// (<EG(exception) described>)": the launch that would have given the call a
// coroutine failed. REQUIRES: EG(exception) != NULL.
[[gnu::cold]] void ReportLaunchFailure(AsyncPool* pool, const char* call,
                                       const char* problem);

// Whether `call` must refuse `pool`: NULL (reported in strict mode), or, in
// strict mode, a pool whose event was disposed and sits in the quarantine
// (zend_async_ref/strict.h), reported as "<name>: used after it was
// disposed" without touching its freed part. Callers test
// `pool == NULL || ZEND_ASYNC_REF_STRICT()` first.
[[gnu::cold]] bool RefuseUnusablePool(const zend_async_pool_t* pool,
                                      const char* call);

// A C factory returned true but left its result IS_UNDEF (CallFactory
// takes that as a failed creation). Strict mode: reported as
// "zend_async_pool_factory_fn: <pool>: returned true but left the resource
// undefined; taken as a failed creation". No-op otherwise.
[[gnu::cold]] void ReportUndefinedFactoryResult(AsyncPool* pool);

// `call` (an acquire or tryAcquire) got `resource` after the pool's last
// owner let go of it (AsyncPool::NoOwnerLeft): the resource is destroyed
// and the call fails. Strict mode: reported, naming `call`, the pool and
// the resource, as the owner's lifetime mistake (it disposed of a pool
// still in use). No-op otherwise.
[[gnu::cold]] void ReportOwnerGoneDuringCall(AsyncPool* pool, const char* call,
                                             const zval* resource);

// Request end: reports every open pool with a ledger that still has
// waiters or callbacks registered on its event.
void ReportOpenPoolsAtRequestEnd();

// Frees the ledgers of pools that were never disposed (their memory went
// with their request): request startup and module shutdown.
void ForgetPoolLedgers();

}  // namespace zar::core

#endif  // ZAR_CORE_POOL_STRICT_H_
