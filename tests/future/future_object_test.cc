// Async\FutureState and Async\Future (php-async future.c: the
// FUTURE_STATE_METHOD and FUTURE_METHOD bodies; tests/future 016-034).

#include <string>

#include "gmock/gmock.h"
#include "tests/future/support/future_test.h"

namespace zar::future_testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using zar::testing::TakeExceptionText;

zend_class_entry* Cancellation() {
  return mock_zend::LookupClass("Async\\AsyncCancellation");
}

// [file, line] as "file:line" ("null:0" before completion).
std::string FileAndLine(Zval& object, const char* method) {
  Zval pair = CallMethod(object, method);
  const zval* file = pair.at(0);
  const zval* line = pair.at(1);
  return (Z_TYPE_P(file) == IS_STRING ? std::string(Z_STRVAL_P(file))
                                      : std::string("null")) +
         ":" + std::to_string(Z_LVAL_P(line));
}

TEST_F(FutureTest, AFutureSharesItsStatesOutcome) {
  Zval state = NewState();
  Zval future = NewFuture(state);
  EXPECT_TRUE(CallMethod(future, "isCompleted").is_false());
  EXPECT_TRUE(CallMethod(state, "isCompleted").is_false());
  Zval value = Zval::Long(42);
  CallMethod(state, "complete", {value.get()});
  EXPECT_TRUE(CallMethod(future, "isCompleted").is_true());
  EXPECT_TRUE(CallMethod(state, "isCompleted").is_true());
  EXPECT_EQ(AwaitText(future), "42");
}

TEST_F(FutureTest, StatusAccessorsAcrossPendingCompletedFailedCancelled) {
  // tests/future/031-future_status_accessors
  Log log;
  auto status = [&](Zval& future) {
    log.push_back(Render(CallMethod(future, "isCompleted")) + "/" +
                  Render(CallMethod(future, "isCancelled")));
  };
  Zval state = NewState();
  Zval future = NewFuture(state);
  status(future);
  Zval value = Zval::Long(42);
  CallMethod(state, "complete", {value.get()});
  status(future);
  CallMethod(future, "ignore");

  Zval state2 = NewState();
  Zval future2 = NewFuture(state2);
  Zval boom = NewException(zend_ce_exception, "boom");
  CallMethod(state2, "error", {boom.get()});
  status(future2);
  CallMethod(future2, "ignore");

  Zval state3 = NewState();
  Zval future3 = NewFuture(state3);
  Zval stop = NewException(Cancellation(), "stop");
  CallMethod(state3, "error", {stop.get()});
  status(future3);
  CallMethod(future3, "ignore");

  EXPECT_THAT(
      log, ElementsAre("false/false", "true/false", "true/false", "true/true"));
}

TEST_F(FutureTest, AwaitOnARejectedFutureThrowsItsException) {
  // tests/future/029-await_rejected_throws, 030 (a temporary future)
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval error = NewException(zend_ce_exception, "Test rejection");
  CallMethod(state, "error", {error.get()});
  EXPECT_EQ(AwaitText(future), "Exception: Test rejection");
  // Thrown to an awaiter: caught, so no warning at the end.
  ExpectNoWarningsAfterLettingGo({&state, &future});
}

TEST_F(FutureTest, AwaitParksUntilTheStateCompletes) {
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  zar::testing::CoroutineRef completer(zar::testing::Spawn([&] {
    log.push_back("complete");
    Zval value = Zval::Long(8);
    CallMethod(state, "complete", {value.get()});
  }));
  log.push_back("await");
  log.push_back("got " + AwaitText(future));
  EXPECT_THAT(log, ElementsAre("await", "complete", "got 8"));
}

TEST_F(FutureTest, CancelRejectsAPendingFutureAndIsANoOpOnASettledOne) {
  // tests/future/032-future_cancel
  Zval state = NewState();
  Zval future = NewFuture(state);
  CallMethod(future, "cancel");
  EXPECT_TRUE(CallMethod(future, "isCompleted").is_true());
  EXPECT_TRUE(CallMethod(future, "isCancelled").is_true());
  EXPECT_EQ(AwaitText(future),
            "Async\\AsyncCancellation: Future has been cancelled");

  Zval state2 = NewState();
  Zval future2 = NewFuture(state2);
  Zval reason = NewException(Cancellation(), "custom reason");
  CallMethod(future2, "cancel", {reason.get()});
  EXPECT_EQ(AwaitText(future2), "Async\\AsyncCancellation: custom reason");

  Zval state3 = NewState();
  Zval future3 = NewFuture(state3);
  Zval value = Zval::Long(42);
  CallMethod(state3, "complete", {value.get()});
  CallMethod(future3, "cancel");
  EXPECT_EQ(AwaitText(future3), "42");
}

TEST_F(FutureTest, AnAlreadyFiredCancellationEndsAwaitAtOnce) {
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval reason = NewException(zend_ce_exception, "too late");
  Zval token = CallStatic(FutureClass(), "failed", {reason.get()});
  CallMethod(future, "await", {token.get()});
  ASSERT_NE(EG(exception), nullptr);
  zend_object* previous = zend_mock_exception_previous(EG(exception));
  const std::string previous_text =
      previous != nullptr ? zend_mock_exception_message(previous) : "(none)";
  EXPECT_EQ(TakeExceptionText(),
            "Async\\OperationCanceledException: Operation has been "
            "cancelled");
  EXPECT_EQ(previous_text, "too late");
  CallMethod(future, "ignore");
}

TEST_F(FutureTest, ACancellationThatFiresWhileWaitingEndsTheWait) {
  Log log;
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval token_state = NewState();
  Zval token = NewFuture(token_state);
  zar::testing::CoroutineRef canceller(zar::testing::Spawn([&] {
    log.push_back("cancel");
    CallMethod(token, "cancel");
  }));
  log.push_back("await");
  CallMethod(future, "await", {token.get()});
  log.push_back(TakeExceptionText());
  // The waker's cancel callback ends the wait as upstream's does.
  EXPECT_THAT(log, ElementsAre("await", "cancel",
                               "Async\\OperationCanceledException: Operation "
                               "has been cancelled"));
  CallMethod(future, "ignore");
}

TEST_F(FutureTest, GetAwaitingInfoNamesTheState) {
  // tests/future/033-future_getAwaitingInfo
  Zval state = NewState();
  Zval future = NewFuture(state);
  EXPECT_EQ(Render(CallMethod(future, "getAwaitingInfo")),
            "['FutureState(pending)']");
  Zval value = Zval::Long(42);
  CallMethod(state, "complete", {value.get()});
  EXPECT_EQ(Render(CallMethod(future, "getAwaitingInfo")),
            "['FutureState(completed)']");
  EXPECT_EQ(Render(CallMethod(state, "getAwaitingInfo")),
            "['FutureState(completed)']");
  CallMethod(future, "ignore");
}

TEST_F(FutureTest, SettlingTwiceThrowsWithWhereItWasSettled) {
  // tests/future/034-future_state_double_resolve
  Log log;
  Zval one = Zval::Long(1);
  Zval error = NewException(zend_ce_exception, "x");
  zend_mock_set_location("/app/t.php", 5);
  Zval state = NewState();
  Zval future = NewFuture(state);
  CallMethod(state, "complete", {one.get()});
  CallMethod(state, "complete", {one.get()});
  log.push_back(TakeExceptionText());
  CallMethod(state, "error", {error.get()});
  log.push_back(TakeExceptionText());
  CallMethod(future, "ignore");

  zend_mock_set_location("/app/t.php", 9);
  Zval state3 = NewState();
  Zval future3 = NewFuture(state3);
  CallMethod(state3, "error", {error.get()});
  CallMethod(state3, "complete", {one.get()});
  log.push_back(TakeExceptionText());
  CallMethod(future3, "ignore");
  zend_mock_set_location(nullptr, 0);

  EXPECT_THAT(log, ElementsAre("Async\\AsyncException: FutureState is already "
                               "completed at /app/t.php:5",
                               "Async\\AsyncException: FutureState is already "
                               "completed at /app/t.php:5",
                               "Async\\AsyncException: FutureState is already "
                               "completed at /app/t.php:9"));
}

TEST_F(FutureTest, SettlingOutsideAScriptReportsUnknownLocation) {
  Zval state = NewState();
  Zval one = Zval::Long(1);
  CallMethod(state, "complete", {one.get()});
  CallMethod(state, "complete", {one.get()});
  EXPECT_EQ(TakeExceptionText(),
            "Async\\AsyncException: FutureState is already completed at "
            "Unknown:0");
  CallMethod(state, "ignore");
}

TEST_F(FutureTest, CreatedAndCompletedLocationsAreRecorded) {
  // tests/future/016-019
  zend_mock_set_location("/app/loc.php", 4);
  Zval state = NewState();
  zend_mock_set_location("/app/loc.php", 5);
  Zval future = NewFuture(state);
  EXPECT_EQ(FileAndLine(state, "getCreatedFileAndLine"), "/app/loc.php:4");
  EXPECT_EQ(FileAndLine(future, "getCreatedFileAndLine"), "/app/loc.php:4");
  EXPECT_EQ(CallMethod(future, "getCreatedLocation").str(), "/app/loc.php:4");
  EXPECT_EQ(FileAndLine(future, "getCompletedFileAndLine"), "null:0");
  EXPECT_EQ(CallMethod(state, "getCompletedLocation").str(), "unknown");

  zend_mock_set_location("/app/loc.php", 7);
  Zval value = Zval::Long(1);
  CallMethod(state, "complete", {value.get()});
  zend_mock_set_location(nullptr, 0);
  EXPECT_EQ(FileAndLine(state, "getCompletedFileAndLine"), "/app/loc.php:7");
  EXPECT_EQ(FileAndLine(future, "getCompletedFileAndLine"), "/app/loc.php:7");
  EXPECT_EQ(CallMethod(future, "getCompletedLocation").str(), "/app/loc.php:7");
  CallMethod(state, "ignore");
}

TEST_F(FutureTest, CompletedAndFailedFuturesAreSettledWhereTheyAreMade) {
  // tests/future/020, 021
  zend_mock_set_location("/app/s.php", 3);
  Zval value = Zval::Long(7);
  Zval done = CallStatic(FutureClass(), "completed", {value.get()});
  Zval error = NewException(zend_ce_exception, "error");
  zend_mock_set_location("/app/s.php", 4);
  Zval failed = CallStatic(FutureClass(), "failed", {error.get()});
  zend_mock_set_location(nullptr, 0);

  EXPECT_EQ(FileAndLine(done, "getCreatedFileAndLine"), "/app/s.php:3");
  EXPECT_EQ(FileAndLine(done, "getCompletedFileAndLine"), "/app/s.php:3");
  EXPECT_EQ(FileAndLine(failed, "getCreatedFileAndLine"), "/app/s.php:4");
  EXPECT_EQ(FileAndLine(failed, "getCompletedFileAndLine"), "/app/s.php:4");
  EXPECT_EQ(AwaitText(done), "7");
  EXPECT_EQ(AwaitText(failed), "Exception: error");
}

TEST_F(FutureTest, CompletedWithoutAValueIsNull) {
  Zval done = CallStatic(FutureClass(), "completed");
  EXPECT_EQ(AwaitText(done), "null");
}

TEST_F(FutureTest, ANeverUsedFutureWarnsWhenDestroyed) {
  // tests/future/022-future_unused_warning
  zend_mock_set_location("/app/u.php", 2);
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval value;
  ZVAL_STRING(value.get(), "value");
  CallMethod(state, "complete", {value.get()});
  zend_mock_set_location(nullptr, 0);
  future.Reset();
  EXPECT_THAT(Warnings(), IsEmpty());  // the state still holds it
  state.Reset();
  EXPECT_THAT(Warnings(),
              ElementsAre("Future was never used; call await(), map(), "
                          "catch(), finally() or ignore() to suppress this "
                          "warning. Created at /app/u.php:2"));
}

TEST_F(FutureTest, IgnoreSilencesBothWarnings) {
  // tests/future/023-future_unused_with_ignore, 026
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval self = CallMethod(future, "ignore");
  EXPECT_EQ(self.obj(), future.obj());
  Zval error = NewException(zend_ce_exception, "Test error");
  CallMethod(state, "error", {error.get()});
  ExpectNoWarningsAfterLettingGo({&self, &future, &state});
}

TEST_F(FutureTest, AwaitMarksTheFutureUsed) {
  // tests/future/027-future_used_with_await
  Zval state = NewState();
  Zval future = NewFuture(state);
  Zval value = Zval::Long(1);
  CallMethod(state, "complete", {value.get()});
  EXPECT_EQ(AwaitText(future), "1");
  ExpectNoWarningsAfterLettingGo({&future, &state});
}

TEST_F(FutureTest, AFutureWithoutAStateRefusesToWaitOrCancel) {
  Zval future;  // constructed without running __construct
  ASSERT_EQ(object_init_ex(future.get(), FutureClass()), SUCCESS);
  EXPECT_TRUE(CallMethod(future, "isCompleted").is_false());
  EXPECT_TRUE(CallMethod(future, "isCancelled").is_false());
  EXPECT_EQ(Render(CallMethod(future, "getAwaitingInfo")), "[]");
  CallMethod(future, "cancel");
  EXPECT_EQ(TakeExceptionText(), "Async\\AsyncException: Future has no state");
  EXPECT_EQ(AwaitText(future), "Async\\AsyncException: Future has no state");
}

TEST_F(FutureTest, AFutureNeedsAFutureState) {
  Zval not_a_state = Zval::Long(1);
  Zval future;
  object_init_ex(future.get(), FutureClass());
  CallMethod(future, "__construct", {not_a_state.get()});
  // php-async future.c: Z_PARAM_OBJECT_OF_CLASS(state, FutureState).
  EXPECT_EQ(TakeExceptionText(),
            "TypeError: Async\\Future::__construct(): Argument #1 ($state) "
            "must be of type Async\\FutureState, int given");
}

TEST_F(FutureTest, ErrorNeedsAThrowable) {
  Zval state = NewState();
  Zval value = Zval::Long(1);
  CallMethod(state, "error", {value.get()});
  // php-async future.c: Z_PARAM_OBJECT_OF_CLASS(throwable, Throwable).
  EXPECT_EQ(TakeExceptionText(),
            "TypeError: Async\\FutureState::error(): Argument #1 "
            "($throwable) must be of type Throwable, int given");
  CallMethod(state, "ignore");
}

}  // namespace
}  // namespace zar::future_testing
