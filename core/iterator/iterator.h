// zend-async-ref core/iterator: async iterators, the ABI's
// zend_async_iterator_t. This header is the subsystem's map;
// docs/iterators.md is its full description.
//
// Files (all in core/iterator/, the OBJECT library zar_core_iterator);
// after "=" the upstream concepts each holds (php-async's iterator.c):
//
//   iterator.{h,cc}  the iterator = async_iterator_new, iterate(),
//                    iterator_microtask, coroutine_entry,
//                    async_iterator_run, async_iterator_run_in_coroutine,
//                    async_iterator_apply_exception, iterator_dtor
//   trace.{h,cc}     the "iterator ..." trace lines (ours: docs/tracing.md)
//
// An iterator walks an array (`array`, one reference held) or an object
// iterator (`zend_iterator`, borrowed: the caller frees it after the
// iteration) and calls, per element, either a userland callable (`fcall`,
// owned from then on: released with zend_fcall_release at the end) with
// (value, key) and the fcall's further parameters, or a C `handler` with
// (iterator, value, key). It IS a microtask: queued, it spawns one more
// worker coroutine in `scope` with `priority` while fewer than
// `concurrency` workers hold a slot (0 = no limit, upstream's default), and
// every worker runs the same loop, so the elements are shared out among
// them in order.
//
//   run(it)         the loop in the current coroutine
//                   (Async\AsyncException "The iterator cannot be run in
//                   the scheduler context" in the scheduler); queues the
//                   microtask first, so handlers that suspend let more workers
//                   start. Does not take the caller's reference.
//   run_in_coroutine(it, priority, throw_exception)
//                   spawns a coroutine in `scope` that runs the loop; it
//                   takes a slot and the caller's reference (released when
//                   it ends). throw_exception: a coroutine disposed before
//                   it started rethrows the iterator's exception.
//
// Stopping: a callable returning false, a handler returning FAILURE or
// anything throwing (also the object iterator's methods) finishes the
// iteration for every worker; a worker already inside a handler finishes
// that element. A thrown exception, unless it is a cancellation, is moved
// into `exception` (the previous one chained as its previous) and the
// scope is cancelled with CancellationException "Cancellation of the
// iterator due to an exception" (unless already cancelled); a cancellation
// stays in EG(exception) for the worker. The last worker to leave (or run()
// with no worker left) notifies `completion_event` once with (NULL,
// exception), closes it and drops the iterator's reference to it.
//
// Safe moving: while an object iterator's method runs (it may suspend),
// the iterator is "moving": the microtask is marked cancelled so no worker
// is spawned, and a worker that finds it moving leaves; afterwards the
// microtask is queued again if the scheduler consumed it meanwhile.
//
// Arrays: positions are bucket indexes of the mock's ordered table (which
// has no hash iterators): elements appended during the iteration are
// visited, deleted ones not yet reached are skipped; the position moves
// before the handler runs, as foreach does.
//
// Memory: the block is max(iterator_size, sizeof(zend_async_iterator_t))
// bytes, zeroed; the bytes after the ABI struct are the caller's (the
// reference keeps its own state in a separate allocation, found from the
// block's address). Lifetime: created with ref_count 1, the caller's
// reference; every worker holds one; microtask.dtor(microtask) drops one
// (upstream's callers' way) and ZEND_ASYNC_MICROTASK_RELEASE works too. The
// last one calls extended_dtor, releases the array and fcall, notifies a
// remaining completion_event, releases `exception` and frees the block.
// Threading: the request's thread.

#ifndef ZAR_CORE_ITERATOR_ITERATOR_H_
#define ZAR_CORE_ITERATOR_ITERATOR_H_

#include <cstddef>
#include <cstdint>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core {

// new_iterator_fn (ZEND_ASYNC_NEW_ITERATOR*): an iterator that has not
// started. `scope` NULL means the current scope.
// REQUIRES: array (an IS_ARRAY zval) or zend_iterator; fcall or handler.
// Otherwise: E_ERROR "Invalid iterator: futures and iterator are NULL" /
// "Invalid iterator function: fcall and internal are NULL" and NULL.
zend_async_iterator_t* NewIterator(
    zval* array, zend_object_iterator* zend_iterator, zend_fcall_t* fcall,
    zend_async_iterator_handler_t handler, zend_async_scope_t* scope,
    unsigned int concurrency, int32_t priority, size_t iterator_size);

// Iterator ids (trace lines) start again at 1 (RINIT).
void ResetIteratorIds();

}  // namespace zar::core

#endif  // ZAR_CORE_ITERATOR_ITERATOR_H_
