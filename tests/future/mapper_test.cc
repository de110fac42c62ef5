// Async\Future::map(), catch() and finally() (php-async future.c:
// async_future_create_mapper, process_future_mapper; tests/future 001-015,
// 025, 028, 035-038).

#include <string>

#include "gmock/gmock.h"
#include "tests/future/support/future_test.h"

extern "C" {
#include "Zend/zend_gc.h"
}

namespace zar::future_testing {
namespace {

using mock_zend::Call;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using zar::testing::TakeExceptionText;

// A mapper that logs "<name>: <argument>" and returns f(argument).
Zval Mapper(Log* log, std::string name,
            std::function<void(Call&)> result = nullptr) {
  return Closure([log, name, result](Call& call) {
    std::string argument = call.argc() == 0 ? "" : Render(call.arg(0));
    if (call.argc() > 0 && Z_TYPE_P(call.arg(0)) == IS_OBJECT &&
        instanceof_function(Z_OBJCE_P(call.arg(0)), zend_ce_throwable)) {
      argument = zend_mock_exception_message(Z_OBJ_P(call.arg(0)));
    }
    log->push_back(name + ": " + argument);
    if (result) result(call);
  });
}

auto Times(zend_long n) {
  return
      [n](Call& call) { ZVAL_LONG(call.result(), Z_LVAL_P(call.arg(0)) * n); };
}

auto Plus(zend_long n) {
  return
      [n](Call& call) { ZVAL_LONG(call.result(), Z_LVAL_P(call.arg(0)) + n); };
}

auto Returns(zend_long n) {
  return [n](Call& call) { ZVAL_LONG(call.result(), n); };
}

auto Throws(const char* message) {
  return
      [message](Call&) { zend_throw_exception(zend_ce_exception, message, 0); };
}

Zval Derive(Zval& future, const char* method, Zval& mapper) {
  return CallMethod(future, method, {mapper.get()});
}

void Complete(Zval& state, zend_long value) {
  Zval v = Zval::Long(value);
  CallMethod(state, "complete", {v.get()});
}

void Fail(Zval& state, const char* message) {
  Zval error = NewException(zend_ce_exception, message);
  CallMethod(state, "error", {error.get()});
}

TEST_F(FutureTest, MapTransformsTheResult) {
  // tests/future/001-map-basic
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval mapper = Mapper(&log, "map", Times(2));
  Zval mapped = Derive(future, "map", mapper);
  Complete(state, 21);
  log.push_back("result " + AwaitText(mapped));
  EXPECT_THAT(log, ElementsAre("map: 21", "result 42"));
}

TEST_F(FutureTest, MapChainRunsEachStepInOrder) {
  // tests/future/002-map-chain
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval m1 = Mapper(&log, "Map1", Times(2));
  Zval m2 = Mapper(&log, "Map2", Plus(10));
  Zval m3 = Mapper(&log, "Map3", Times(3));
  Zval step1 = Derive(future, "map", m1);
  Zval step2 = Derive(step1, "map", m2);
  Zval result = Derive(step2, "map", m3);
  Complete(state, 5);
  log.push_back("Final: " + AwaitText(result));
  EXPECT_THAT(log, ElementsAre("Map1: 5", "Map2: 10", "Map3: 20", "Final: 60"));
}

TEST_F(FutureTest, AMapperThatReturnsNothingGivesNull) {
  // tests/future/003-map-no-return
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval mapper = Mapper(&log, "map");
  Zval mapped = Derive(future, "map", mapper);
  Complete(state, 1);
  EXPECT_EQ(AwaitText(mapped), "null");
}

TEST_F(FutureTest, MapIsSkippedOnFailureAndTheErrorPassesOn) {
  // tests/future/004-map-propagates-error
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval mapper = Mapper(&log, "should not run");
  Zval mapped = Derive(future, "map", mapper);
  Fail(state, "Source error");
  log.push_back(AwaitText(mapped));
  EXPECT_THAT(log, ElementsAre("Exception: Source error"));
}

TEST_F(FutureTest, AMapperThatThrowsRejectsTheDerivedFuture) {
  // tests/future/005-map-throws-exception
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval mapper = Mapper(&log, "Processing", Throws("Map error"));
  Zval mapped = Derive(future, "map", mapper);
  Complete(state, 7);
  log.push_back(AwaitText(mapped));
  EXPECT_THAT(log, ElementsAre("Processing: 7", "Exception: Map error"));
}

TEST_F(FutureTest, MapOnASettledFutureRunsInANewCoroutine) {
  // tests/future/006-map-already-completed
  Log log;
  Zval value = Zval::Long(42);
  Zval done = CallStatic(FutureClass(), "completed", {value.get()});
  Zval mapper = Mapper(&log, "Mapping", Times(2));
  Zval mapped = Derive(done, "map", mapper);
  log.push_back("map() returned");  // the mapper has not run yet
  log.push_back("Result: " + AwaitText(mapped));
  EXPECT_THAT(log, ElementsAre("map() returned", "Mapping: 42", "Result: 84"));
}

TEST_F(FutureTest, CatchHandlesTheErrorAndIsSkippedOnSuccess) {
  // tests/future/007-catch-basic, 008-catch-not-called-on-success
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval handler = Mapper(&log, "catch", Returns(100));
  Zval caught = Derive(future, "catch", handler);
  Fail(state, "Oops");
  log.push_back("result " + AwaitText(caught));

  Zval state2 = NewState();
  Zval future2 = NewFuture(state2);
  Zval skipped = Mapper(&log, "should not run");
  Zval passed = Derive(future2, "catch", skipped);
  Complete(state2, 5);
  log.push_back("result " + AwaitText(passed));

  EXPECT_THAT(log, ElementsAre("catch: Oops", "result 100", "result 5"));
}

TEST_F(FutureTest, ACatchHandlerThatThrowsChainsTheOriginalError) {
  // tests/future/009-catch-throws-exception
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval handler = Mapper(&log, "catch", Throws("Catch error"));
  Zval caught = Derive(future, "catch", handler);
  Fail(state, "Original");
  Zval result = CallMethod(caught, "await");
  ASSERT_NE(EG(exception), nullptr);
  zend_object* thrown = EG(exception);
  log.push_back(zend_mock_exception_message(thrown));
  zend_object* previous = zend_mock_exception_previous(thrown);
  log.push_back(previous != nullptr ? zend_mock_exception_message(previous)
                                    : "(none)");
  zend_clear_exception();
  // catch() took the original: only the new error is the chain's.
  EXPECT_THAT(log, ElementsAre("catch: Original", "Catch error", "(none)"));
}

TEST_F(FutureTest, MapThenCatchRecoversFromTheMappersError) {
  // tests/future/010-map-catch-chain
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval map = Mapper(&log, "Map", Throws("Map failed"));
  Zval handler = Mapper(&log, "Caught", Returns(999));
  Zval mapped = Derive(future, "map", map);
  Zval result = Derive(mapped, "catch", handler);
  Complete(state, 42);
  log.push_back("Result: " + AwaitText(result));
  EXPECT_THAT(log, ElementsAre("Map: 42", "Caught: Map failed", "Result: 999"));
}

TEST_F(FutureTest, FinallyRunsEitherWayAndPassesTheOutcomeOn) {
  // tests/future/011-finally-on-success, 012-finally-on-error
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval cleanup = Mapper(&log, "finally", Returns(0));
  Zval after = Derive(future, "finally", cleanup);
  Complete(state, 42);
  log.push_back(AwaitText(after));

  Zval state2 = NewState();
  Zval future2 = NewFuture(state2);
  Zval cleanup2 = Mapper(&log, "finally");
  Zval after2 = Derive(future2, "finally", cleanup2);
  Fail(state2, "Test error");
  log.push_back(AwaitText(after2));

  EXPECT_THAT(log, ElementsAre("finally: 42", "42", "finally: Test error",
                               "Exception: Test error"));
}

TEST_F(FutureTest, AFinallyHandlerThatThrowsReplacesTheResult) {
  // tests/future/013-finally-throws-exception
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval cleanup = Mapper(&log, "Finally throwing", Throws("Finally error"));
  Zval after = Derive(future, "finally", cleanup);
  Complete(state, 42);
  log.push_back(AwaitText(after));
  EXPECT_THAT(log,
              ElementsAre("Finally throwing: 42", "Exception: Finally error"));
}

TEST_F(FutureTest, AFinallyErrorHasTheSourcesErrorAsPrevious) {
  // tests/future/035-finally_exception_chain
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval cleanup = Mapper(&log, "finally", Throws("finally boom"));
  Zval after = Derive(future, "finally", cleanup);
  Fail(state, "parent boom");
  CallMethod(after, "await");
  ASSERT_NE(EG(exception), nullptr);
  log.push_back(zend_mock_exception_message(EG(exception)));
  zend_object* previous = zend_mock_exception_previous(EG(exception));
  log.push_back(previous != nullptr ? zend_mock_exception_message(previous)
                                    : "(none)");
  zend_clear_exception();
  EXPECT_THAT(
      log, ElementsAre("finally: parent boom", "finally boom", "parent boom"));
}

TEST_F(FutureTest, MapCatchFinallyChainSkipsTheCatchOnSuccess) {
  // tests/future/014-map-catch-finally-chain
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval map = Mapper(&log, "Map", Times(2));
  Zval handler = Mapper(&log, "Catch should not be called", Returns(0));
  Zval cleanup = Mapper(&log, "Finally");
  Zval mapped = Derive(future, "map", map);
  Zval caught = Derive(mapped, "catch", handler);
  Zval result = Derive(caught, "finally", cleanup);
  Complete(state, 21);
  log.push_back("Result: " + AwaitText(result));
  EXPECT_THAT(log, ElementsAre("Map: 21", "Finally: 42", "Result: 42"));
}

TEST_F(FutureTest, EverySubscriberSeesTheResultInSubscriptionOrder) {
  // tests/future/015-multiple-subscribers
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval m1 = Mapper(&log, "Map1", Times(2));
  Zval m2 = Mapper(&log, "Map2", Times(3));
  Zval map1 = Derive(future, "map", m1);
  Zval map2 = Derive(future, "map", m2);
  Complete(state, 10);
  log.push_back("Map1 result: " + AwaitText(map1));
  log.push_back("Map2 result: " + AwaitText(map2));
  EXPECT_THAT(log, ElementsAre("Map1: 10", "Map2: 10", "Map1 result: 20",
                               "Map2 result: 30"));
}

TEST_F(FutureTest, ATreeSettlesBreadthFirstInOneRun) {
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval a = Mapper(&log, "a", Plus(1));
  Zval b = Mapper(&log, "b", Plus(2));
  Zval a1 = Mapper(&log, "a1", Plus(10));
  Zval b1 = Mapper(&log, "b1", Plus(20));
  Zval fa = Derive(future, "map", a);
  Zval fb = Derive(future, "map", b);
  Zval fa1 = Derive(fa, "map", a1);
  Zval fb1 = Derive(fb, "map", b1);
  Complete(state, 0);
  log.push_back(AwaitText(fa1) + " " + AwaitText(fb1));
  CallMethod(fa, "ignore");
  CallMethod(fb, "ignore");
  EXPECT_THAT(log, ElementsAre("a: 0", "b: 0", "a1: 1", "b1: 2", "11 22"));
}

TEST_F(FutureTest, CatchOnAnAlreadyRejectedFutureHandlesIt) {
  // tests/future/025-future_exception_with_catch
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Fail(state, "Test error");
  Zval handler = Closure([](Call& call) {
    std::string text = std::string("caught: ") +
                       zend_mock_exception_message(Z_OBJ_P(call.arg(0)));
    ZVAL_STRINGL(call.result(), text.data(), text.size());
  });
  Zval caught = Derive(future, "catch", handler);
  EXPECT_EQ(AwaitText(caught), "'caught: Test error'");
  ExpectNoWarningsAfterLettingGo({&caught, &future, &state});
}

TEST_F(FutureTest, FinallyOnSettledFuturesRunsAndPassesTheOutcomeOn) {
  // tests/future/037-finally_already_completed
  Log log;
  Zval ten = Zval::Long(10);
  Zval ok = CallStatic(FutureClass(), "completed", {ten.get()});
  Zval cleanup = Mapper(&log, "finally-ok");
  Zval r1 = Derive(ok, "finally", cleanup);
  log.push_back(AwaitText(r1));
  Zval error = NewException(zend_ce_exception, "nope");
  Zval bad = CallStatic(FutureClass(), "failed", {error.get()});
  Zval cleanup2 = Mapper(&log, "finally-err");
  Zval r2 = Derive(bad, "finally", cleanup2);
  log.push_back(AwaitText(r2));
  EXPECT_THAT(log, ElementsAre("finally-ok: 10", "10", "finally-err: nope",
                               "Exception: nope"));
}

TEST_F(FutureTest, DerivingFromATemporarySourceKeepsTheChain) {
  // tests/future/038-map_temporary_source
  Log log;
  Zval state = NewState();
  Zval source = NewFuture(state);
  Zval m1 = Mapper(&log, "m1", Times(2));
  Zval m2 = Mapper(&log, "m2", Plus(1));
  Zval step = Derive(source, "map", m1);
  Zval result = Derive(step, "map", m2);
  source.Reset();  // only the chain holds the sources now
  step.Reset();
  Complete(state, 5);
  EXPECT_EQ(AwaitText(result), "11");
  EXPECT_THAT(log, ElementsAre("m1: 5", "m2: 10"));
}

TEST_F(FutureTest, DerivingMarksTheSourceUsed) {
  // tests/future/028-future_used_with_map, 024 (finally does not catch),
  // in 024's order: the script lets go of the futures before the scheduler
  // runs the chain. The source warns. The derived future was ignored, not
  // handled: the chain's coroutine ends with its rejection (php-async
  // future.c process_future_mapper; docs/futures.md, "A derived future
  // nobody handles"), which ends the request.
  ExpectUncaught("Exception: Test error message");
  EXPECT_FALSE(RunMain([&] {
    zend_mock_set_location("/app/w.php", 6);
    Zval state = NewState();
    Zval future = NewFuture(state);
    Zval cleanup = Closure([](Call&) {});
    Zval chained = Derive(future, "finally", cleanup);
    CallMethod(chained, "ignore");
    zend_mock_set_location("/app/w.php", 9);
    Fail(state, "Test error message");
    zend_mock_set_location(nullptr, 0);
    chained.Reset();
    future.Reset();
    state.Reset();
  }));
  EXPECT_THAT(Warnings(),
              ElementsAre("Unhandled exception in Future: Test error "
                          "message; use catch() or ignore() to handle. "
                          "Created at /app/w.php:6, completed at "
                          "/app/w.php:9"));
}

TEST_F(FutureTest, MappersRefuseANonCallable) {
  // tests/future/036-future_map_error_branches
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval not_callable = Zval::Long(42);
  Log log;
  for (const char* method : {"map", "catch", "finally"}) {
    CallMethod(future, method, {not_callable.get()});
    log.push_back(TakeExceptionText());
  }
  EXPECT_THAT(
      log,
      ElementsAre("TypeError: Async\\Future::map(): Argument #1 ($map) must "
                  "be of type callable, int given",
                  "TypeError: Async\\Future::catch(): Argument #1 ($catch) "
                  "must be of type callable, int given",
                  "TypeError: Async\\Future::finally(): Argument #1 "
                  "($finally) must be of type callable, int given"));
  CallMethod(future, "ignore");
}

TEST_F(FutureTest, AChainNobodyCanSettleAnyMoreIsCollected) {
  // Once the state is gone, the source (held by its own chain subscription)
  // and its derived futures are a cycle: the collector frees it.
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval mapper = Mapper(&log, "never runs");
  CallMethod(future, "ignore");
  Zval mapped = Derive(future, "map", mapper);
  CallMethod(mapped, "ignore");
  mapped.Reset();
  mapper.Reset();
  future.Reset();
  EXPECT_EQ(zend_gc_collect_cycles(), 0);  // the state can still settle it
  state.Reset();
  EXPECT_EQ(zend_gc_collect_cycles(), 3);  // source, derived, mapper
  EXPECT_THAT(log, IsEmpty());
}

TEST_F(FutureTest, AnUnhandledRejectionEndsTheChainRunWithIt) {
  ExpectUncaught("Exception: nobody waits");
  Log log;
  EXPECT_FALSE(RunMain([&] {
    Zval state = NewState();
    Zval future = NewFuture(state);
    Zval mapper = Mapper(&log, "map", Throws("nobody waits"));
    Zval mapped = Derive(future, "map", mapper);
    CallMethod(mapped, "ignore");
    Complete(state, 1);
    log.push_back("completed");
  }));
  // The run's coroutine ended with the error, as any coroutine's uncaught
  // error: the request ends with it.
  EXPECT_THAT(log, ElementsAre("completed", "map: 1"));
  EXPECT_THAT(zar::testing::ErrorLog(),
              ElementsAre("E_ERROR: Uncaught Exception: nobody waits"));
}

}  // namespace
}  // namespace zar::future_testing
