// Async iterators through the C ABI: ZEND_ASYNC_NEW_ITERATOR*, run,
// run_in_coroutine, concurrency, stopping, the exception, the completion
// event, the microtask's references (php-async iterator.c; the behaviours
// of php-async tests/iterate, which Async\iterate() builds on it, listed in
// docs/iterators.md).

#include "tests/iterator/support/iterator_test.h"

#include <algorithm>
#include <functional>
#include <string>

#include "gmock/gmock.h"

extern "C" {
#include "Zend/zend_exceptions.h"
}

namespace zar::iterator_testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Runs `body` in a coroutine spawned by the request's main script.
void InCoroutine(const std::function<void()>& body) {
  zar::testing::RunMain([&] { zar::testing::Spawn(body); });
}

// A handler iterator over `array` or the object iterator `source` with
// `probe` in extended_data.
zend_async_iterator_t* ProbeIterator(zval* array, zend_object_iterator* source,
                                     Probe* probe, unsigned int concurrency,
                                     zend_async_scope_t* scope) {
  zend_async_iterator_t* iterator = ZEND_ASYNC_NEW_ITERATOR_SCOPE(
      array, source, nullptr, ProbeHandler, scope, concurrency, 0);
  if (iterator != nullptr) iterator->extended_data = probe;
  return iterator;
}

zend_async_iterator_t* HandlerIterator(Zval& array, Probe* probe,
                                       unsigned int concurrency = 0,
                                       zend_async_scope_t* scope = nullptr) {
  return ProbeIterator(array.get(), nullptr, probe, concurrency, scope);
}

zend_async_iterator_t* SourceIterator(VectorIterator* source, Probe* probe,
                                      unsigned int concurrency = 0,
                                      zend_async_scope_t* scope = nullptr) {
  return ProbeIterator(nullptr, &source->base, probe, concurrency, scope);
}

// Gives `iterator` a completion event recording its exceptions into
// `exceptions` (when given) and counting its notifications into
// `notifications`.
void CountCompletions(zend_async_iterator_t* iterator, std::string* exceptions,
                      int* notifications) {
  iterator->completion_event = NewCompletionEvent(exceptions, nullptr);
  CountNotifications(iterator->completion_event, notifications);
}

// A child scope of the current one that the test owns (pinned, so it
// outlives its coroutines) until ReleaseChildScope. Its cancellation
// cancels its coroutines: the scope is not DISPOSE_SAFELY, which a new
// scope may inherit from its parent (php-async's do, from the main scope)
// and which turns a cancellation into leaving the coroutines running.
zend_async_scope_t* NewChildScope() {
  zend_async_scope_t* scope = ZEND_ASYNC_NEW_SCOPE(ZEND_ASYNC_CURRENT_SCOPE);
  ZEND_ASYNC_SCOPE_SET_OWNER_PINNED(scope);
  ZEND_ASYNC_SCOPE_CLR_DISPOSE_SAFELY(scope);
  return scope;
}

void ReleaseChildScope(zend_async_scope_t* scope) {
  ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(scope);
  ZEND_ASYNC_SCOPE_RELEASE(scope);
}

// Spawns a coroutine in `scope` that yields up to five times and records
// "finished" or "cancelled: <Class: message>" in `*outcome`; yields once so
// that it has started (and is suspended) when this returns.
void StartBystander(zend_async_scope_t* scope, std::string* outcome) {
  zar::testing::Spawn(
      [outcome] {
        for (int i = 0; i < 5; i++) {
          if (!zar::testing::Yield()) {
            *outcome = "cancelled: " + zar::testing::TakeExceptionText();
            return;
          }
        }
        *outcome = "finished";
      },
      scope);
  zar::testing::Yield();
}

void Release(zend_async_iterator_t* iterator) {
  iterator->microtask.dtor(&iterator->microtask);
}

TEST_F(IteratorTest, ANewIteratorIsAMicrotaskWithOneReferenceAndItsSettings) {
  InCoroutine([] {
    Log log;
    Probe probe(&log);
    Zval array = LongArray({1});
    zend_async_iterator_t* iterator = ZEND_ASYNC_NEW_ITERATOR(
        array.get(), nullptr, nullptr, ProbeHandler, 3, 7);
    ASSERT_NE(iterator, nullptr);
    EXPECT_EQ(iterator->microtask.ref_count, 1u);
    EXPECT_FALSE(iterator->microtask.is_cancelled);
    EXPECT_NE(iterator->microtask.handler, nullptr);
    EXPECT_NE(iterator->microtask.dtor, nullptr);
    EXPECT_NE(iterator->run, nullptr);
    EXPECT_NE(iterator->run_in_coroutine, nullptr);
    EXPECT_EQ(iterator->concurrency, 3u);
    EXPECT_EQ(iterator->priority, 7);
    EXPECT_EQ(iterator->scope, ZEND_ASYNC_CURRENT_SCOPE);
    EXPECT_EQ(iterator->extended_data, nullptr);
    EXPECT_EQ(iterator->completion_event, nullptr);
    EXPECT_EQ(iterator->exception, nullptr);
    Release(iterator);
    EXPECT_THAT(log, IsEmpty());
  });
}

// php-async tests/iterate/001, 002.
TEST_F(IteratorTest, RunCallsTheHandlerForEveryElementWithItsKeyInOrder) {
  Log log;
  InCoroutine([&] {
    Probe probe(&log);
    Zval array = AssocArray({{"a", 1}, {"b", 2}, {"c", 3}});
    zend_async_iterator_t* iterator = HandlerIterator(array, &probe);
    iterator->run(iterator);
    EXPECT_EQ(EG(exception), nullptr);
    Release(iterator);
  });
  EXPECT_THAT(log, ElementsAre("'a'=1", "'b'=2", "'c'=3"));
}

TEST_F(IteratorTest, NumericKeysArePassedAsIntegers) {
  Log log;
  InCoroutine([&] {
    Probe probe(&log);
    Zval array = LongArray({10, 20, 30});
    zend_async_iterator_t* iterator = HandlerIterator(array, &probe);
    iterator->run(iterator);
    Release(iterator);
  });
  EXPECT_THAT(log, ElementsAre("0=10", "1=20", "2=30"));
}

TEST_F(IteratorTest, AClosureIsCalledWithValueAndKey) {
  Log log;
  InCoroutine([&] {
    Probe probe(&log);
    Zval closure = ProbeClosure(&probe);
    Zval array = AssocArray({{"x", 5}, {"y", 6}});
    zend_async_iterator_t* iterator = ZEND_ASYNC_NEW_ITERATOR(
        array.get(), nullptr, NewFcall(closure), nullptr, 0, 0);
    iterator->run(iterator);
    EXPECT_EQ(EG(exception), nullptr);
    Release(iterator);
  });
  EXPECT_THAT(log, ElementsAre("'x'=5", "'y'=6"));
}

// php-async tests/iterate/003.
TEST_F(IteratorTest, AClosureReturningFalseStopsTheIteration) {
  Log log;
  int notifications = 0;
  InCoroutine([&] {
    Probe probe(&log, 0, "1");
    Zval closure = ProbeClosure(&probe, /*return_false_at_fail=*/true);
    Zval array = LongArray({1, 2, 3, 4});
    zend_async_iterator_t* iterator = ZEND_ASYNC_NEW_ITERATOR(
        array.get(), nullptr, NewFcall(closure), nullptr, 0, 0);
    CountCompletions(iterator, nullptr, &notifications);
    iterator->run(iterator);
    EXPECT_EQ(EG(exception), nullptr);
    EXPECT_EQ(iterator->exception, nullptr);
    EXPECT_EQ(iterator->completion_event, nullptr);
    Release(iterator);
  });
  EXPECT_THAT(log, ElementsAre("0=1", "1=2 returns false"));
  EXPECT_EQ(notifications, 1);
}

TEST_F(IteratorTest, AHandlerReturningFailureStopsTheIterationWithoutAnError) {
  Log log;
  InCoroutine([&] {
    Probe probe(&log, 0, "1", true);
    Zval array = LongArray({1, 2, 3});
    zend_async_iterator_t* iterator = HandlerIterator(array, &probe);
    iterator->run(iterator);
    EXPECT_EQ(EG(exception), nullptr);
    EXPECT_EQ(iterator->exception, nullptr);
    Release(iterator);
  });
  EXPECT_THAT(log, ElementsAre("0=1", "1=2"));
}

// php-async tests/iterate/004.
TEST_F(IteratorTest, AnEmptyArrayCallsNothingAndCompletesAtOnce) {
  Log log;
  int notifications = 0;
  std::string exceptions;
  bool disposed = false;
  InCoroutine([&] {
    Probe probe(&log);
    Zval array = LongArray({});
    zend_async_iterator_t* iterator = HandlerIterator(array, &probe);
    iterator->completion_event = NewCompletionEvent(&exceptions, &disposed);
    CountNotifications(iterator->completion_event, &notifications);
    iterator->run(iterator);
    EXPECT_EQ(iterator->completion_event, nullptr);
    EXPECT_TRUE(disposed);
    Release(iterator);
  });
  EXPECT_THAT(log, IsEmpty());
  EXPECT_EQ(notifications, 1);
  EXPECT_EQ(exceptions, "-;");
}

// php-async tests/iterate/005.
TEST_F(IteratorTest, AnObjectIteratorIsRewoundThenWalkedLikeForeach) {
  Log log;
  std::vector<std::pair<zend_long, zend_long>> items = {{7, 70}, {8, 80}};
  InCoroutine([&] {
    Probe probe(&log);
    VectorIterator* source = NewVectorIterator(&items, &log);
    zend_async_iterator_t* iterator = SourceIterator(source, &probe);
    iterator->run(iterator);
    EXPECT_EQ(EG(exception), nullptr);
    Release(iterator);
    FreeVectorIterator(source);
  });
  EXPECT_THAT(log,
              ElementsAre("rewind", "valid", "current", "key", "next", "7=70",
                          "valid", "current", "key", "next", "8=80", "valid"));
}

// php-async tests/iterate/006.
TEST_F(IteratorTest,
       AnExceptionInTheHandlerStopsTheRestAndBecomesTheException) {
  Log log;
  int notifications = 0;
  std::string exceptions;
  std::string bystander;
  InCoroutine([&] {
    Probe probe(&log, 0, "1");
    Zval array = LongArray({1, 2, 3});
    zend_async_scope_t* scope = NewChildScope();
    StartBystander(scope, &bystander);
    zend_async_iterator_t* iterator = HandlerIterator(array, &probe, 0, scope);
    CountCompletions(iterator, &exceptions, &notifications);
    iterator->run(iterator);
    // Moved out of EG(exception) into the iterator, and the scope cancelled.
    EXPECT_EQ(EG(exception), nullptr);
    ASSERT_NE(iterator->exception, nullptr);
    EXPECT_STREQ(zend_mock_exception_message(iterator->exception),
                 "failed at 1");
    Release(iterator);
    zar::testing::YieldTimes(2);
    ReleaseChildScope(scope);
  });
  EXPECT_THAT(log, ElementsAre("0=1", "1=2"));
  EXPECT_EQ(bystander,
            "cancelled: Async\\AsyncCancellation: Cancellation of the "
            "iterator due to an exception");
  EXPECT_EQ(notifications, 1);
  EXPECT_EQ(exceptions, "failed at 1;");
}

// php-async tests/iterate/008, 016.
TEST_F(IteratorTest, ConcurrencyTwoRunsAtMostTwoHandlersAtOnceInOrder) {
  Log log;
  Probe probe(&log, 2);
  int notifications = 0;
  InCoroutine([&] {
    Zval array = LongArray({1, 2, 3, 4, 5});
    zend_async_iterator_t* iterator = HandlerIterator(array, &probe, 2);
    CountCompletions(iterator, nullptr, &notifications);
    RunInCoroutineAndWait(iterator);
  });
  EXPECT_EQ(probe.max_running, 2);
  EXPECT_EQ(probe.calls, 5);
  EXPECT_EQ(notifications, 1);
  EXPECT_THAT(log, ElementsAre("start 0=1", "start 1=2", "end 0=1", "start 2=3",
                               "end 1=2", "start 3=4", "end 2=3", "start 4=5",
                               "end 3=4", "end 4=5"));
}

TEST_F(IteratorTest, ConcurrencyOneHandlesTheElementsOneAfterAnother) {
  Log log;
  Probe probe(&log, 1);
  InCoroutine([&] {
    Zval array = LongArray({1, 2, 3});
    zend_async_iterator_t* iterator = HandlerIterator(array, &probe, 1);
    iterator->completion_event = NewCompletionEvent(nullptr, nullptr);
    RunInCoroutineAndWait(iterator);
  });
  EXPECT_EQ(probe.max_running, 1);
  EXPECT_THAT(log, ElementsAre("start 0=1", "end 0=1", "start 1=2", "end 1=2",
                               "start 2=3", "end 2=3"));
}

TEST_F(IteratorTest, WithoutALimitASuspendedHandlerLetsAnotherWorkerStart) {
  Log log;
  Probe probe(&log, 3);
  InCoroutine([&] {
    Zval array = LongArray({1, 2, 3});
    zend_async_iterator_t* iterator = HandlerIterator(array, &probe, 0);
    iterator->completion_event = NewCompletionEvent(nullptr, nullptr);
    RunInCoroutineAndWait(iterator);
  });
  EXPECT_EQ(probe.max_running, 3);
  EXPECT_EQ(probe.calls, 3);
}

// php-async tests/iterate/011. The waiter is the completion event's only
// callback, as in upstream's iterate(): the worker that completes the
// iterator does so with its own cancellation in flight, and a notification
// made with an exception in flight stops after the callback that saw it.
TEST_F(IteratorTest, AnExceptionWithConcurrencyStopsNewElementsAndIsReported) {
  Log log;
  Probe probe(&log, 2, "0");
  std::string reported;
  InCoroutine([&] {
    Zval array = LongArray({1, 2, 3, 4, 5});
    zend_async_scope_t* scope = NewChildScope();
    zend_async_iterator_t* iterator = HandlerIterator(array, &probe, 2, scope);
    iterator->completion_event = NewCompletionEvent(nullptr, nullptr);
    zend_async_event_t* completion = iterator->completion_event;
    ZEND_ASYNC_EVENT_ADD_REF(completion);
    iterator->run_in_coroutine(iterator, 0, false);
    EXPECT_FALSE(zar::testing::WaitFor(completion));
    reported = zar::testing::TakeExceptionText();
    EXPECT_TRUE(ZEND_ASYNC_EVENT_IS_CLOSED(completion));
    ZEND_ASYNC_EVENT_RELEASE(completion);
    ReleaseChildScope(scope);
  });
  // Element 1 was already being handled; its worker is cancelled with the
  // scope while it yields; elements 2 to 4 are never handed out.
  EXPECT_THAT(
      log, ElementsAre("start 0=1", "start 1=2", "end 0=1", "cancelled 1=2"));
  EXPECT_EQ(reported, "Exception: failed at 0");
}

// run() in the caller does not take a worker slot: with concurrency 1 the
// caller and one worker handle elements at once.
TEST_F(IteratorTest, RunInTheCallerTakesNoSlotSoOneWorkerJoinsIt) {
  Log log;
  Probe probe(&log, 2);
  InCoroutine([&] {
    Zval array = LongArray({1, 2, 3});
    zend_async_iterator_t* iterator = HandlerIterator(array, &probe, 1);
    iterator->completion_event = NewCompletionEvent(nullptr, nullptr);
    zend_async_event_t* completion = iterator->completion_event;
    ZEND_ASYNC_EVENT_ADD_REF(completion);
    iterator->run(iterator);
    if (iterator->completion_event != nullptr) {
      zar::testing::WaitFor(completion);
    }
    ZEND_ASYNC_EVENT_RELEASE(completion);
    Release(iterator);
  });
  EXPECT_EQ(probe.max_running, 2);
  EXPECT_EQ(probe.calls, 3);
}

TEST_F(IteratorTest, RunInCoroutineRunsTheLoopInANewCoroutineOfTheScope) {
  Log log;
  zend_coroutine_t* caller = nullptr;
  zend_coroutine_t* runner = nullptr;
  InCoroutine([&] {
    caller = ZEND_ASYNC_CURRENT_COROUTINE;
    Zval array = LongArray({1});
    Zval closure;
    mock_zend::MakeCallable(closure.get(), [&](mock_zend::Call&) {
      runner = ZEND_ASYNC_CURRENT_COROUTINE;
      log.push_back("called");
    });
    zend_async_iterator_t* iterator = ZEND_ASYNC_NEW_ITERATOR(
        array.get(), nullptr, NewFcall(closure), nullptr, 0, 0);
    iterator->run_in_coroutine(iterator, 0, false);
    log.push_back("spawned");
  });
  EXPECT_THAT(log, ElementsAre("spawned", "called"));
  EXPECT_NE(runner, nullptr);
  EXPECT_NE(runner, caller);
}

int extended_dtor_calls = 0;
void CountExtendedDtor(zend_async_iterator_t*) { extended_dtor_calls++; }

TEST_F(IteratorTest, TheLastReferenceCallsExtendedDtorOnce) {
  extended_dtor_calls = 0;
  InCoroutine([&] {
    Log log;
    Probe probe(&log);
    Zval array = LongArray({1});
    zend_async_iterator_t* iterator = HandlerIterator(array, &probe);
    iterator->extended_dtor = CountExtendedDtor;
    ZEND_ASYNC_MICROTASK_ADD_REF(&iterator->microtask);
    Release(iterator);
    EXPECT_EQ(extended_dtor_calls, 0);
    EXPECT_EQ(iterator->microtask.ref_count, 1u);
    Release(iterator);
  });
  EXPECT_EQ(extended_dtor_calls, 1);
}

TEST_F(IteratorTest, MicrotaskReleaseFreesTheIteratorToo) {
  extended_dtor_calls = 0;
  InCoroutine([&] {
    Zval array = LongArray({1});
    zend_async_iterator_t* iterator = ZEND_ASYNC_NEW_ITERATOR(
        array.get(), nullptr, nullptr, ProbeHandler, 0, 0);
    iterator->extended_dtor = CountExtendedDtor;
    zend_async_microtask_t* microtask = &iterator->microtask;
    ZEND_ASYNC_MICROTASK_RELEASE(microtask);
  });
  EXPECT_EQ(extended_dtor_calls, 1);
}

TEST_F(IteratorTest, TheIteratorHoldsItsOwnReferenceToTheArray) {
  Log log;
  InCoroutine([&] {
    Probe probe(&log);
    zend_async_iterator_t* iterator = nullptr;
    {
      Zval array = LongArray({4, 5});
      iterator = HandlerIterator(array, &probe);
    }  // the caller's reference is gone
    iterator->run(iterator);
    Release(iterator);
  });
  EXPECT_THAT(log, ElementsAre("0=4", "1=5"));
}

// Elements appended while a handler runs are visited; deleted ones not
// reached yet are skipped (the position is foreach's).
TEST_F(IteratorTest, ElementsAppendedDuringTheIterationAreVisited) {
  Log log;
  InCoroutine([&] {
    Zval array = LongArray({1, 2});
    Zval closure;
    mock_zend::MakeCallable(closure.get(), [&](mock_zend::Call& call) {
      log.push_back(Render(call.arg(1)) + "=" + Render(call.arg(0)));
      if (Z_LVAL_P(call.arg(0)) == 1) add_next_index_long(array.get(), 3);
    });
    zend_async_iterator_t* iterator = ZEND_ASYNC_NEW_ITERATOR(
        array.get(), nullptr, NewFcall(closure), nullptr, 0, 0);
    iterator->run(iterator);
    Release(iterator);
  });
  EXPECT_THAT(log, ElementsAre("0=1", "1=2", "2=3"));
}

TEST_F(IteratorTest, ElementsDeletedBeforeTheyAreReachedAreSkipped) {
  Log log;
  InCoroutine([&] {
    Zval array = LongArray({1, 2, 3});
    Zval closure;
    mock_zend::MakeCallable(closure.get(), [&](mock_zend::Call& call) {
      log.push_back(Render(call.arg(1)) + "=" + Render(call.arg(0)));
      if (Z_LVAL_P(call.arg(0)) == 1) {
        zend_hash_index_del(Z_ARRVAL_P(array.get()), 1);
      }
    });
    zend_async_iterator_t* iterator = ZEND_ASYNC_NEW_ITERATOR(
        array.get(), nullptr, NewFcall(closure), nullptr, 0, 0);
    iterator->run(iterator);
    Release(iterator);
  });
  EXPECT_THAT(log, ElementsAre("0=1", "2=3"));
}

// php-async tests/iterate/014 (the source throws before the first element).
TEST_F(IteratorTest, AnObjectIteratorThrowingInRewindStopsBeforeAnyCall) {
  Log log;
  std::string exceptions;
  int notifications = 0;
  std::vector<std::pair<zend_long, zend_long>> items = {{0, 1}};
  InCoroutine([&] {
    Probe probe(&log);
    VectorIterator* source = NewVectorIterator(&items, &log);
    source->throw_in = "rewind";
    zend_async_scope_t* scope = NewChildScope();
    zend_async_iterator_t* iterator = SourceIterator(source, &probe, 0, scope);
    CountCompletions(iterator, &exceptions, &notifications);
    iterator->run(iterator);
    EXPECT_EQ(EG(exception), nullptr);
    Release(iterator);
    FreeVectorIterator(source);
    ReleaseChildScope(scope);
  });
  EXPECT_THAT(log, ElementsAre("rewind"));
  EXPECT_EQ(notifications, 1);
  EXPECT_EQ(exceptions, "iterator rewind;");
}

TEST_F(IteratorTest, AnObjectIteratorThrowingInCurrentStopsTheIteration) {
  Log log;
  std::string exceptions;
  int notifications = 0;
  std::vector<std::pair<zend_long, zend_long>> items = {{0, 1}, {1, 2}};
  InCoroutine([&] {
    Probe probe(&log);
    VectorIterator* source = NewVectorIterator(&items, &log);
    source->throw_in = "current";
    zend_async_scope_t* scope = NewChildScope();
    zend_async_iterator_t* iterator = SourceIterator(source, &probe, 0, scope);
    CountCompletions(iterator, &exceptions, &notifications);
    iterator->run(iterator);
    Release(iterator);
    FreeVectorIterator(source);
    ReleaseChildScope(scope);
  });
  EXPECT_THAT(log, ElementsAre("rewind", "valid", "current"));
  EXPECT_EQ(notifications, 1);
  EXPECT_EQ(exceptions, "iterator current;");
}

// php-async tests/iterate/018, 019: a source that suspends in next() while
// two workers share it; each element is handed out once, in order.
TEST_F(IteratorTest, ASuspendingObjectIteratorHandsOutEachElementOnce) {
  Log log;
  Log source_log;
  std::vector<std::pair<zend_long, zend_long>> items = {
      {0, 10}, {1, 11}, {2, 12}, {3, 13}};
  Probe probe(&log, 1);
  InCoroutine([&] {
    VectorIterator* source = NewVectorIterator(&items, &source_log);
    source->yield_in = "next";
    zend_async_iterator_t* iterator = SourceIterator(source, &probe, 2);
    iterator->completion_event = NewCompletionEvent(nullptr, nullptr);
    RunInCoroutineAndWait(iterator);
    FreeVectorIterator(source);
  });
  EXPECT_EQ(probe.calls, 4);
  EXPECT_LE(probe.max_running, 2);
  std::vector<std::string> starts;
  for (const std::string& entry : log) {
    if (entry.rfind("start ", 0) == 0) starts.push_back(entry);
  }
  EXPECT_THAT(starts, ElementsAre("start 0=10", "start 1=11", "start 2=12",
                                  "start 3=13"));
}

// php-async tests/iterate/015: values handed to the closure are copies the
// iterator releases.
TEST_F(IteratorTest, RefcountedValuesAreReleasedAfterEachCall) {
  Log log;
  InCoroutine([&] {
    Zval array;
    array_init(array.get());
    add_next_index_string(array.get(), "one");
    add_next_index_string(array.get(), "two");
    Zval closure;
    mock_zend::MakeCallable(closure.get(), [&](mock_zend::Call& call) {
      log.push_back(Render(call.arg(0)));
    });
    zend_async_iterator_t* iterator = ZEND_ASYNC_NEW_ITERATOR(
        array.get(), nullptr, NewFcall(closure), nullptr, 0, 0);
    iterator->run(iterator);
    Release(iterator);
  });
  EXPECT_THAT(log, ElementsAre("'one'", "'two'"));
}

// Cancelling the iterator's scope cancels its workers; the cancellation is
// not the iterator's exception.
TEST_F(IteratorTest, CancellingTheScopeStopsTheWorkersWithoutAnException) {
  Log log;
  Probe probe(&log, 2);
  std::string exceptions;
  int notifications = 0;
  InCoroutine([&] {
    Zval array = LongArray({1, 2, 3, 4});
    zend_async_scope_t* scope = NewChildScope();
    zend_async_iterator_t* iterator = HandlerIterator(array, &probe, 2, scope);
    CountCompletions(iterator, &exceptions, &notifications);
    zend_async_event_t* completion = iterator->completion_event;
    ZEND_ASYNC_EVENT_ADD_REF(completion);
    iterator->run_in_coroutine(iterator, 0, false);
    zar::testing::Yield();
    ZEND_ASYNC_SCOPE_CANCEL(
        scope,
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION, "stop"),
        true, ZEND_ASYNC_SCOPE_IS_DISPOSE_SAFELY(scope));
    zend_clear_exception();
    zar::testing::WaitFor(completion);
    ZEND_ASYNC_EVENT_RELEASE(completion);
    ReleaseChildScope(scope);
  });
  EXPECT_LT(probe.calls, 4);
  EXPECT_EQ(notifications, 1);
  EXPECT_EQ(exceptions, "-;");
}

// php-async tests/iterate/018: moving an object iterator must not leave
// the spawning microtask cancelled, so workers reach the limit.
TEST_F(IteratorTest, AnObjectIteratorReachesTheConcurrencyLimit) {
  Log log;
  Probe probe(&log, 3);
  std::vector<std::pair<zend_long, zend_long>> items;
  for (zend_long i = 1; i <= 8; i++) items.emplace_back(i, i);
  InCoroutine([&] {
    VectorIterator* source = NewVectorIterator(&items, nullptr);
    zend_async_iterator_t* iterator = SourceIterator(source, &probe, 4);
    iterator->completion_event = NewCompletionEvent(nullptr, nullptr);
    RunInCoroutineAndWait(iterator);
    FreeVectorIterator(source);
  });
  EXPECT_EQ(probe.max_running, 4);
  EXPECT_EQ(probe.calls, 8);
}

// php-async tests/iterate/017: the completion event waits for the last
// handler still running when the elements have run out.
TEST_F(IteratorTest, CompletionWaitsForEveryHandlerStillRunning) {
  Log log;
  std::string exceptions;
  InCoroutine([&] {
    Zval array = LongArray({1, 2, 3, 4});
    Zval closure;
    mock_zend::MakeCallable(closure.get(), [&](mock_zend::Call& call) {
      const zend_long value = Z_LVAL_P(call.arg(0));
      log.push_back("start " + std::to_string(value));
      zar::testing::YieldTimes(value == 4 ? 10 : 1);
      log.push_back("end " + std::to_string(value));
    });
    zend_async_iterator_t* iterator = ZEND_ASYNC_NEW_ITERATOR(
        array.get(), nullptr, NewFcall(closure), nullptr, 2, 0);
    iterator->completion_event = NewCompletionEvent(&exceptions, nullptr);
    zend_async_event_t* completion = iterator->completion_event;
    int notifications = 0;
    CountNotifications(completion, &notifications);
    ZEND_ASYNC_EVENT_ADD_REF(completion);
    iterator->run_in_coroutine(iterator, 0, false);
    zar::testing::WaitFor(completion);
    log.push_back("completed " + std::to_string(notifications));
    ZEND_ASYNC_EVENT_RELEASE(completion);
  });
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log.back(), "completed 1");
  EXPECT_EQ(std::count(log.begin(), log.end(), "end 4"), 1);
  EXPECT_EQ(log[log.size() - 2], "end 4");
}

// A worker disposed before it ever ran (its scope cancelled first) gives
// back its slot and its reference: the iteration completes, nothing leaks.
TEST_F(IteratorTest, AWorkerCancelledBeforeItStartsCompletesTheIteration) {
  Log log;
  Probe probe(&log);
  std::string exceptions;
  int notifications = 0;
  InCoroutine([&] {
    Zval array = LongArray({1, 2});
    zend_async_scope_t* scope = NewChildScope();
    zend_async_iterator_t* iterator = HandlerIterator(array, &probe, 1, scope);
    CountCompletions(iterator, &exceptions, &notifications);
    iterator->run_in_coroutine(iterator, 0, false);
    ZEND_ASYNC_SCOPE_CANCEL(
        scope,
        zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION, "stop"),
        true, ZEND_ASYNC_SCOPE_IS_DISPOSE_SAFELY(scope));
    zend_clear_exception();
    zar::testing::YieldTimes(2);
    ReleaseChildScope(scope);
  });
  EXPECT_THAT(log, IsEmpty());
  EXPECT_EQ(notifications, 1);
  EXPECT_EQ(exceptions, "-;");
}

// An object iterator without get_current_key hands out the keys 0, 1, ...:
// "If this handler is not provided auto-incrementing integer keys will be
// used" (php-src Zend/zend_iterators.h), as foreach does.
TEST_F(IteratorTest, AnObjectIteratorWithoutKeyMethodGivesIntegerKeys) {
  Log log;
  std::vector<std::pair<zend_long, zend_long>> items = {{5, 50}, {6, 60}};
  InCoroutine([&] {
    Probe probe(&log);
    VectorIterator* source = NewVectorIterator(&items, nullptr);
    zend_object_iterator_funcs funcs = *source->base.funcs;
    funcs.get_current_key = nullptr;
    source->base.funcs = &funcs;
    zend_async_iterator_t* iterator = SourceIterator(source, &probe);
    iterator->run(iterator);
    Release(iterator);
    FreeVectorIterator(source);
  });
  EXPECT_THAT(log, ElementsAre("0=50", "1=60"));
}

TEST_F(IteratorTest, AnObjectIteratorThrowingInNextStopsBeforeTheCall) {
  Log log;
  std::string exceptions;
  std::string bystander;
  int notifications = 0;
  std::vector<std::pair<zend_long, zend_long>> items = {{0, 1}, {1, 2}};
  InCoroutine([&] {
    Probe probe(&log);
    VectorIterator* source = NewVectorIterator(&items, &log);
    source->throw_in = "next";
    zend_async_scope_t* scope = NewChildScope();
    StartBystander(scope, &bystander);
    zend_async_iterator_t* iterator = SourceIterator(source, &probe, 0, scope);
    CountCompletions(iterator, &exceptions, &notifications);
    iterator->run(iterator);
    EXPECT_EQ(EG(exception), nullptr);
    Release(iterator);
    FreeVectorIterator(source);
    zar::testing::YieldTimes(2);
    ReleaseChildScope(scope);
  });
  EXPECT_THAT(log, ElementsAre("rewind", "valid", "current", "key", "next"));
  EXPECT_EQ(bystander,
            "cancelled: Async\\AsyncCancellation: Cancellation of the "
            "iterator due to an exception");
  EXPECT_EQ(notifications, 1);
  EXPECT_EQ(exceptions, "iterator next;");
}

}  // namespace
}  // namespace zar::iterator_testing
