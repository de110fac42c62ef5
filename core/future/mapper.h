// zend-async-ref core/future: map(), catch() and finally() — futures
// derived from a source Future and settled by a callable (future.h for the
// subsystem's map).
//
// $derived = $source->map($fn) (or catch/finally) marks the source USED and
// returns a new Async\Future whose mapper is $fn. How the source's outcome
// settles it:
//
//   map      success: $fn($result) is the derived result.
//            failure: $fn is not called; the source's exception passes on.
//   catch    failure: $fn($exception) is the derived result; the source's
//            exception counts as caught.
//            success: $fn is not called; the result passes on.
//   finally  either way $fn($result-or-null | $exception) is called and its
//            return value ignored; the source's outcome passes on.
// A mapper that throws rejects the derived future with what it threw, with
// the source's exception (if any) as its previous.
//
// When the derived future is rejected and nobody handles the rejection
// (no coroutine awaits it, no future is derived from it), the run that
// settled it ends with that exception, so it reaches the scope like any
// coroutine's unhandled error, and the run stops there.
//
// When the mapper runs:
//   - On a pending source, the derived future joins the source's
//     child_futures. At the first one the source subscribes to its own
//     future (a resolve callback holding the source object and the scope
//     current at that call). When the source settles, one coroutine, spawned
//     in that scope, settles the whole tree breadth-first: the source's
//     derived futures in call order, then, for each of them that has
//     derived futures of its own, those, in the order they were settled.
//   - On a settled source, a coroutine is spawned at once (in the current
//     scope) to settle that one derived future.
// Either way mappers run in a coroutine, never inside map() or inside the
// call that settled the source.
//
// Errors: a non-callable argument throws TypeError "Async\Future::map():
// Argument #1 ($map) must be of type callable, int given" (catch: $catch,
// finally: $finally); a Future without a state throws Async\AsyncException
// "Future has no state".
//
// Difference from upstream: upstream settles a tree through its async
// iterator, which may spawn further workers while a mapper is suspended;
// here the one coroutine settles the tree in order, so a mapper that
// suspends delays the mappers after it.
//
// Lifetime: the subscription holds the source object (so a temporary
// source keeps its derived futures) and a reference to the scope; it is
// freed when the source settles or its future is destroyed. The run holds
// every future it is settling. Threading: the request's thread.

#ifndef ZAR_CORE_FUTURE_MAPPER_H_
#define ZAR_CORE_FUTURE_MAPPER_H_

#include "core/future/object.h"

namespace zar::core {

// The body of Async\Future::map/catch/finally.
void CreateMapper(zend_execute_data* execute_data, zval* return_value,
                  MapperType type);

}  // namespace zar::core

#endif  // ZAR_CORE_FUTURE_MAPPER_H_
