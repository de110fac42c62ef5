// Tests of the mock engine's exceptions: throwing, chaining, parking and
// reporting.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mock_zend/inspect.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "ext/spl/spl_exceptions.h"
}

namespace {

using mock_zend::ExceptionChain;
using mock_zend::ExceptionMessage;
using mock_zend::TakeException;

class MockZendExceptionsTest : public zar::testing::RequestFixture {};

// A new exception of `ce` (not thrown); the caller owns the reference.
zend_object* NewException(zend_class_entry* ce, const char* message) {
  zval z;
  EXPECT_EQ(object_init_ex(&z, ce), SUCCESS);
  zend_update_property_string(ce, Z_OBJ(z), ZEND_STRL("message"), message);
  return Z_OBJ(z);
}

// Throws Exception "parked" and parks it with zend_exception_save_fast in
// `*parked` (empty before); returns the exception.
zend_object* ThrowAndParkFast(zend_object** parked) {
  zend_object* thrown = zend_throw_exception(nullptr, "parked", 0);
  zend_exception_save_fast(&EG(exception), parked);
  return thrown;
}

// zend_exception_restore_fast puts `thrown`, parked alone in `*parked`,
// back in flight with its single reference; clearing it then leaves no
// object alive.
void ExpectRestoredFast(zend_object* thrown, zend_object** parked) {
  zend_exception_restore_fast(&EG(exception), parked);
  EXPECT_EQ(EG(exception), thrown);
  EXPECT_EQ(*parked, nullptr);
  EXPECT_EQ(GC_REFCOUNT(thrown), 1u);
  zend_clear_exception();
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendExceptionsTest, ThrowExceptionSetsClassMessageAndCode) {
  zend_object* thrown =
      zend_throw_exception(spl_ce_RuntimeException, "disk full", 28);
  ASSERT_EQ(EG(exception), thrown);
  EXPECT_EQ(thrown->ce, spl_ce_RuntimeException);
  EXPECT_STREQ(zend_mock_exception_message(thrown), "disk full");
  EXPECT_EQ(zend_mock_exception_code(thrown), 28);
  EXPECT_EQ(zend_mock_exception_previous(thrown), nullptr);
  EXPECT_EQ(GC_REFCOUNT(thrown), 1u);
  zend_clear_exception();
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendExceptionsTest, NullClassThrowsAnExceptionWithTheDefaults) {
  zend_object* thrown = zend_throw_exception(nullptr, nullptr, 0);
  EXPECT_EQ(thrown->ce, zend_ce_exception);
  EXPECT_STREQ(zend_mock_exception_message(thrown), "");
  EXPECT_EQ(zend_mock_exception_code(thrown), 0);
  zend_clear_exception();
}

TEST_F(MockZendExceptionsTest, ThrowExceptionExFormatsTheMessage) {
  zend_throw_exception_ex(nullptr, 3, "%d of %s", 2, "three");
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (std::vector<std::string>{"Exception: 2 of three"}));
  EXPECT_EQ(zend_mock_exception_code(EG(exception)), 3);
  zend_clear_exception();
}

TEST_F(MockZendExceptionsTest, ThrowErrorAndFriendsUseTheirClasses) {
  zend_throw_error(nullptr, "plain %s", "error");
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (std::vector<std::string>{"Error: plain error"}));
  zend_clear_exception();
  zend_throw_error(zend_ce_arithmetic_error, "math");
  EXPECT_EQ(EG(exception)->ce, zend_ce_arithmetic_error);
  zend_clear_exception();
  zend_type_error("wrong %s", "type");
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (std::vector<std::string>{"TypeError: wrong type"}));
  zend_clear_exception();
  zend_value_error("bad value");
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (std::vector<std::string>{"ValueError: bad value"}));
  zend_clear_exception();
}

TEST_F(MockZendExceptionsTest,
       ThrowingWhileAnotherIsInFlightChainsItAsPrevious) {
  zend_object* first = zend_throw_exception(nullptr, "first", 0);
  zend_throw_error(nullptr, "second");
  zend_object* current = EG(exception);
  EXPECT_NE(current, first);
  EXPECT_EQ(zend_mock_exception_previous(current), first);
  EXPECT_EQ(ExceptionChain(current),
            (std::vector<std::string>{"Error: second", "Exception: first"}));
  EXPECT_EQ(GC_REFCOUNT(first), 1u);  // now owned by the chain
  zend_throw_exception(nullptr, "third", 0);
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (std::vector<std::string>{"Exception: third", "Error: second",
                                      "Exception: first"}));
  zend_clear_exception();
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendExceptionsTest, SetPreviousAppendsAtTheDeepestLink) {
  zend_object* outer = NewException(zend_ce_exception, "outer");
  zend_object* middle = NewException(zend_ce_exception, "middle");
  zend_object* inner = NewException(zend_ce_error, "inner");
  zend_exception_set_previous(outer, middle);
  zend_exception_set_previous(outer, inner);
  EXPECT_EQ(ExceptionChain(outer),
            (std::vector<std::string>{"Exception: outer", "Exception: middle",
                                      "Error: inner"}));
  EXPECT_EQ(GC_REFCOUNT(middle), 1u);
  EXPECT_EQ(GC_REFCOUNT(inner), 1u);
  OBJ_RELEASE(outer);
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendExceptionsTest,
       SetPreviousRefusesACycleAndReleasesTheReference) {
  zend_object* a = NewException(zend_ce_exception, "a");
  zend_object* b = NewException(zend_ce_exception, "b");
  zend_exception_set_previous(a, b);  // a -> b
  GC_ADDREF(a);
  zend_exception_set_previous(b, a);  // b -> a would close a cycle
  EXPECT_EQ(GC_REFCOUNT(a), 1u);
  EXPECT_EQ(zend_mock_exception_previous(b), nullptr);
  GC_ADDREF(b);
  zend_exception_set_previous(a, b);  // already in the chain
  EXPECT_EQ(GC_REFCOUNT(b), 1u);
  EXPECT_EQ(ExceptionChain(a),
            (std::vector<std::string>{"Exception: a", "Exception: b"}));
  OBJ_RELEASE(a);
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendExceptionsTest, SetPreviousOfAnExceptionWithItselfOnlyReleases) {
  zend_object* a = NewException(zend_ce_exception, "a");
  GC_ADDREF(a);
  zend_exception_set_previous(a, a);
  EXPECT_EQ(GC_REFCOUNT(a), 1u);
  EXPECT_EQ(zend_mock_exception_previous(a), nullptr);
  zend_exception_set_previous(a, nullptr);  // nothing to link
  EXPECT_EQ(GC_REFCOUNT(a), 1u);
  OBJ_RELEASE(a);
}

TEST_F(MockZendExceptionsTest, SaveAndRestoreParkTheExceptionInFlight) {
  zend_object* thrown = zend_throw_exception(nullptr, "parked", 0);
  zend_exception_save();
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(EG(prev_exception), thrown);
  zend_exception_restore();
  EXPECT_EQ(EG(exception), thrown);
  EXPECT_EQ(EG(prev_exception), nullptr);
  zend_clear_exception();
}

TEST_F(MockZendExceptionsTest, RestoreChainsTheParkedExceptionUnderANewOne) {
  zend_throw_exception(nullptr, "parked", 0);
  zend_exception_save();
  zend_throw_error(nullptr, "newer");
  zend_exception_restore();
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (std::vector<std::string>{"Error: newer", "Exception: parked"}));
  EXPECT_EQ(EG(prev_exception), nullptr);
  zend_clear_exception();
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendExceptionsTest, SaveFastParksTheExceptionInTheCallersSlot) {
  zend_object* parked = nullptr;
  zend_object* thrown = ThrowAndParkFast(&parked);
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(parked, thrown);
  EXPECT_EQ(EG(prev_exception), nullptr);
  EXPECT_EQ(GC_REFCOUNT(thrown), 1u);
  ExpectRestoredFast(thrown, &parked);
}

TEST_F(MockZendExceptionsTest, SaveFastWithNothingInFlightParksNothing) {
  zend_object* parked = nullptr;
  zend_exception_save_fast(&EG(exception), &parked);
  EXPECT_EQ(parked, nullptr);
  zend_exception_restore_fast(&EG(exception), &parked);
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(parked, nullptr);
}

TEST_F(MockZendExceptionsTest,
       RestoreFastChainsTheParkedExceptionUnderANewOne) {
  zend_object* parked = nullptr;
  ThrowAndParkFast(&parked);
  zend_throw_error(nullptr, "newer");
  zend_exception_restore_fast(&EG(exception), &parked);
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (std::vector<std::string>{"Error: newer", "Exception: parked"}));
  EXPECT_EQ(parked, nullptr);
  zend_clear_exception();
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendExceptionsTest, SaveFastOverAParkedOneChainsItUnderTheNewOne) {
  zend_throw_exception(nullptr, "first", 0);
  zend_object* parked = nullptr;
  zend_exception_save_fast(&EG(exception), &parked);
  zend_object* second = zend_throw_exception(nullptr, "second", 0);
  zend_exception_save_fast(&EG(exception), &parked);
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(parked, second);
  EXPECT_EQ(
      ExceptionChain(parked),
      (std::vector<std::string>{"Exception: second", "Exception: first"}));
  zend_exception_restore_fast(&EG(exception), &parked);
  zend_clear_exception();
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendExceptionsTest, SaveFastKeepsTheParkedOneWhenNothingIsInFlight) {
  zend_object* parked = nullptr;
  zend_object* thrown = ThrowAndParkFast(&parked);
  zend_exception_save_fast(&EG(exception), &parked);  // nothing in flight
  EXPECT_EQ(parked, thrown);
  EXPECT_EQ(GC_REFCOUNT(thrown), 1u);
  ExpectRestoredFast(thrown, &parked);
}

TEST_F(MockZendExceptionsTest,
       SetPreviousWithoutAnExceptionLeavesTheCallersRef) {
  zend_object* orphan = NewException(zend_ce_exception, "orphan");
  zend_exception_set_previous(nullptr, orphan);
  EXPECT_EQ(GC_REFCOUNT(orphan), 1u);
  OBJ_RELEASE(orphan);
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendExceptionsTest, ClearExceptionAlsoReleasesAParkedOne) {
  zend_throw_exception(nullptr, "parked", 0);
  zend_exception_save();
  zend_throw_exception(nullptr, "current", 0);
  zend_clear_exception();
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(EG(prev_exception), nullptr);
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendExceptionsTest, ExceptionErrorReportsUncaughtAndReleases) {
  ExpectUncaught("RuntimeException: boom");
  zend_throw_exception(spl_ce_RuntimeException, "boom", 0);
  const uint32_t errors = zend_mock_error_count();
  EXPECT_EQ(zend_exception_error(EG(exception), E_ERROR), SUCCESS);
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
  ASSERT_EQ(zend_mock_error_count(), errors + 1);
  EXPECT_EQ(zend_mock_error_type(errors), E_ERROR);
  EXPECT_STREQ(zend_mock_error_message(errors),
               "Uncaught RuntimeException: boom");
}

TEST_F(MockZendExceptionsTest, UncaughtExceptionInMainIsAFatalError) {
  ExpectUncaught("RuntimeException: boom");
  EXPECT_FALSE(RunMain(
      [] { zend_throw_exception(spl_ce_RuntimeException, "boom", 0); }));
  EXPECT_EQ(EG(exception), nullptr);
  const std::vector<mock_zend::ReportedError> errors =
      mock_zend::ReportedErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].type, E_ERROR);
  EXPECT_EQ(errors[0].message, "Uncaught RuntimeException: boom");
  EXPECT_TRUE(ShutdownRequest().bailed_out);
}

TEST_F(MockZendExceptionsTest, GetExceptionBaseFollowsTheRootClass) {
  zend_object* runtime = NewException(spl_ce_RuntimeException, "r");
  zend_object* type_error = NewException(zend_ce_type_error, "t");
  zend_object* cancellation = NewException(zend_ce_cancellation, "c");
  EXPECT_EQ(zend_get_exception_base(runtime), zend_ce_exception);
  EXPECT_EQ(zend_get_exception_base(type_error), zend_ce_error);
  EXPECT_EQ(zend_get_exception_base(cancellation), zend_ce_cancellation);
  OBJ_RELEASE(runtime);
  OBJ_RELEASE(type_error);
  OBJ_RELEASE(cancellation);
}

TEST_F(MockZendExceptionsTest, NewThrowablesRecordTheExecutingLocation) {
  zend_mock_set_location("/app/worker.php", 42);
  zend_object* located = NewException(zend_ce_exception, "here");
  zend_mock_set_location(nullptr, 0);
  zend_object* unlocated = NewException(zend_ce_error, "nowhere");
  zval* file =
      zend_read_property(nullptr, located, ZEND_STRL("file"), true, nullptr);
  zval* line =
      zend_read_property(nullptr, located, ZEND_STRL("line"), true, nullptr);
  EXPECT_STREQ(Z_STRVAL_P(file), "/app/worker.php");
  EXPECT_EQ(Z_LVAL_P(line), 42);
  EXPECT_STREQ(Z_STRVAL_P(zend_read_property(nullptr, unlocated,
                                             ZEND_STRL("file"), true, nullptr)),
               "");
  OBJ_RELEASE(located);
  OBJ_RELEASE(unlocated);
}

TEST_F(MockZendExceptionsTest, ThrowExceptionObjectTakesOverTheReference) {
  zval exception;
  ZVAL_OBJ(&exception, NewException(zend_ce_value_error, "given"));
  zend_throw_exception_object(&exception);
  EXPECT_EQ(EG(exception), Z_OBJ(exception));
  EXPECT_EQ(GC_REFCOUNT(EG(exception)), 1u);
  zend_clear_exception();
}

TEST_F(MockZendExceptionsTest, ThrowExceptionObjectRefusesNonThrowables) {
  zval not_throwable;
  object_init(&not_throwable);
  zend_throw_exception_object(&not_throwable);
  EXPECT_EQ(
      ExceptionChain(EG(exception)),
      (std::vector<std::string>{
          "Error: Cannot throw objects that do not implement Throwable"}));
  zend_clear_exception();
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendExceptionsTest, ExceptionMethodsReadTheProperties) {
  zend_object* previous = NewException(zend_ce_exception, "before");
  zval args[3];
  ZVAL_STRING(&args[0], "constructed");
  ZVAL_LONG(&args[1], 9);
  ZVAL_OBJ(&args[2], previous);
  zval obj;
  object_init_ex(&obj, spl_ce_LogicException);
  zend_call_known_instance_method(Z_OBJCE(obj)->constructor, Z_OBJ(obj),
                                  nullptr, 3, args);
  ASSERT_EQ(EG(exception), nullptr);
  zval result;
  zend_call_method_with_0_params(Z_OBJ(obj), nullptr, nullptr, "getMessage",
                                 &result);
  EXPECT_STREQ(Z_STRVAL(result), "constructed");
  zval_ptr_dtor(&result);
  zend_call_method_with_0_params(Z_OBJ(obj), nullptr, nullptr, "getCode",
                                 &result);
  EXPECT_EQ(Z_LVAL(result), 9);
  zend_call_method_with_0_params(Z_OBJ(obj), nullptr, nullptr, "getPrevious",
                                 &result);
  EXPECT_EQ(Z_OBJ(result), previous);
  zval_ptr_dtor(&result);
  for (zval& arg : args) zval_ptr_dtor(&arg);
  zval_ptr_dtor(&obj);
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

}  // namespace
