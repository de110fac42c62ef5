// Tests of the mock engine's error reporting and bailout.

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "mock_zend/callable.h"
#include "mock_zend/class_builder.h"
#include "mock_zend/inspect.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace {

using mock_zend::ReportedError;
using mock_zend::ReportedErrors;

class MockZendErrorsTest : public zar::testing::RequestFixture {};

using Logged = std::vector<std::pair<int, std::string>>;

// The error log as (level, message) pairs.
Logged Log() {
  Logged log;
  for (const ReportedError& e : ReportedErrors()) {
    log.emplace_back(e.type, e.message);
  }
  return log;
}

TEST_F(MockZendErrorsTest, ZendErrorRecordsTheLevelAndTheFormattedMessage) {
  zend_error(E_WARNING, "%s has %d items", "pool", 3);
  zend_error(E_NOTICE | E_DONT_BAIL, "notice");
  EXPECT_EQ(Log(),
            (Logged{{E_WARNING, "pool has 3 items"}, {E_NOTICE, "notice"}}));
  EXPECT_EQ(zend_mock_error_count(), 2u);
  EXPECT_EQ(zend_mock_error_type(1), E_NOTICE);
  EXPECT_EQ(zend_mock_error_message(2), nullptr);
  zend_mock_errors_clear();
  EXPECT_EQ(zend_mock_error_count(), 0u);
}

TEST_F(MockZendErrorsTest, FatalErrorOutsideZendTryIsRecordedAndReturns) {
  ExpectFatalErrors({"core trouble"});
  zend_error(E_CORE_ERROR, "core trouble");
  ASSERT_EQ(zend_mock_error_count(), 1u);
  EXPECT_EQ(zend_mock_error_type(0), E_CORE_ERROR);
}

TEST_F(MockZendErrorsTest, FatalErrorInsideZendTryBailsOut) {
  ExpectFatalErrors({"fatal"});
  // volatile: these live across a longjmp.
  volatile bool reached_after_error = false;
  volatile bool caught = false;
  zend_try {
    zend_error(E_ERROR, "fatal");
    reached_after_error = true;
  }
  zend_catch { caught = true; }
  zend_end_try();
  EXPECT_TRUE(caught);
  EXPECT_FALSE(reached_after_error);
  EXPECT_EQ(EG(bailout), nullptr);
  EXPECT_EQ(zend_mock_error_count(), 1u);
}

TEST_F(MockZendErrorsTest, DontBailAndNonFatalLevelsDoNotBailOut) {
  ExpectFatalErrors({"reported only"});
  volatile bool caught = false;
  volatile int reached = 0;
  zend_try {
    zend_error(E_ERROR | E_DONT_BAIL, "reported only");
    reached = reached + 1;
    zend_error(E_WARNING, "warning");
    reached = reached + 1;
  }
  zend_catch { caught = true; }
  zend_end_try();
  EXPECT_FALSE(caught);
  EXPECT_EQ(reached, 2);
  EXPECT_EQ(zend_mock_error_type(0), E_ERROR);
}

TEST_F(MockZendErrorsTest, FatalErrorInMainMakesRunMainReturnFalse) {
  ExpectFatalErrors({"user fatal"});
  bool reached = false;
  EXPECT_FALSE(RunMain([&] {
    zend_error(E_USER_ERROR, "user fatal");
    reached = true;
  }));
  EXPECT_FALSE(reached);
  EXPECT_EQ(Log(), (Logged{{E_USER_ERROR, "user fatal"}}));
  EXPECT_EQ(EG(exit_status), 255);
}

TEST_F(MockZendErrorsTest, BailoutInsideCallsReleasesWhatTheFramesHeld) {
  ExpectFatalErrors({"in method"});
  zend_class_entry* ce =
      mock_zend::ClassBuilder("Fatal")
          .Method("explode",
                  [](mock_zend::Call&) { zend_error(E_ERROR, "in method"); })
          .Build();
  EXPECT_FALSE(RunMain([&] {
    zval object;
    object_init_ex(&object, ce);
    zval closure;
    mock_zend::MakeCallable(&closure, [&](mock_zend::Call&) {
      zval result;
      zend_call_method_with_0_params(Z_OBJ(object), nullptr, nullptr, "explode",
                                     &result);
    });
    zval result;
    call_user_function(nullptr, nullptr, &closure, &result, 0, nullptr);
    // Not reached: the values of this frame are released below, as a
    // script's globals would be.
  }));
  EXPECT_EQ(EG(current_execute_data), nullptr);
  // The object and the closure are still referenced by the main "script"'s
  // locals (abandoned by the bailout), but no longer by the frames.
  EXPECT_EQ(zend_objects_store_live_count(), 2u);
  EXPECT_EQ(EG(objects_store).object_buckets[1]->gc.refcount, 1u);
  EXPECT_EQ(EG(objects_store).object_buckets[2]->gc.refcount, 1u);
  OBJ_RELEASE(EG(objects_store).object_buckets[2]);
  OBJ_RELEASE(EG(objects_store).object_buckets[1]);
}

// An extension that catches bailouts at the bottom of its own stacks (as
// php-async's coroutines do) never calls zend_mock_release_bailout_frames:
// what the abandoned frames held is released when the request ends, as
// PHP frees those objects with the object store, also after a second
// bailout that abandoned no frame.
TEST_F(MockZendErrorsTest, WhatAbandonedFramesHeldIsReleasedAtTheRequestEnd) {
  ExpectFatalErrors({"abandoned", "again"});
  uint32_t referenced_after_bailouts = 0;
  EXPECT_TRUE(RunMain([&] {
    zval closure;
    mock_zend::MakeCallable(
        &closure, [](mock_zend::Call&) { zend_error(E_ERROR, "abandoned"); });
    zend_try {
      zval result;
      call_user_function(nullptr, nullptr, &closure, &result, 0, nullptr);
    }
    zend_catch {}
    zend_end_try();
    zend_try { zend_error(E_ERROR, "again"); }
    zend_catch {}
    zend_end_try();
    referenced_after_bailouts = GC_REFCOUNT(Z_OBJ(closure));
    zval_ptr_dtor(&closure);  // the abandoned frame's reference remains
  }));
  EXPECT_EQ(referenced_after_bailouts, 2u);
  // The request fixture finds no object alive when the request ends.
}

// A zend_try inside a call: the call's frame is below the zend_try, returns
// and releases what it held itself, so nothing of it is released again.
TEST_F(MockZendErrorsTest, AFrameBelowTheCatchingZendTryReleasesItsOwn) {
  ExpectFatalErrors({"caught inside"});
  uint32_t after_release = 0;
  EXPECT_TRUE(RunMain([&] {
    zval closure;
    mock_zend::MakeCallable(&closure, [](mock_zend::Call&) {
      zend_try { zend_error(E_ERROR, "caught inside"); }
      zend_catch {}
      zend_end_try();
    });
    zval result;
    call_user_function(nullptr, nullptr, &closure, &result, 0, nullptr);
    zend_mock_release_bailout_frames();
    after_release = GC_REFCOUNT(Z_OBJ(closure));
    zval_ptr_dtor(&closure);
  }));
  EXPECT_EQ(after_release, 1u);
}

TEST_F(MockZendErrorsTest, ErrorNoreturnWithoutZendTryAborts) {
  EXPECT_DEATH(zend_error_noreturn(E_ERROR, "no way back"),
               "Fatal: bailout without zend_try");
}

TEST_F(MockZendErrorsTest, BailoutWithoutZendTryAborts) {
  EXPECT_DEATH(zend_bailout(), "Fatal: bailout without zend_try");
}

TEST_F(MockZendErrorsTest, ErrorZstrRecordsTheString) {
  zend_string* message = zend_string_init(ZEND_STRL("from a string"), false);
  zend_error_zstr(E_DEPRECATED, message);
  zend_string_release(message);
  EXPECT_EQ(Log(), (Logged{{E_DEPRECATED, "from a string"}}));
}

TEST_F(MockZendErrorsTest, PhpErrorDocrefPrefixesTheRunningFunction) {
  php_error_docref(nullptr, E_WARNING, "outside %s", "calls");
  zend_class_entry* ce =
      mock_zend::ClassBuilder("Async\\Pool")
          .Method("close",
                  [](mock_zend::Call&) {
                    php_error_docref(nullptr, E_WARNING, "already closed");
                  })
          .Build();
  zval object;
  object_init_ex(&object, ce);
  zend_call_method_with_0_params(Z_OBJ(object), nullptr, nullptr, "close",
                                 nullptr);
  zval_ptr_dtor(&object);
  EXPECT_EQ(Log(),
            (Logged{{E_WARNING, "outside calls"},
                    {E_WARNING, "Async\\Pool::close(): already closed"}}));
}

TEST_F(MockZendErrorsTest, ErrorsArePrintedWhenRequested) {
  ExpectFatalErrors({"also visible"});
  setenv("ZEND_MOCK_PRINT_ERRORS", "1", 1);
  testing::internal::CaptureStderr();
  zend_error(E_WARNING, "visible");
  zend_error(E_CORE_ERROR, "also visible");
  const std::string output = testing::internal::GetCapturedStderr();
  unsetenv("ZEND_MOCK_PRINT_ERRORS");
  EXPECT_EQ(output, "PHP Warning:  visible\nPHP Fatal error:  also visible\n");
}

TEST_F(MockZendErrorsTest, ErrorLevelNamesAreTheConstantNames) {
  EXPECT_EQ(mock_zend::ErrorLevelName(E_CORE_ERROR), "E_CORE_ERROR");
  EXPECT_EQ(mock_zend::ErrorLevelName(E_WARNING), "E_WARNING");
  EXPECT_EQ(mock_zend::ErrorLevelName(E_ERROR | E_DONT_BAIL), "E_ERROR");
  EXPECT_EQ(mock_zend::ErrorLevelName(E_USER_DEPRECATED), "E_USER_DEPRECATED");
}

}  // namespace
