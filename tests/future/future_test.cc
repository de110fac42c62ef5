// Futures through the C ABI: ZEND_ASYNC_NEW_FUTURE, ZEND_FUTURE_COMPLETE /
// ZEND_FUTURE_REJECT, the event vtable and ZEND_ASYNC_NEW_FUTURE_OBJ
// (php-async future.c: the zend_future_t handlers, async_new_future,
// async_new_future_obj).

#include "tests/future/support/future_test.h"

#include <string>

#include "gmock/gmock.h"

namespace zar::future_testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using zar::testing::TakeExceptionText;

// A callback recording "<result>|<exception message>" per notification.
struct Recorder {
  zend_async_event_callback_t base;
  Log* log;
};

void Record(zend_async_event_t*, zend_async_event_callback_t* callback,
            void* result, zend_object* exception) {
  auto* recorder = reinterpret_cast<Recorder*>(callback);
  std::string entry =
      result != nullptr ? Render(static_cast<zval*>(result)) : "(none)";
  entry += "|";
  if (exception != nullptr) entry += zend_mock_exception_message(exception);
  recorder->log->push_back(entry);
}

void DisposeRecorder(zend_async_event_callback_t* callback,
                     zend_async_event_t*) {
  efree(callback);
}

Recorder* NewRecorder(Log* log) {
  auto* recorder = static_cast<Recorder*>(ecalloc(1, sizeof(Recorder)));
  recorder->base.ref_count = 1;
  recorder->base.callback = Record;
  recorder->base.dispose = DisposeRecorder;
  recorder->log = log;
  return recorder;
}

// Registers a Recorder into `log` on the future's event.
void AddRecorder(zend_future_t* future, Log* log) {
  future->event.add_callback(&future->event, &NewRecorder(log)->base);
}

// The future's event info(), e.g. "FutureState(pending)".
std::string InfoOf(zend_future_t* future) {
  zend_string* info = future->event.info(&future->event);
  std::string text(ZSTR_VAL(info), ZSTR_LEN(info));
  zend_string_release(info);
  return text;
}

// Created futures are IGNORED where a test does not look at the warnings.
zend_future_t* NewIgnoredFuture() {
  zend_future_t* future = ZEND_ASYNC_NEW_FUTURE(false);
  ZEND_FUTURE_SET_IGNORED(future);
  return future;
}

// A new IGNORED future with a Recorder into `log`.
zend_future_t* NewRecordedFuture(Log* log) {
  zend_future_t* future = NewIgnoredFuture();
  AddRecorder(future, log);
  return future;
}

TEST_F(FutureTest, ANewFutureIsAPendingEventWithOneReference) {
  zend_future_t* future = NewIgnoredFuture();
  ASSERT_NE(future, nullptr);
  EXPECT_FALSE(ZEND_FUTURE_IS_COMPLETED(future));
  EXPECT_EQ(ZEND_ASYNC_EVENT_REFCOUNT(&future->event), 1u);
  EXPECT_TRUE(ZEND_ASYNC_EVENT_WILL_ZVAL_RESULT(&future->event));
  EXPECT_TRUE(Z_ISUNDEF(future->result));
  EXPECT_EQ(future->exception, nullptr);
  EXPECT_NE(future->resolve, nullptr);
  EXPECT_EQ(InfoOf(future), "FutureState(pending)");
  ZEND_ASYNC_EVENT_RELEASE(&future->event);
}

TEST_F(FutureTest, CompleteNotifiesEveryCallbackWithTheResultOnce) {
  Log log;
  zend_future_t* future = NewRecordedFuture(&log);
  AddRecorder(future, &log);
  Zval value = Zval::Long(42);
  Zval later = Zval::Long(7);

  ZEND_FUTURE_COMPLETE(future, value.get());
  ZEND_FUTURE_COMPLETE(future, later.get());  // ignored

  EXPECT_THAT(log, ElementsAre("42|", "42|"));
  EXPECT_TRUE(ZEND_FUTURE_IS_COMPLETED(future));
  EXPECT_EQ(Render(&future->result), "42");
  EXPECT_EQ(InfoOf(future), "FutureState(completed)");
  ZEND_ASYNC_EVENT_RELEASE(&future->event);
}

TEST_F(FutureTest, RejectNotifiesTheExceptionAndKeepsAReference) {
  Log log;
  zend_future_t* future = NewRecordedFuture(&log);
  Zval error = NewException(zend_ce_exception, "boom");

  ZEND_FUTURE_REJECT(future, Z_OBJ_P(error.get()));

  EXPECT_THAT(log, ElementsAre("undef|boom"));
  EXPECT_EQ(future->exception, Z_OBJ_P(error.get()));
  EXPECT_EQ(GC_REFCOUNT(Z_OBJ_P(error.get())), 2u);
  ZEND_ASYNC_EVENT_RELEASE(&future->event);
  EXPECT_EQ(GC_REFCOUNT(Z_OBJ_P(error.get())), 1u);
}

TEST_F(FutureTest, ACallbackAddedAfterCompletionIsCalledAtOnce) {
  Log log;
  zend_future_t* future = NewIgnoredFuture();
  Zval value = Zval::Long(5);
  ZEND_FUTURE_COMPLETE(future, value.get());

  Recorder* late = NewRecorder(&log);
  EXPECT_TRUE(future->event.add_callback(&future->event, &late->base));

  EXPECT_THAT(log, ElementsAre("5|"));
  DisposeRecorder(&late->base, &future->event);  // never registered
  ZEND_ASYNC_EVENT_RELEASE(&future->event);
}

TEST_F(FutureTest, ReplayIsFalseWhilePending) {
  zend_future_t* future = NewIgnoredFuture();
  zend_async_event_t* event = &future->event;
  Zval result;
  EXPECT_FALSE(ZEND_ASYNC_EVENT_EXTRACT_RESULT(event, result.get()));
  EXPECT_TRUE(result.undef());
  ZEND_ASYNC_EVENT_RELEASE(&future->event);
}

TEST_F(FutureTest, ReplayGivesTheResultOrTheException) {
  zend_future_t* done = NewIgnoredFuture();
  Zval value = Zval::Long(9);
  ZEND_FUTURE_COMPLETE(done, value.get());
  zend_async_event_t* done_event = &done->event;
  Zval result;
  EXPECT_TRUE(ZEND_ASYNC_EVENT_EXTRACT_RESULT(done_event, result.get()));
  EXPECT_EQ(Render(result), "9");

  zend_future_t* failed = NewIgnoredFuture();
  Zval error = NewException(zend_ce_exception, "bad");
  ZEND_FUTURE_REJECT(failed, Z_OBJ_P(error.get()));
  zend_object* taken = nullptr;
  Zval untouched;
  zend_async_event_t* failed_event = &failed->event;
  EXPECT_TRUE(ZEND_ASYNC_EVENT_EXTRACT_RESULT_OR_ERROR(
      failed_event, untouched.get(), &taken));
  EXPECT_TRUE(untouched.undef());
  EXPECT_EQ(taken, Z_OBJ_P(error.get()));
  OBJ_RELEASE(taken);

  // Without a place for the exception, replay throws it.
  EXPECT_FALSE(ZEND_ASYNC_EVENT_EXTRACT_RESULT(failed_event, nullptr));
  EXPECT_EQ(TakeExceptionText(), "Exception: bad");

  ZEND_ASYNC_EVENT_RELEASE(&done->event);
  ZEND_ASYNC_EVENT_RELEASE(&failed->event);
}

TEST_F(FutureTest, ACoroutineWaitsForAFutureThroughItsWaker) {
  Log log;
  zend_future_t* future = NewIgnoredFuture();
  zend_coroutine_t* waiter = zar::testing::Spawn([&] {
    log.push_back("wait");
    ASSERT_TRUE(zar::testing::WaitFor(&future->event));
    log.push_back("woken");
  });
  zar::testing::CoroutineRef hold(waiter);
  zar::testing::Yield();
  log.push_back("complete");
  Zval value = Zval::Long(3);
  ZEND_FUTURE_COMPLETE(future, value.get());
  zar::testing::Await(waiter);

  EXPECT_THAT(log, ElementsAre("wait", "complete", "woken"));
  ZEND_ASYNC_EVENT_RELEASE(&future->event);
}

TEST_F(FutureTest, AnUnusedFutureWarnsWithWhereItWasCreated) {
  zend_mock_set_location("/app/main.php", 12);
  zend_future_t* future = ZEND_ASYNC_NEW_FUTURE(false);
  zend_mock_set_location(nullptr, 0);
  ZEND_ASYNC_EVENT_RELEASE(&future->event);

  EXPECT_THAT(Warnings(),
              ElementsAre("Future was never used; call await(), map(), "
                          "catch(), finally() or ignore() to suppress this "
                          "warning. Created at /app/main.php:12"));
}

TEST_F(FutureTest, AnUnusedFutureCreatedOutsideAScriptWarnsWithoutALocation) {
  zend_future_t* future = ZEND_ASYNC_NEW_FUTURE(false);
  ZEND_ASYNC_EVENT_RELEASE(&future->event);

  EXPECT_THAT(Warnings(),
              ElementsAre("Future was never used; call await(), map(), "
                          "catch(), finally() or ignore() to suppress this "
                          "warning"));
}

TEST_F(FutureTest, AnUnhandledRejectionWarnsWithBothLocations) {
  zend_mock_set_location("/app/a.php", 3);
  zend_future_t* future = ZEND_ASYNC_NEW_FUTURE(false);
  ZEND_FUTURE_SET_USED(future);
  zend_mock_set_location("/app/b.php", 8);
  Zval error = NewException(zend_ce_exception, "lost");
  ZEND_FUTURE_REJECT(future, Z_OBJ_P(error.get()));
  zend_mock_set_location(nullptr, 0);
  ZEND_ASYNC_EVENT_RELEASE(&future->event);

  EXPECT_THAT(Warnings(),
              ElementsAre("Unhandled exception in Future: lost; use catch() "
                          "or ignore() to handle. Created at /app/a.php:3, "
                          "completed at /app/b.php:8"));
}

TEST_F(FutureTest, ACaughtOrIgnoredFutureDoesNotWarn) {
  zend_future_t* caught = ZEND_ASYNC_NEW_FUTURE(false);
  ZEND_FUTURE_SET_USED(caught);
  ZEND_FUTURE_SET_EXCEPTION_CAUGHT(caught);
  Zval error = NewException(zend_ce_exception, "seen");
  ZEND_FUTURE_REJECT(caught, Z_OBJ_P(error.get()));
  zend_future_t* ignored = ZEND_ASYNC_NEW_FUTURE(false);
  ZEND_FUTURE_SET_IGNORED(ignored);
  ZEND_FUTURE_REJECT(ignored, Z_OBJ_P(error.get()));

  ZEND_ASYNC_EVENT_RELEASE(&caught->event);
  ZEND_ASYNC_EVENT_RELEASE(&ignored->event);
  EXPECT_THAT(Warnings(), IsEmpty());
}

TEST_F(FutureTest, ExtraSizeBytesFollowTheFutureZeroed) {
  zend_future_t* future = ZEND_ASYNC_NEW_FUTURE_EX(false, 32);
  ZEND_FUTURE_SET_IGNORED(future);
  const auto* extra = reinterpret_cast<const unsigned char*>(future + 1);
  for (int i = 0; i < 32; i++) EXPECT_EQ(extra[i], 0) << i;
  ZEND_ASYNC_EVENT_RELEASE(&future->event);
}

TEST_F(FutureTest, NewFutureObjWrapsTheFutureAndTakesTheReference) {
  zend_future_t* future = NewIgnoredFuture();
  zend_object* object = ZEND_ASYNC_NEW_FUTURE_OBJ(future);
  ASSERT_NE(object, nullptr);
  EXPECT_EQ(object->ce, FutureClass());
  EXPECT_EQ(ZEND_ASYNC_OBJECT_TO_EVENT(object), &future->event);
  EXPECT_EQ(ZEND_ASYNC_EVENT_REFCOUNT(&future->event), 1u);

  Zval wrapper;
  ZVAL_OBJ(wrapper.get(), object);
  Zval value = Zval::Long(11);
  ZEND_FUTURE_COMPLETE(future, value.get());
  EXPECT_EQ(AwaitText(wrapper), "11");
}

TEST_F(FutureTest, NewFutureObjOfNullIsNull) {
  EXPECT_EQ(ZEND_ASYNC_NEW_FUTURE_OBJ(nullptr), nullptr);
  EXPECT_EQ(EG(exception), nullptr);
}

// final class Future implements Completable (php-async future.stub.php);
// that ZEND_ASYNC_GET_CE answers it is ClassesTest's.
TEST_F(FutureTest, TheFutureClassIsFinalAndCompletable) {
  zend_class_entry* ce = FutureClass();
  ASSERT_NE(ce, nullptr);
  EXPECT_TRUE(ce->ce_flags & ZEND_ACC_FINAL);
  zend_class_entry* completable = mock_zend::LookupClass("Async\\Completable");
  ASSERT_NE(completable, nullptr);
  EXPECT_TRUE(instanceof_function(ce, completable));
  zend_class_entry* state = FutureStateClass();
  ASSERT_NE(state, nullptr);
  EXPECT_TRUE(state->ce_flags & ZEND_ACC_FINAL);
}

}  // namespace
}  // namespace zar::future_testing
