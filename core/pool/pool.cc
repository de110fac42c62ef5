// The pool's algorithm (pool.h), top to bottom in the order a reader of
// upstream's pool.c expects: create, acquire, wait, release, close,
// healthcheck; then the pool event (its vtable and dispose). Calling the
// resource handlers (handlers.h), the circuit breaker's reports
// (circuit_breaker.h), strict mode's ledger (strict.h) and the trace lines
// (trace.h) live in files of their own; the queue of parked acquires is
// waiter_queue.h.

#include "core/pool/pool.h"

#include <algorithm>
#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "core/internal/owner_event.h"
#include "core/pool/circuit_breaker.h"
#include "core/pool/handlers.h"
#include "core/pool/strict.h"
#include "core/pool/trace.h"
#include "core/scheduler/async_classes.h"
#include "core/scheduler/scheduler.h"

extern "C" {
#include "Zend/zend_API.h"
#include "Zend/zend_exceptions.h"
#include "zend_async_ref/strict.h"
}

namespace zar::core {
namespace {

using internal::CountDownWaiterCallback;
using internal::Waiter;

// Defined below, in the sections named.
void InitPoolEvent(AsyncPool* pool);                          // the pool event
void StartHealthcheck(AsyncPool* pool);                       // healthcheck
void StopHealthcheck(AsyncPool* pool);                        // healthcheck
bool WaitForResource(AsyncPool* pool, zend_long timeout_ms);  // wait
bool WakeWaiter(AsyncPool* pool);                             // wait

// A call's guard reference: the pool outlives the call (hooks may suspend,
// and the last owner may let go meanwhile), and `calls` counts it.
void EnterCall(AsyncPool* pool) {
  ZEND_ASYNC_EVENT_ADD_REF(pool->event());
  pool->calls++;
}
// Drops the guard; may dispose the pool.
void LeaveCall(AsyncPool* pool) {
  pool->calls--;
  ZEND_ASYNC_EVENT_RELEASE(pool->event());
}

}  // namespace

// ===========================================================================
// Create: allocation, pre-warm, the healthcheck timer, and new_pool_fn for
// C users.
// ===========================================================================

namespace {

// The idle ring starts with room for this many resources at least (it
// grows when more are released at once).
constexpr uint32_t kMinIdleCapacity = 4;

// The id of the last pool created in this request.
uint32_t last_pool_id = 0;

// Makes min_size resources. A failure with an exception stops (the
// exception stays pending); one without is skipped.
void PreWarm(AsyncPool* pool) {
  for (uint32_t i = 0; i < pool->base.min_size; i++) {
    zval resource;
    ZVAL_UNDEF(&resource);
    pool->active_count++;  // counted while the factory runs
    const bool made = CallFactory(pool, &resource);
    pool->active_count--;
    if (made) {
      pool->idle.PushBack(resource);
    } else if (EG(exception) != nullptr) {
      return;
    }
  }
}

}  // namespace

void ResetPoolIds() { last_pool_id = 0; }

void ThrowPoolException(const char* message) {
  zend_class_entry* ce = PoolExceptionClass();
  zend_throw_exception(ce != nullptr ? ce : zend_ce_exception, message, 0);
}

AsyncPool* AllocatePool(uint32_t min_size, uint32_t max_size,
                        uint32_t healthcheck_interval_ms, size_t extra_size) {
  // safe_emalloc aborts on size overflow, as PHP does.
  void* block = safe_emalloc(1, extra_size, sizeof(AsyncPool));
  memset(block, 0, sizeof(AsyncPool) + extra_size);
  auto* pool = new (block) AsyncPool();
  InitPoolEvent(pool);
  // The extension's bytes follow the pool, as every reactor event's do.
  pool->event()->extra_offset = static_cast<uint32_t>(sizeof(AsyncPool));
  pool->base.circuit_state = ZEND_ASYNC_CIRCUIT_STATE_ACTIVE;
  pool->base.min_size = min_size;
  pool->base.max_size = max_size;
  pool->healthcheck_interval_ms = healthcheck_interval_ms;
  pool->idle.Reserve(std::max(min_size, kMinIdleCapacity));
  pool->id = ++last_pool_id;
  CreatePoolLedger(pool);
  return pool;
}

void StartPool(AsyncPool* pool) {
  if (ZEND_ASYNC_REF_TRACING()) TracePoolCreate(pool);
  PreWarm(pool);
  if (EG(exception) == nullptr) StartHealthcheck(pool);
}

zend_async_pool_t* NewPool(zend_async_pool_factory_fn factory,
                           zend_async_pool_destructor_fn destructor,
                           zend_async_pool_healthcheck_fn healthcheck,
                           zend_async_pool_before_acquire_fn before_acquire,
                           zend_async_pool_before_release_fn before_release,
                           uint32_t min_size, uint32_t max_size,
                           uint32_t healthcheck_interval_ms,
                           size_t extra_size) {
  if (max_size < 1) {
    zend_value_error(
        "ZEND_ASYNC_NEW_POOL(): Argument #7 ($max_size) must be >= 1");
    return nullptr;
  }
  if (min_size > max_size) {
    zend_value_error(
        "ZEND_ASYNC_NEW_POOL(): Argument #6 ($min_size) must be <= max_size");
    return nullptr;
  }
  if (min_size > kMaxPoolMinSize) {
    zend_value_error(
        "ZEND_ASYNC_NEW_POOL(): Argument #6 ($min_size) must be <= %" PRIu32,
        kMaxPoolMinSize);
    return nullptr;
  }
  AsyncPool* pool =
      AllocatePool(min_size, max_size, healthcheck_interval_ms, extra_size);
  zend_async_pool_t* base = &pool->base;
  base->handler_flags = ZEND_ASYNC_POOL_F_FACTORY_INTERNAL |
                        ZEND_ASYNC_POOL_F_DESTRUCTOR_INTERNAL |
                        ZEND_ASYNC_POOL_F_HEALTHCHECK_INTERNAL |
                        ZEND_ASYNC_POOL_F_BEFORE_ACQUIRE_INTERNAL |
                        ZEND_ASYNC_POOL_F_BEFORE_RELEASE_INTERNAL;
  base->factory.internal = factory;
  base->destructor.internal = destructor;
  base->healthcheck.internal = healthcheck;
  base->before_acquire.internal = before_acquire;
  base->before_release.internal = before_release;
  StartPool(pool);
  return base;
}

// ===========================================================================
// Acquire: PoolAcquire (waits) and PoolTryAcquire (does not).
//
// Both try, in order, the oldest idle resource (checked by beforeAcquire;
// a rejected one is destroyed and the next tried) and then a new one from
// the factory (not checked), each only if the caller may take a place: a
// woken waiter holding a reservation may, anybody else only while
// unreserved places remain. A resource is counted as active from the
// moment it is taken out of idle or the factory is called, so hooks and
// factories that suspend cannot let the pool grow past max_size.
//
// A resource is copied as PHP copies a zval, with ZVAL_COPY_VALUE (its value
// and type, not the whole 16 bytes): out of the idle ring, into the
// caller's zval, and back into the ring on release.
// ===========================================================================

namespace {

enum class Outcome {
  kAcquired,  // `result` holds the resource
  kFailed,    // give up: an exception is pending (or, for tryAcquire, none)
  kRetry,     // a rejected idle resource was destroyed: try again
  kNoPlace,   // nothing this caller may take
};

// beforeAcquire rejected `resource` (owned): it is destroyed.
[[gnu::noinline]] Outcome RejectIdle(AsyncPool* pool, zval* resource) {
  if (ZEND_ASYNC_REF_TRACING()) {
    TracePoolReject(pool, resource, "beforeAcquire");
  }
  pool->active_count--;
  DestroyResource(pool, resource);
  if (EG(exception) != nullptr) {
    // The destructor failed; the place it freed goes to a waiter.
    WakeWaiter(pool);
    return Outcome::kFailed;
  }
  return Outcome::kRetry;
}

// Takes the oldest idle resource; beforeAcquire decides. `try_acquire`
// only tells the trace which operation took it.
inline Outcome TakeIdle(AsyncPool* pool, zval* result, bool try_acquire) {
  zval resource;
  ZVAL_COPY_VALUE(&resource, &pool->idle.Front());
  pool->idle.PopFront();
  pool->active_count++;
  if (EXPECTED(CallBeforeAcquire(pool, &resource))) {
    ZVAL_COPY_VALUE(result, &resource);
    if (ZEND_ASYNC_REF_TRACING()) {
      TracePoolAcquired(pool, try_acquire, /*fresh=*/false, result);
    }
    return Outcome::kAcquired;
  }
  return RejectIdle(pool, &resource);
}

// Makes a new resource. On failure the place is freed (and offered to a
// waiter).
[[gnu::noinline]] Outcome Create(AsyncPool* pool, zval* result,
                                 bool try_acquire) {
  pool->active_count++;
  if (CallFactory(pool, result)) {
    if (ZEND_ASYNC_REF_TRACING()) {
      TracePoolAcquired(pool, try_acquire, /*fresh=*/true, result);
    }
    return Outcome::kAcquired;
  }
  pool->active_count--;
  WakeWaiter(pool);
  return Outcome::kFailed;
}

// One attempt without waiting. `may_serve_self`: the caller may take a place.
inline Outcome TryTake(AsyncPool* pool, zval* result, bool may_serve_self,
                       bool try_acquire) {
  if (!may_serve_self) return Outcome::kNoPlace;
  if (!pool->idle.empty()) return TakeIdle(pool, result, try_acquire);
  if (pool->total() < pool->base.max_size) {
    return Create(pool, result, try_acquire);
  }
  return Outcome::kNoPlace;
}

void ThrowServiceUnavailable() {
  zend_async_throw(ZEND_ASYNC_EXCEPTION_SERVICE_UNAVAILABLE,
                   "Service is unavailable (circuit breaker is open)");
}

bool Acquire(AsyncPool* pool, zval* result, zend_long timeout_ms) {
  zend_async_pool_t* base = &pool->base;
  bool has_reservation = false;
  for (;;) {
    if (UNEXPECTED(pool->closed())) {
      ThrowPoolException("Pool is closed");
      break;
    }
    if (UNEXPECTED(base->circuit_state == ZEND_ASYNC_CIRCUIT_STATE_INACTIVE)) {
      ThrowServiceUnavailable();
      break;
    }
    const bool may_serve_self = has_reservation || pool->unreserved() > 0;
    const Outcome outcome =
        TryTake(pool, result, may_serve_self, /*try_acquire=*/false);
    if (outcome != Outcome::kNoPlace) has_reservation = false;
    switch (outcome) {
      case Outcome::kAcquired:
        return true;
      case Outcome::kRetry:
        continue;
      case Outcome::kFailed:
        // Only a failed factory gets here without an exception.
        if (EG(exception) == nullptr) {
          ThrowPoolException("Failed to create pool resource");
        }
        if (ZEND_ASYNC_REF_TRACING()) TracePoolAcquireFailed(pool);
        return false;
      case Outcome::kNoPlace:
        break;
    }
    has_reservation = WaitForResource(pool, timeout_ms);
    if (EG(exception) != nullptr) {
      if (ZEND_ASYNC_REF_TRACING()) TracePoolAcquireFailed(pool);
      return false;
    }
  }
  if (ZEND_ASYNC_REF_TRACING()) TracePoolAcquireFailed(pool);
  // Leaving through an error with an unspent reservation: hand it on.
  if (has_reservation) {
    if (ZEND_ASYNC_REF_TRACING()) TracePoolHandOn(pool);
    WakeWaiter(pool);
  }
  return false;
}

bool TryAcquire(AsyncPool* pool, zval* result) {
  zend_async_pool_t* base = &pool->base;
  for (;;) {
    if (pool->closed() ||
        base->circuit_state == ZEND_ASYNC_CIRCUIT_STATE_INACTIVE) {
      if (ZEND_ASYNC_REF_TRACING()) TracePoolTryAcquireNone(pool);
      return false;
    }
    switch (TryTake(pool, result, pool->unreserved() > 0,
                    /*try_acquire=*/true)) {
      case Outcome::kAcquired:
        return true;
      case Outcome::kRetry:
        continue;
      case Outcome::kFailed:
      case Outcome::kNoPlace:
        if (ZEND_ASYNC_REF_TRACING()) TracePoolTryAcquireNone(pool);
        return false;
    }
  }
}

// The acquire got `resource` (owned, counted active) after the last owner
// let go of the pool (NoOwnerLeft): nothing could ever release it, and the
// pool is disposed when the calls in progress return. Closes the pool, as
// that dispose would, so that every call still inside it fails the same
// way, and destroys the resource (a destructor's exception stays pending).
[[gnu::noinline]] void DropForGonePool(AsyncPool* pool, zval* resource,
                                       const char* call) {
  ReportOwnerGoneDuringCall(pool, call, resource);
  pool->active_count--;
  PoolClose(&pool->base);
  DestroyResource(pool, resource);
  ZVAL_UNDEF(resource);
}

// The end of an acquire or tryAcquire: strict mode's ledger records the
// resource lent, and the call's guard goes (the pool may be disposed).
// Returns `acquired`.
inline bool Lend(AsyncPool* pool, zval* result, bool acquired) {
  if (UNEXPECTED(pool->ledger != nullptr) && acquired) {
    LedgerLend(pool, result);
  }
  LeaveCall(pool);
  return acquired;
}

}  // namespace

bool PoolAcquire(zend_async_pool_t* base, zval* result, zend_long timeout_ms) {
  if (UNEXPECTED(base == nullptr || ZEND_ASYNC_REF_STRICT()) &&
      RefuseUnusablePool(base, "ZEND_ASYNC_POOL_ACQUIRE")) {
    ThrowPoolException(base == nullptr ? "Pool is not initialized"
                                       : "Pool is closed");
    return false;
  }
  AsyncPool* pool = AsyncPool::FromAbi(base);
  // Hooks, the factory and waiting may suspend; meanwhile the last owner
  // may let go of the pool (even the waiter's own waker does, when it
  // cleans up): it must outlive this call.
  EnterCall(pool);
  bool acquired = Acquire(pool, result, timeout_ms);
  if (UNEXPECTED(acquired && pool->NoOwnerLeft())) {
    DropForGonePool(pool, result, "ZEND_ASYNC_POOL_ACQUIRE");
    if (EG(exception) == nullptr) ThrowPoolException("Pool is closed");
    if (ZEND_ASYNC_REF_TRACING()) TracePoolAcquireFailed(pool);
    acquired = false;
  }
  return Lend(pool, result, acquired);
}

bool PoolTryAcquire(zend_async_pool_t* base, zval* result) {
  if (UNEXPECTED(base == nullptr || ZEND_ASYNC_REF_STRICT()) &&
      RefuseUnusablePool(base, "ZEND_ASYNC_POOL_TRY_ACQUIRE")) {
    return false;
  }
  AsyncPool* pool = AsyncPool::FromAbi(base);
  EnterCall(pool);
  bool acquired = TryAcquire(pool, result);
  if (UNEXPECTED(acquired && pool->NoOwnerLeft())) {
    DropForGonePool(pool, result, "ZEND_ASYNC_POOL_TRY_ACQUIRE");
    if (ZEND_ASYNC_REF_TRACING()) TracePoolTryAcquireNone(pool);
    acquired = false;
  }
  return Lend(pool, result, acquired);
}

// ===========================================================================
// Wait: parking an acquire (WaitForResource) and waking it (WakeWaiter,
// WakeAllWaiters).
//
// A waiter lives in the frame of the acquire that waits (on the waiting
// coroutine's stack), so parking allocates nothing; it is set up, parked
// and taken out as every owner event's waiter is
// (core/internal/owner_event.h), held by the waiting acquire, the queue and,
// while parked, the pool event. When the acquire resumes the park has let
// go of the pool event and the acquire leaves the queue, so when its frame
// ends nothing refers to the waiter any more.
// ===========================================================================

namespace {

// Outside a coroutine: launches the scheduler so that the caller becomes
// the main coroutine. False (an exception thrown) when it cannot; strict
// mode reports why, and refuses to launch while async is off.
[[gnu::noinline]] bool EnterCoroutine(AsyncPool* pool) {
  constexpr char kCall[] = "ZEND_ASYNC_POOL_ACQUIRE";
  constexpr char kProblem[] = "cannot wait outside a coroutine";
  const internal::Entered entered = internal::EnterCoroutine(
      "Cannot wait for a pool resource outside a coroutine",
      ZEND_ASYNC_REF_STRICT());
  if (entered == internal::Entered::kYes) return true;
  if (ZEND_ASYNC_REF_STRICT()) {
    switch (entered) {
      case internal::Entered::kAsyncOff:
        ReportOutsideCoroutine(pool, kCall, kProblem, "async is off");
        break;
      case internal::Entered::kLaunchFailed:
        ReportLaunchFailure(pool, kCall, kProblem);
        break;
      case internal::Entered::kNoScheduler:
        ReportOutsideCoroutine(pool, kCall, kProblem,
                               "no scheduler is registered");
        break;
      case internal::Entered::kYes:
        break;
    }
  }
  return false;
}

// Parks the current coroutine until it is woken, times out (timeout_ms > 0)
// or is cancelled. Returns whether it was woken with a reservation it still
// holds (one it could not use because an exception arrived is handed on).
// Out of line, so that the acquire it serves keeps a small frame: inlined,
// its waiter's set-up ran on every acquire (11 more instructions each).
[[gnu::noinline]] bool WaitForResource(AsyncPool* pool, zend_long timeout_ms) {
  if (ZEND_ASYNC_CURRENT_COROUTINE == nullptr && !EnterCoroutine(pool)) {
    return false;
  }
  Waiter waiter;
  internal::InitWaiter(&waiter, ZEND_ASYNC_CURRENT_COROUTINE, pool->event());
  pool->waiters.PushBack(&waiter);
  if (ZEND_ASYNC_REF_TRACING()) TracePoolWait(pool);

  zend_async_ref_park_t park = {};
  park.timeout_ms = timeout_ms > 0 ? static_cast<zend_ulong>(timeout_ms) : 0;
  // The park lets go of the events when it returns (the pool event's
  // callback and reference, the timer) rather than at the coroutine's next
  // wait: the waiter's frame ends below, and the pool must not look owned
  // by a coroutine that got going.
  internal::ParkWaiter(&waiter, &park);

  const bool reserved = waiter.reserved;
  internal::LeaveQueue(&pool->waiters, &waiter);
  ZEND_ASSERT(waiter.callback.base.ref_count == 1);
  ZEND_ASSERT(waiter.event_slot == Waiter::kNoSlot);
  if (reserved) pool->reserved_count--;
  if (ZEND_ASYNC_REF_TRACING()) TracePoolWaitEnded(pool, reserved);
  if (reserved && EG(exception) != nullptr && !pool->closed()) {
    // It cannot use its place (cancelled, timed out): the next waiter may.
    if (ZEND_ASYNC_REF_TRACING()) TracePoolHandOn(pool);
    WakeWaiter(pool);
  }
  return reserved && EG(exception) == nullptr;
}

// Wakes the oldest waiter without a reservation, giving it one
// (reserved_count++). False when there is none. Out of line, as
// WaitForResource, for the release that calls it.
[[gnu::noinline]] bool WakeWaiter(AsyncPool* pool) {
  Waiter* waiter = pool->waiters.ReserveOldestUnreserved();
  if (waiter == nullptr) return false;
  pool->reserved_count++;
  if (ZEND_ASYNC_REF_TRACING()) TracePoolReserve(pool, waiter);
  waiter->callback.base.callback(pool->event(), &waiter->callback.base, nullptr,
                                 nullptr);
  return true;
}

// Wakes every waiter (newest first) with `exception` (borrowed).
void WakeAllWaiters(AsyncPool* pool, zend_object* exception) {
  zend_async_event_t* event = pool->event();
  while (Waiter* waiter = pool->waiters.PopBack()) {
    // The queue's reference now belongs to this loop.
    event->del_callback(event, &waiter->callback.base);
    if (ZEND_ASYNC_REF_TRACING()) TracePoolWake(pool, waiter, exception);
    waiter->callback.base.callback(event, &waiter->callback.base, nullptr,
                                   exception);
    CountDownWaiterCallback(&waiter->callback.base);
  }
}

}  // namespace

// ===========================================================================
// Release: PoolRelease.
//
// Order: beforeRelease (which may suspend; the resource still counts as
// active meanwhile), then exactly one active_count decrement, then the
// strategy report, then the resource's fate. The caller's zval is borrowed
// throughout: a destroyed resource is destroyed through a copy holding its
// own reference, and a kept one gets a new reference in the idle ring.
// ===========================================================================

namespace {

// Destroys a resource the caller keeps a reference to.
void DestroyCopy(AsyncPool* pool, zval* resource) {
  zval copy;
  ZVAL_COPY(&copy, resource);
  DestroyResource(pool, &copy);
}

// The rejected path of Release: beforeRelease said no.
[[gnu::noinline]] void ReleaseRejected(AsyncPool* pool, zval* resource) {
  if (ZEND_ASYNC_REF_TRACING()) {
    TracePoolReject(pool, resource, "beforeRelease");
    TracePoolRelease(pool, resource, "rejected");
  }
  ReportFailure(pool, nullptr);
  DestroyCopy(pool, resource);
  // The capacity it held lets a waiter create a fresh one.
  WakeWaiter(pool);
}

void Release(AsyncPool* pool, zval* resource, const char* call) {
  // Strict mode: a resource the pool did not lend (or lent and got back
  // already) is refused before anything changes.
  if (UNEXPECTED(pool->ledger != nullptr) &&
      !LedgerAcceptRelease(pool, resource, call)) {
    return;
  }
  const bool reusable = CallBeforeRelease(pool, resource);
  // Saturating: a double release must not wrap the counter around.
  if (EXPECTED(pool->active_count > 0)) pool->active_count--;

  if (!reusable) {
    ReleaseRejected(pool, resource);
    return;
  }
  ReportSuccess(pool);
  if (UNEXPECTED(pool->closed())) {
    if (ZEND_ASYNC_REF_TRACING()) TracePoolRelease(pool, resource, "closed");
    DestroyCopy(pool, resource);
    return;
  }
  Z_TRY_ADDREF_P(resource);
  zval kept;
  ZVAL_COPY_VALUE(&kept, resource);
  pool->idle.PushBack(kept);
  if (ZEND_ASYNC_REF_TRACING()) TracePoolRelease(pool, resource, "idle");
  if (pool->waiters.HasUnreserved()) WakeWaiter(pool);
}

}  // namespace

void PoolReleaseFrom(zend_async_pool_t* base, zval* resource,
                     const char* call) {
  if (UNEXPECTED(base == nullptr || ZEND_ASYNC_REF_STRICT()) &&
      RefuseUnusablePool(base, call)) {
    return;
  }
  AsyncPool* pool = AsyncPool::FromAbi(base);
  // beforeRelease and the strategy may suspend (or drop the last owner's
  // reference): the pool must outlive this call.
  EnterCall(pool);
  Release(pool, resource, call);
  LeaveCall(pool);
}

void PoolRelease(zend_async_pool_t* base, zval* resource) {
  PoolReleaseFrom(base, resource, "ZEND_ASYNC_POOL_RELEASE");
}

// ===========================================================================
// Close: PoolClose.
//
// Order: park an exception in flight; mark CLOSED (so nothing re-enters:
// acquires fail, releases destroy); stop the healthcheck; wake every waiter
// with Async\PoolException "Pool is closed" (each then returns false from
// its acquire with it, even one already holding a reservation); destroy
// every idle resource, chaining destructor exceptions (the later has the
// earlier as previous) and throwing the last; put the parked exception
// back, with whatever close raised chained after it, so closing while an
// exception unwinds neither swallows nor replaces it.
// ===========================================================================

namespace {

// Destroys every idle resource; the chained destructor exceptions are left
// in EG(exception).
void DestroyIdle(AsyncPool* pool) {
  zend_object* last = nullptr;
  while (!pool->idle.empty()) {
    zval resource = pool->idle.PopFront();
    DestroyResource(pool, &resource);
    if (zend_object* raised = EG(exception)) {
      EG(exception) = nullptr;
      if (last != nullptr) zend_exception_set_previous(raised, last);
      last = raised;
    }
  }
  if (last != nullptr) zend_throw_exception_internal(last);
}

}  // namespace

void PoolClose(zend_async_pool_t* base) {
  if (UNEXPECTED(base == nullptr || ZEND_ASYNC_REF_STRICT()) &&
      RefuseUnusablePool(base, "ZEND_ASYNC_POOL_CLOSE")) {
    return;
  }
  AsyncPool* pool = AsyncPool::FromAbi(base);
  if (pool->closed()) return;
  // Destructors may drop the last reference to the pool; dispose (which
  // closes an open pool) runs with no reference left and needs no guard.
  const bool guard = pool->event()->ref_count > 0;
  if (guard) EnterCall(pool);
  // What was in flight stays current; one raised meanwhile becomes its
  // previous.
  mock_zend::ParkedException parked(ZEND_MOCK_PARKED_STAYS_CURRENT);

  if (ZEND_ASYNC_REF_TRACING()) TracePoolClose(pool);
  ZEND_ASYNC_EVENT_SET_CLOSED(pool->event());
  StopHealthcheck(pool);
  // After request shutdown began there is nobody to wake and no exception
  // may be made.
  if (!pool->waiters.empty() && EG(active)) {
    ThrowPoolException("Pool is closed");
    zend_object* closed_error = EG(exception);
    EG(exception) = nullptr;
    WakeAllWaiters(pool, closed_error);
    OBJ_RELEASE(closed_error);
  }
  DestroyIdle(pool);

  parked.Restore();
  if (guard) LeaveCall(pool);
}

// ===========================================================================
// Healthcheck: a periodic, HIDDEN timer (it never keeps the request alive
// nor hides a deadlock) that checks the idle resources.
//
// Tick: for exactly the resources idle when it starts, oldest first: take
// it out of idle (counted as active while the check runs), check it;
// healthy ones go back to idle (or are destroyed if the pool closed
// meanwhile, which ends the tick); unhealthy ones (false or an exception,
// swallowed) are destroyed, and if the pool then has fewer than min_size
// resources the factory makes a replacement. Afterwards one waiter is
// woken if a place is free.
//
// The tick is a timer callback: it runs in the scheduler context, as
// upstream's, where a suspension is refused with Async\AsyncException "A
// coroutine cannot be stopped from the Scheduler context". A hook that asks to
// suspend there (the healthcheck, the factory or the destructor doing I/O) is
// reported with an E_WARNING naming the pool and the hook, the refusal is
// discarded rather than left to end the request, and the tick goes on:
//   healthcheck  its verdict stands: upstream's "an exception is
//                unhealthy" unless it caught the refusal itself;
//   factory      no replacement is made (the pool stays below min_size
//                until an acquire makes one);
//   destructor   the resource is gone, as after any destructor.
// Which suspension happened there is told by RefusedSuspensions(), not by
// the exception's text. A factory or destructor that throws there (a
// database down when the replacement is made) is contained the same way:
// upstream leaves its exception pending after the timer callback, where
// the scheduler takes it for the request's uncaught error and ends the
// request; here an E_WARNING names the pool, the hook and the exception
// ("Pool#1 healthcheck tick: the factory threw RuntimeException: down; no
// replacement is made"), the exception is discarded and the tick goes on.
// ===========================================================================

namespace {

// A hook the tick called asked to suspend and was refused: discards the
// refusal (or whatever the hook left pending after it) and warns, naming
// the pool, the hook and what the tick did about it (`outcome`).
[[gnu::cold]] void ContainSuspension(AsyncPool* pool, const char* hook,
                                     const char* outcome) {
  DiscardException();
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_error(E_WARNING,
             "%s healthcheck tick: the %s cannot suspend, the tick runs in "
             "the scheduler context; %s",
             PoolToken(pool, token), hook, outcome);
}

// A hook the tick called threw: discards the exception and warns, naming
// the pool, the hook, the exception's class and message and what the tick
// did about it (`outcome`).
[[gnu::cold]] void ContainException(AsyncPool* pool, const char* hook,
                                    const char* outcome) {
  zend_object* exception = EG(exception);
  zval rv;
  const zval* message =
      zend_read_property_ex(zend_get_exception_base(exception), exception,
                            ZSTR_KNOWN(ZEND_STR_MESSAGE), 1, &rv);
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_error(E_WARNING, "%s healthcheck tick: the %s threw %s: %s; %s",
             PoolToken(pool, token), hook, ZSTR_VAL(exception->ce->name),
             message != nullptr && Z_TYPE_P(message) == IS_STRING
                 ? Z_STRVAL_P(message)
                 : "",
             outcome);
  DiscardException();
}

// Whether a suspension was refused since RefusedSuspensions() was `before`.
bool AskedToSuspend(uint64_t before) { return RefusedSuspensions() != before; }

// Destroys `resource` (owned) in the tick; a suspension or an exception
// of the destructor is contained.
void DestroyInTick(AsyncPool* pool, zval* resource) {
  const uint64_t before = RefusedSuspensions();
  DestroyResource(pool, resource);
  if (UNEXPECTED(AskedToSuspend(before))) {
    ContainSuspension(pool, "destructor", "the resource is destroyed");
  } else if (UNEXPECTED(EG(exception) != nullptr)) {
    ContainException(pool, "destructor", "the resource is destroyed");
  }
}

// Makes a replacement for a destroyed resource; a suspension or an
// exception of the factory is contained (no replacement is made).
void Refill(AsyncPool* pool) {
  zval resource;
  ZVAL_UNDEF(&resource);
  pool->active_count++;
  const uint64_t before = RefusedSuspensions();
  const bool made = CallFactory(pool, &resource);
  pool->active_count--;
  if (UNEXPECTED(AskedToSuspend(before))) {
    ContainSuspension(
        pool, "factory",
        made ? "the resource it made is kept" : "no replacement is made");
  } else if (UNEXPECTED(EG(exception) != nullptr)) {
    ContainException(
        pool, "factory",
        made ? "the resource it made is kept" : "no replacement is made");
  }
  if (made) pool->idle.PushBack(resource);
}

void Tick(AsyncPool* pool) {
  const uint32_t count = pool->idle.size();
  for (uint32_t i = 0; i < count && !pool->idle.empty(); i++) {
    zval resource = pool->idle.PopFront();
    pool->active_count++;
    const uint64_t before = RefusedSuspensions();
    const bool healthy = CallHealthcheck(pool, &resource);
    pool->active_count--;
    if (UNEXPECTED(AskedToSuspend(before))) {
      ContainSuspension(pool, "healthcheck",
                        healthy ? "the resource is kept"
                                : "the resource is taken as unhealthy");
    }
    if (healthy) {
      if (pool->closed()) {
        DestroyInTick(pool, &resource);
        break;
      }
      pool->idle.PushBack(resource);
      continue;
    }
    if (ZEND_ASYNC_REF_TRACING()) {
      TracePoolReject(pool, &resource, "healthcheck");
    }
    DestroyInTick(pool, &resource);
    if (pool->total() < pool->base.min_size && !pool->closed()) {
      Refill(pool);
    }
  }
  if (pool->unreserved() > 0) WakeWaiter(pool);
}

void OnTick(zend_async_event_t* /*event*/,
            zend_async_event_callback_t* callback, void* /*result*/,
            zend_object* /*exception*/) {
  AsyncPool* pool = internal::EmbeddedTimer::OwnerOf<AsyncPool>(
      callback, offsetof(AsyncPool, healthcheck));
  if (pool->closed() || !HasHealthcheck(pool)) return;
  // A check may drop the last reference to the pool.
  EnterCall(pool);
  Tick(pool);
  LeaveCall(pool);
}

// Starts the timer when the pool has a healthcheck and an interval (and no
// timer yet).
void StartHealthcheck(AsyncPool* pool) {
  if (pool->healthcheck_interval_ms == 0 || !HasHealthcheck(pool) ||
      pool->healthcheck.running()) {
    return;
  }
  pool->healthcheck.Start(pool->healthcheck_interval_ms, /*periodic=*/true,
                          /*hidden=*/true, OnTick);
}

// Stops and releases the timer, if any.
void StopHealthcheck(AsyncPool* pool) { pool->healthcheck.Stop(); }

}  // namespace

// ===========================================================================
// The pool event: its vtable and dispose.
//
// The pool event is an owner event (core/internal/owner_event.h): never
// started, stopped or notified; its callbacks vector only holds the
// callbacks of parked waiters, which the pool invokes itself, in its own
// order (the waiter queue's).
// ===========================================================================

namespace {

bool Dispose(zend_async_event_t* event) {
  AsyncPool* pool = AsyncPool::FromEvent(event);
  if (ZEND_ASYNC_REF_TRACING()) TracePoolDispose(pool);
  if (!pool->closed()) PoolClose(&pool->base);
  StopHealthcheck(pool);
  zend_async_callbacks_free(event);
  // Normally empty after close; a waiter never outlives its reference.
  while (pool->waiters.PopBack() != nullptr) {
  }
  while (!pool->idle.empty()) {
    zval resource = pool->idle.PopFront();
    zval_ptr_dtor(&resource);
  }
  ReleaseUserHandlers(pool);
  ReleaseUserStrategy(pool);
  // Strict mode keeps the memory for a while, to catch a release of the
  // disposed pool (zend_async_ref/strict.h).
  std::string name;
  if (ZEND_ASYNC_REF_STRICT()) name = PoolName(pool);
  DestroyPoolLedger(pool);
  pool->~AsyncPool();
  if (name.empty() ||
      !zend_async_ref_strict_quarantine(event, sizeof(AsyncPool), name.c_str(),
                                        event->ref_count)) {
    efree(pool);
  }
  return true;
}

zend_string* Info(zend_async_event_t* event) {
  const AsyncPool* pool = AsyncPool::FromEvent(event);
  return zend_strpprintf(0, "Pool(idle=%zu, active=%u, reserved=%u, max=%u)",
                         static_cast<size_t>(pool->idle.size()),
                         pool->active_count, pool->reserved_count,
                         pool->base.max_size);
}

// Installs the event vtable (ref_count 1).
void InitPoolEvent(AsyncPool* pool) {
  internal::InitOwnerEvent(pool->event(), Dispose, Info);
}

}  // namespace

}  // namespace zar::core
