// zend-async-ref core: the coroutine, an Async\Coroutine object.
//
// An AsyncCoroutine embeds the ABI's zend_coroutine_t first and its
// zend_object last. Its event is F_ZEND_OBJ: the object's refcount is the
// event's, and releasing the last reference frees the coroutine
// (ZEND_ASYNC_EVENT_RELEASE, OBJ_RELEASE). The event closes when the
// coroutine finishes; its callbacks are the coroutine's awaiters, notified
// once with (&coroutine->result as zval*, exception); replay() hands a
// finished coroutine's outcome to late awaiters.
//
// Ownership: the scheduler owns the reference a coroutine is created with
// from the moment it is queued (spawn, or the first enqueue of a coroutine
// made with new_coroutine) until it has finished and been finalized; it
// then releases it. Anyone keeping a zend_coroutine_t* beyond that must
// hold a reference of their own (ZEND_ASYNC_EVENT_ADD_REF).
//
// States (flags of the event, see zend_async_API.h): created → queued
// (waker QUEUED) → STARTED (running on a fiber / suspended: waker WAITING,
// or queued again: QUEUED) → finished (CLOSED). A coroutine cancelled before
// it started is queued with waker status IGNORED and is finalized without
// running its body.
//
// Threading: all functions run on the request's thread.

#ifndef ZAR_CORE_SCHEDULER_COROUTINE_H_
#define ZAR_CORE_SCHEDULER_COROUTINE_H_

#include <cstddef>
#include <type_traits>

#include "core/internal/location.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core {

class Fiber;

struct AsyncCoroutine {
  zend_coroutine_t coroutine;  // ABI structure (must be first)
  // The fiber this coroutine runs (or is suspended) on; nullptr before it
  // starts and after it finished. The main coroutine's is the thread fiber.
  Fiber* fiber;
  // The first cancellation requested while the coroutine was PROTECTED
  // (owned); applied when it next suspends unprotected.
  zend_object* deferred_cancellation;
  // spawn_and_throw: the exception the coroutine throws when it starts
  // (owned).
  zend_object* throw_on_start;
  // Position in its scope's member list (valid while scope_member).
  uint32_t scope_index;
  // Listed as a member of coroutine.scope (from before_coroutine_enqueue
  // until it finishes).
  bool scope_member;
  // In the scheduler's run queue (at most once). An entry whose waker is
  // no longer QUEUED or IGNORED is stale and skipped when dequeued.
  bool queued;
  // In the scheduler's coroutine table (counted in active_coroutine_count
  // unless a zombie).
  bool registered;
  // Finished (CLOSED) but still notifying its awaiters and finish callbacks
  // on its own fiber. Meanwhile it may still suspend and be resumed, as
  // upstream allows: a finish callback may wait (PDO rolls a connection
  // back there).
  bool finalizing;
  // The coroutine's waker: coroutine.waker points here from the coroutine's
  // creation until the object is freed (ReleaseWaker), as upstream's
  // coroutines carry theirs; ZEND_ASYNC_WAKER_DESTROY only empties it.
  // Embedded, so a waker costs no allocation, and right after the fields
  // above, so its status shares a cache line with what every switch reads
  // (fiber, queued) and its address needs no load.
  zend_async_waker_t waker_storage;
  // Where Spawn was called from (its return address): the C code that
  // spawned the coroutine, which debuggers name when the coroutine has no
  // script position (tools/gdb's zar-coroutines). NULL for the main
  // coroutine, which nothing spawned.
  const void* spawn_site;
  zend_object std;  // last, as zend_object_alloc requires

  static AsyncCoroutine* FromAbi(zend_coroutine_t* coroutine) {
    return reinterpret_cast<AsyncCoroutine*>(coroutine);
  }
  static AsyncCoroutine* FromObject(zend_object* object) {
    return reinterpret_cast<AsyncCoroutine*>(reinterpret_cast<char*>(object) -
                                             offsetof(AsyncCoroutine, std));
  }
  zend_coroutine_t* abi() { return &coroutine; }
  zend_async_event_t* event() { return &coroutine.event; }
  zend_object* object() { return &std; }
};

static_assert(std::is_standard_layout_v<AsyncCoroutine>);
static_assert(offsetof(AsyncCoroutine, coroutine) == 0);

// new_coroutine_fn: a new, unqueued coroutine object in `scope` (which it
// does not join until it is queued). The caller owns the reference.
zend_coroutine_t* NewCoroutine(zend_async_scope_t* scope);

// The handlers of Async\Coroutine objects (offset, free_obj, no clone).
const zend_object_handlers* CoroutineObjectHandlers();

// Whether `exception` is a cancellation (\Cancellation or a subclass).
bool IsCancellation(const zend_object* exception);

// waker_new_fn (ZEND_ASYNC_WAKER_NEW), as upstream's: the coroutine's own
// waker, cleaned first (zend_async_waker_clean) unless its status is
// NO_STATUS. NULL means the current coroutine (E_CORE_ERROR "Cannot create
// waker for a coroutine that is not running", NULL, when there is none).
// Every coroutine has its waker from creation; one without (a waker another
// destructor took away) gets its embedded storage initialised again.
// REQUIRES: `coroutine` is an AsyncCoroutine (every coroutine of this
// scheduler is).
zend_async_waker_t* NewWaker(zend_coroutine_t* coroutine);

// waker_destroy_fn (ZEND_ASYNC_WAKER_DESTROY), as upstream's: empties the
// waker (its dtor hook run, status NO_STATUS, error, result, suspension site
// and events released: zend_async_waker_clean) and leaves it installed, so
// coroutine->waker stays valid for the coroutine's life. No-op without one.
void EmptyWaker(zend_coroutine_t* coroutine);

// The end of the coroutine's waker, when the object is freed: emptied, its
// tables destroyed, coroutine->waker NULL (its memory freed unless it is the
// embedded one). No-op without a waker.
void ReleaseWaker(zend_coroutine_t* coroutine);

}  // namespace zar::core

#endif  // ZAR_CORE_SCHEDULER_COROUTINE_H_
