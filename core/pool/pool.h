// zend-async-ref core/pool: the resource pool (Async\Pool), the ABI's
// zend_async_pool_t, registered through zend_async_pool_api_register. This
// header is the subsystem's map; docs/pool.md is its full description.
//
// Files (all in core/pool/, the OBJECT library zar_core_pool that zar_core
// carries); after "=" the upstream concepts each holds (php-async's pool.c
// and pool.h):
//
//   pool.h           AsyncPool = async_pool_t
//   pool.cc          the algorithm, in the reading order of pool.c:
//     create           NewPool, AllocatePool, StartPool
//                      = zend_async_pool_create(_internal), the pre-warm
//     acquire          PoolAcquire, PoolTryAcquire
//                      = zend_async_pool_acquire, _try_acquire
//     wait             WaitForResource, WakeWaiter, WakeAllWaiters
//                      = pool_wait_for_resource, pool_wake_waiter,
//                        pool_wake_all_with_exception
//     release          PoolRelease = zend_async_pool_release
//     close            PoolClose = zend_async_pool_close
//     healthcheck      the HIDDEN timer, Tick
//                      = pool_start_healthcheck_timer and its callback
//     the pool event   its vtable, Dispose
//                      = pool_event_init, pool_dispose,
//                        zend_async_pool_destroy
//   waiter_queue.h   WaiterQueue, Waiter
//                    = pool_queue_*, the waiters' callbacks vector
//   handlers.{h,cc}  CallFactory, DestroyResource, CallBeforeAcquire, ...
//                    = pool_create_resource, pool_destroy_resource,
//                      pool_call_before_acquire, ...
//   circuit_breaker.{h,cc}
//                    ReportSuccess, ReportFailure, the userland strategy
//                    = pool_strategy_report_*, the CircuitBreaker interface
//   object.{h,cc}    the Async\Pool object = its handlers and methods
//   classes.{h,cc}   the pool's PHP classes = async_register_pool_ce
//   registration.{h,cc}
//                    RegisterPool = the pool's part of MINIT
//   strict.{h,cc}    strict mode's ledger (ours: docs/strict_mode.md)
//   trace.{h,cc}     the "pool ..." trace lines (ours: docs/tracing.md)
//
// The idle resources are core/internal/ring_buffer.h (php-async's
// circular_buffer). Shared with the channel: the waiters' glue
// (core/internal/owner_event.h: the waiter's set-up, the park, the event's
// vtable), the healthcheck's timer (core/internal/embedded_timer.h), the
// wrapper object (core/internal/php_object.h).
//
// A pool lends out opaque resources (zvals) made by a factory, up to
// max_size at a time, keeping returned ones idle for reuse:
//
//   PoolAcquire     an idle resource (oldest first), or a new one, or wait
//   PoolTryAcquire  the same without waiting and without throwing
//   PoolRelease     give a resource back (or destroy it if it is rejected)
//   PoolClose       wake every waiter with an error, destroy idle resources
//
// Places and reservations. A "place" is an idle resource or the capacity to
// create one: there are max_size - active_count of them. When a resource is
// released (or capacity freed) while coroutines wait, the oldest waiter
// without a reservation is woken *with a reservation*: one place is kept
// for it (reserved_count) until it runs. Everyone else (the releasing
// coroutine acquiring again, tryAcquire, a newcomer) may only take the
// surplus, max_size - active_count - reserved_count. Waiters are therefore
// served strictly in arrival order and a releaser cannot barge ahead of a
// parked waiter. A woken waiter that leaves without using its place (it was
// cancelled, timed out, or met an open circuit breaker) hands it to the
// next waiter.
//
// Counting: count() = idle + active_count. active_count includes resources
// being made (factory) or checked (beforeAcquire, beforeRelease,
// healthcheck), so a resource inside a hook that suspends still counts
// against max_size.
//
// Circuit breaker: circuit_state INACTIVE makes acquire throw
// ServiceUnavailableException and tryAcquire fail; RECOVERING behaves as
// ACTIVE. Only activate()/deactivate()/recover() (or a C user writing
// circuit_state) change it; the strategy is told about successful and
// rejected releases.
//
// Ownership of resources: an idle resource holds one reference (owned by
// the ring). Acquire moves that reference to the caller; release borrows
// the caller's zval and takes a new reference if it keeps the resource.
// IS_PTR resources are never dereferenced or refcounted.
//
// Lifetime: the pool is a plain (not ZEND_OBJ) event created with
// ref_count 1, owned by its creator (the Async\Pool object that constructed
// it, or a C user). Each Async\Pool wrapper and each suspended waiter's
// waker holds one more reference, and acquire, tryAcquire, release, close
// and the healthcheck hold one while they run (hooks may suspend). The
// last ZEND_ASYNC_EVENT_RELEASE disposes it: closes it if it is open, then
// frees everything. A caller must not use the pool after letting go of
// its reference. An acquire that gets its resource after the last owner
// let go (its factory, beforeAcquire or wait suspended meanwhile) closes
// the pool and fails with "Pool is closed", destroying the resource: the
// pool is disposed when the call returns, so the resource could never
// come back to be destroyed.
//
// Threading: the request's thread. The factory and the hooks called by
// acquire, tryAcquire, release and the pre-warm run in the caller's
// coroutine and may suspend it. The healthcheck tick runs in the scheduler
// context (a timer callback, as upstream): the healthcheck, the factory
// and the destructor it calls cannot suspend there; a suspension is
// refused with a warning naming the pool and the hook, and the tick goes
// on (pool.cc, "Healthcheck").

#ifndef ZAR_CORE_POOL_POOL_H_
#define ZAR_CORE_POOL_POOL_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/internal/embedded_timer.h"
#include "core/internal/owner_event.h"
#include "core/internal/ring_buffer.h"
#include "core/internal/waiter_queue.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core {

struct AsyncPool : internal::OwnerEventOf<AsyncPool, zend_async_pool_t> {
  zend_async_pool_t base;  // ABI structure (must be first)
  // Idle resources, oldest at the front (PushBack on release, PopFront on
  // acquire). Each element owns one reference.
  internal::RingBuffer<zval> idle;
  // Resources lent out or being prepared (factory, hooks, healthcheck).
  // idle.size() + active_count <= max_size (both constructors refuse
  // min_size > max_size).
  uint32_t active_count = 0;
  // Waiters woken with a reservation that have not run yet; a reservation
  // is granted only while a place is free, so active_count +
  // reserved_count <= max_size.
  uint32_t reserved_count = 0;
  // Parked acquires, FIFO; reserved ones form a prefix.
  internal::WaiterQueue waiters;
  // Calls in progress that hold a guard reference to the event (acquire,
  // tryAcquire, release, close, the healthcheck tick): while
  // event()->ref_count == calls, nobody else holds the pool, and it is
  // disposed when the last of them returns (NoOwnerLeft).
  uint32_t calls = 0;
  // Periodic, HIDDEN timer while a healthcheck runs (interval > 0 and a
  // healthcheck set); not running otherwise and after close.
  internal::EmbeddedTimer healthcheck;
  uint32_t healthcheck_interval_ms = 0;
  // Names the pool in traces and strict-mode diagnostics ("Pool#<id>"):
  // 1, 2, ... in creation order within a request.
  uint32_t id = 0;
  // What the pool has lent, when it was created in strict mode
  // (strict.h); nullptr otherwise.
  struct PoolLedger* ledger = nullptr;

  // Only the calls in progress hold the pool: its owners have let go, so
  // nothing it lends from now on could ever be released into it.
  bool NoOwnerLeft() const { return base.event.ref_count <= calls; }
  // count(): idle + active.
  uint32_t total() const { return idle.size() + active_count; }
  // Places nobody has reserved; may be <= 0.
  int64_t unreserved() const {
    return static_cast<int64_t>(base.max_size) - active_count - reserved_count;
  }
};

static_assert(std::is_standard_layout_v<AsyncPool>);
static_assert(offsetof(AsyncPool, base) == 0);
static_assert(offsetof(zend_async_pool_t, event) == 0);

// ---- ABI entry points (pool.cc; registered by registration.cc) -----------

// The most resources a pool pre-warms (min_size): the idle ring is
// reserved for min_size resources before the factory runs, so a larger one
// (2**31 through PDO::ATTR_POOL_MIN) would be an allocation that cannot
// succeed rather than a pool.
inline constexpr uint32_t kMaxPoolMinSize = 1u << 20;

// new_pool_fn (ZEND_ASYNC_NEW_POOL): refuses a configuration no pool can
// serve, before anything is allocated, returning NULL with ValueError
// thrown (upstream accepts each):
//   "ZEND_ASYNC_NEW_POOL(): Argument #7 ($max_size) must be >= 1"
//   "ZEND_ASYNC_NEW_POOL(): Argument #6 ($min_size) must be <= max_size"
//   "ZEND_ASYNC_NEW_POOL(): Argument #6 ($min_size) must be <= 1048576"
// Otherwise an all-internal pool (handler_flags
// bits 0-4 set; a NULL function means "not set", a NULL factory makes every
// creation fail). `extra_size` zeroed bytes for the caller follow
// the pool, at event.extra_offset (upstream ignores it). Pre-warms min_size
// resources; a factory exception stops the pre-warm and is left pending (the
// pool is still returned). The caller owns the returned reference. Declared
// by the ABI's function type, so its parameters are the ABI's own.
std::remove_pointer_t<zend_async_new_pool_t> NewPool;

// Each of acquire_fn, try_acquire_fn, release_fn and close_fn first refuses
// a NULL pool and, in strict mode, a pool already disposed (reported,
// strict.h RefuseUnusablePool): acquire then throws Async\PoolException
// "Pool is not initialized" (NULL) or "Pool is closed" (disposed),
// tryAcquire returns false, release and close do nothing.

// acquire_fn. Writes an owned resource to `result` and returns true, or
// returns false with an exception pending:
//   Async\PoolException "Pool is closed" (also to waiters when it closes),
//   Async\ServiceUnavailableException "Service is unavailable (circuit
//     breaker is open)" (state INACTIVE),
//   Async\PoolException "Failed to create pool resource" (a factory that
//     failed without an exception; a factory's own exception otherwise),
//   Async\TimeoutException "Operation has been cancelled by timeout"
//     (timeout_ms > 0 elapsed; 0 or negative waits forever),
//   a cancellation of the waiting coroutine, a destructor's exception.
// Async\PoolException "Pool is closed" also when the resource was got
// after the pool's last owner let go (see Lifetime): the pool is closed
// and the resource destroyed. A pool closed (but still owned) while the
// factory or beforeAcquire ran still hands the resource out, as upstream;
// its release into the closed pool destroys it.
// May suspend the current coroutine (waiting, or inside a PHP hook); waits
// from outside a coroutine launch the scheduler first. Never waits after a
// failed factory.
bool PoolAcquire(zend_async_pool_t* pool, zval* result, zend_long timeout_ms);

// try_acquire_fn: like PoolAcquire but never waits, never throws its own
// errors and never takes a place reserved for a waiter. False when closed,
// INACTIVE, or nothing is free (a factory's exception stays pending), and
// when the last owner let go while the factory or beforeAcquire ran (the
// pool is closed and the resource destroyed, as PoolAcquire).
bool PoolTryAcquire(zend_async_pool_t* pool, zval* result);

// release_fn: gives `resource` back (borrowed: the caller's zval is left
// as it was). beforeRelease runs first (it may suspend), then the resource
// stops counting as active. Rejected: reported to the strategy as a failure,
// destroyed, and a waiter woken to use the freed capacity. Accepted:
// reported as a success, then destroyed if the pool is closed, else kept
// idle and a waiter woken. Destructor exceptions propagate. Neither the
// origin of the resource nor a double release is checked, except in strict
// mode (strict.h), where such a release is refused and reported.
void PoolRelease(zend_async_pool_t* pool, zval* resource);
// PoolRelease, with `call` naming the caller in strict-mode diagnostics
// (Async\Pool::release).
void PoolReleaseFrom(zend_async_pool_t* pool, zval* resource, const char* call);

// close_fn: idempotent. Wakes every waiter with Async\PoolException "Pool is
// closed", stops the healthcheck, destroys every idle resource (all of
// them, even if destructors throw: their exceptions are chained, the last
// thrown). An exception already in flight stays in flight. Lent resources
// are destroyed when released. Memory is freed by dispose, not here.
void PoolClose(zend_async_pool_t* pool);

// ---- For the pool's other files (object.cc, the observability) ----------

// Allocates a pool: event initialised (ref_count 1, extra_offset =
// sizeof(AsyncPool), where `extra_size` zeroed bytes for a C user follow),
// counters zero, handler unions zeroed, idle ring reserved for
// max(min_size, 4) resources.
AsyncPool* AllocatePool(uint32_t min_size, uint32_t max_size,
                        uint32_t healthcheck_interval_ms,
                        size_t extra_size = 0);
// The steps of creation after the handlers are stored: pre-warm, then the
// healthcheck timer.
void StartPool(AsyncPool* pool);

// Pool ids start again at 1 (each request).
void ResetPoolIds();

// Throws Async\PoolException with `message`.
void ThrowPoolException(const char* message);

}  // namespace zar::core

#endif  // ZAR_CORE_POOL_POOL_H_
