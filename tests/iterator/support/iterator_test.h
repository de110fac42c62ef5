// zend-async-ref iterator tests: the fixture and helpers.
//
// Everything here reaches async iterators through the ABI
// (ZEND_ASYNC_NEW_ITERATOR*, the ZEND_ASYNC_ITERATOR_FIELDS, run,
// run_in_coroutine, microtask.dtor) and PHP's own structs (zend_fcall_t,
// zend_object_iterator), so the suite judges any implementation.
//
//   IteratorTest      RequestFixture with the async extension under test;
//                     its TearDown fails on leaked blocks or live objects.
//   Probe             what a C handler or a closure does per element: logs
//                     "<key>=<value>" (with the worker's stage), may yield
//                     or fail at a chosen key; reached from the iterator
//                     through extended_data.
//   ProbeHandler      the zend_async_iterator_handler_t using the Probe in
//                     iterator->extended_data.
//   NewFcall          a zend_fcall_t for a closure with the two (value,
//                     key) slots, as Async\iterate() builds it.
//   CompletionEvent   a plain event counting its notifications, recording
//                     the exception message of each (the iterator's
//                     completion_event).
//   VectorIterator    a zend_object_iterator over a list of (key, value)
//                     longs, logging its method calls and throwing or
//                     yielding in a chosen one.
//
// Threading: the request's thread.

#ifndef ZAR_TESTS_ITERATOR_SUPPORT_ITERATOR_TEST_H_
#define ZAR_TESTS_ITERATOR_SUPPORT_ITERATOR_TEST_H_

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "mock_zend/callable.h"
#include "mock_zend/zval.h"
#include "tests/support/implementation.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "Zend/zend_iterators.h"
#include "php.h"
}

namespace zar::iterator_testing {

using mock_zend::Render;
using mock_zend::Zval;

using IteratorTest = zar::testing::AsyncTest;

// The events of a scenario, in order.
using Log = std::vector<std::string>;

// What a handler does per element.
struct Probe {
  explicit Probe(Log* log, int yields = 0, std::string fail_at = "",
                 bool fail_by_failure = false)
      : log(log),
        yields(yields),
        fail_at(std::move(fail_at)),
        fail_by_failure(fail_by_failure) {}

  Log* log;
  // Yields this many times between "start" and "end" (0: logs "<k>=<v>"
  // only, without start/end); a yield that resumes with an exception logs
  // "cancelled" instead of "end" and leaves the exception in flight.
  int yields = 0;
  // The key (rendered) at which the handler fails: returns FAILURE
  // (`fail_by_failure`) or throws Exception "failed at <key>".
  std::string fail_at;
  bool fail_by_failure = false;
  // Handlers running now, and the most at once.
  int running = 0;
  int max_running = 0;
  // Calls so far.
  int calls = 0;
};

// The C handler: extended_data is the Probe.
zend_result ProbeHandler(zend_async_iterator_t* iterator, zval* current,
                         zval* key);

// What ProbeHandler does, for closures too: returns false for a failure.
bool RunProbe(Probe* probe, zval* current, zval* key);

// A zend_fcall_t (ecalloc'd, the iterator takes it) calling `closure` with
// two UNDEF parameter slots, as Async\iterate() builds it.
zend_fcall_t* NewFcall(Zval& closure);

// A closure running RunProbe and returning `result` (NULL, true, false) or
// throwing.
Zval ProbeClosure(Probe* probe, bool return_false_at_fail = false);

// An array [k => v] of longs (int keys) or, with string keys, of longs.
Zval LongArray(std::vector<zend_long> values);
Zval AssocArray(std::vector<std::pair<std::string, zend_long>> entries);

// A completion event: a plain event (ref_count 1) counting notifications.
struct CompletionEvent {
  zend_async_event_t base;
  int notifications;
  std::string* exceptions;  // "message;" per notification (or "-;")
  bool* disposed;
};
zend_async_event_t* NewCompletionEvent(std::string* exceptions, bool* disposed);
// Hands `event` a callback counting into `*count` (one reference).
void CountNotifications(zend_async_event_t* event, int* count);
// Runs `iterator` in its own coroutines (run_in_coroutine, which takes the
// caller's reference) and waits, in the current coroutine, for its
// completion event (set by the caller): WaitFor's result.
bool RunInCoroutineAndWait(zend_async_iterator_t* iterator);

// A zend_object_iterator over (key, value) longs.
struct VectorIterator {
  zend_object_iterator base;
  std::vector<std::pair<zend_long, zend_long>>* items;
  size_t index;
  zval current;
  Log* log;
  std::string throw_in;  // "rewind", "valid", "current", "key", "next"
  std::string yield_in;  // a method that yields once (a suspending source)
};
// emalloc'd; free with FreeVectorIterator (the iterator borrows it).
VectorIterator* NewVectorIterator(
    std::vector<std::pair<zend_long, zend_long>>* items, Log* log);
void FreeVectorIterator(VectorIterator* iterator);

}  // namespace zar::iterator_testing

#endif  // ZAR_TESTS_ITERATOR_SUPPORT_ITERATOR_TEST_H_
