// zend-async-ref core/future: the Async\FutureState and Async\Future
// objects (future.h for the subsystem's map).
//
// final class Async\FutureState — the writing end. `new FutureState()`
// creates a pending future (its creation location is where the object was
// made) and holds its one reference.
//   complete(mixed $result) / error(\Throwable $e)
//       settle the future; on a settled one they throw
//       Async\AsyncException "FutureState is already completed at F:L"
//       ("at Unknown:0" when it was settled outside a script).
//   isCompleted(), ignore(), getAwaitingInfo(), getCreatedFileAndLine(),
//   getCreatedLocation(), getCompletedFileAndLine(), getCompletedLocation()
//       as on Future below.
//
// final class Async\Future implements Async\Completable — the reading end,
// an event reference: ZEND_ASYNC_OBJECT_TO_EVENT(object) is its future's
// event (NULL when constructed without a state, see below).
//   __construct(FutureState $state)   shares the state's future (one more
//       reference); "FutureState is already destroyed" without one.
//   Future::completed($value = null) / Future::failed(\Throwable $e)
//       a future settled at once.
//   isCompleted(), isCancelled() (rejected with an Async\AsyncCancellation)
//   cancel(?AsyncCancellation $c = null)
//       rejects a pending future with $c or AsyncCancellation "Future has
//       been cancelled"; nothing on a settled one.
//   ignore()   marks the future IGNORED (no warnings); returns $this.
//   map/catch/finally(callable)   mapper.h.
//   await(?Completable $cancellation = null)
//       marks the future USED; its result, or throws its exception (marked
//       caught). While pending, parks the current coroutine on it (and on
//       the cancellation's event, which cancels the wait; an already
//       completed cancellation throws Async\OperationCanceledException
//       "Operation has been cancelled" with its error as previous). Outside
//       any coroutine it launches the scheduler first; with no coroutine
//       even then it returns null.
//   getAwaitingInfo()   [event->info()]: ["FutureState(pending)"] etc.
//   getCreatedFileAndLine() / getCompletedFileAndLine()   [file|null, line]
//   getCreatedLocation() / getCompletedLocation()   "file:line" or "unknown"
// A Future without a future (never constructed): isCompleted/isCancelled
// are false, cancel/await/map/catch/finally throw "Future has no state",
// getAwaitingInfo is [].
//
// Lifetime: each object holds one reference to its future until free_obj.
// A Future also owns its derived futures (child_futures) and its mapper
// callable; get_gc reports them and the outcome, so cycles through a
// mapper are collected. Not cloneable. Threading: the request's thread.

#ifndef ZAR_CORE_FUTURE_OBJECT_H_
#define ZAR_CORE_FUTURE_OBJECT_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
}

namespace zar::core {

// How a derived future is settled from its source (mapper.h).
enum class MapperType : uint8_t {
  kMap,      // map(): called on success with the result
  kCatch,    // catch(): called on failure with the exception
  kFinally,  // finally(): called either way; the outcome passes through
};

struct FutureStateObject {
  // An event reference; ref.event is the future (one reference) or NULL.
  zend_async_event_ref_t ref;
  zend_object std;  // last, as zend_object_alloc requires

  zend_future_t* future() const {
    return reinterpret_cast<zend_future_t*>(ref.event);
  }
  static FutureStateObject* FromObject(zend_object* object) {
    return reinterpret_cast<FutureStateObject*>(
        reinterpret_cast<char*>(object) - offsetof(FutureStateObject, std));
  }
};

struct FutureObject {
  // An event reference; ref.event is the future (one reference) or NULL.
  zend_async_event_ref_t ref;
  // The futures derived with map/catch/finally while this one was pending,
  // in call order (IS_OBJECT Async\Future, owned); NULL until the first.
  HashTable* child_futures;
  // For a derived future: the callable that settles it (owned) and how.
  zval mapper;
  MapperType mapper_type;
  zend_object std;  // last, as zend_object_alloc requires

  zend_future_t* future() const {
    return reinterpret_cast<zend_future_t*>(ref.event);
  }
  static FutureObject* FromObject(zend_object* object) {
    return reinterpret_cast<FutureObject*>(reinterpret_cast<char*>(object) -
                                           offsetof(FutureObject, std));
  }
};

static_assert(std::is_standard_layout_v<FutureStateObject>);
static_assert(std::is_standard_layout_v<FutureObject>);

// new_future_obj_fn (ZEND_ASYNC_NEW_FUTURE_OBJ): a new Async\Future for
// `future`, taking over the caller's reference (as upstream). NULL for a
// NULL future.
zend_object* NewFutureObject(zend_future_t* future);

// Class set-up for classes.cc.
zend_object* CreateFutureStateObject(zend_class_entry* ce);
zend_object* CreateFutureObject(zend_class_entry* ce);
const zend_function_entry* FutureStateMethods();
const zend_function_entry* FutureMethods();
const zend_object_handlers* FutureStateObjectHandlers();
const zend_object_handlers* FutureObjectHandlers();

}  // namespace zar::core

#endif  // ZAR_CORE_FUTURE_OBJECT_H_
