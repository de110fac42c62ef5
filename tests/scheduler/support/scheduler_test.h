// zend-async-ref scheduler conformance tests, support.
//
// Everything here is written against the ABI (ZEND_ASYNC_* macros, the
// exported function pointers, the waker API) and the mock Zend API; none of
// it knows core/'s internals. The coroutine helpers (Spawn, Await, Yield,
// Delay, WaitFor, CoroutineRef) and the exception and error-log text come
// from ZendAsyncRef::testing.
//
//   SchedulerTest       the fixture: the async extension under test
//                       (zar::testing::AsyncModule(): scheduler, reactor,
//                       pool) in every test's engine; its TearDown fails
//                       the test on any leaked block or live object.
//   PlainEvent          an event no reactor knows: nothing ever fires it
//                       unless a test does.
//
// Threading: tests are single-threaded.

#ifndef ZAR_TESTS_SCHEDULER_SUPPORT_SCHEDULER_TEST_H_
#define ZAR_TESTS_SCHEDULER_SUPPORT_SCHEDULER_TEST_H_

#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "mock_zend/callable.h"
#include "tests/support/implementation.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::scheduler_testing {

using SchedulerTest = zar::testing::AsyncTest;

using zar::testing::Await;
using zar::testing::AwaitOutcome;
using zar::testing::CoroutineRef;
using zar::testing::Delay;
using zar::testing::ErrorLog;
using zar::testing::Spawn;
using zar::testing::TakeExceptionText;
using zar::testing::WaitFor;
using zar::testing::Yield;

// A plain C event (ref_count 1) that only a test can fire.
zend_async_event_t* NewPlainEvent();
// Notifies its callbacks (NULL result, NULL exception).
void FirePlainEvent(zend_async_event_t* event);

// The error log (ErrorLog()) without the reference's own notice of a
// graceful shutdown ("E_CORE_WARNING: Graceful shutdown mode was started";
// upstream's is commented out, scheduler.c), which its unit tests check.
std::vector<std::string> ReportedErrors();

// Checks (GoogleTest expectations) that `waker` is as zend_async_waker_init
// leaves it: no status, no events, no result, error or suspension site.
void ExpectWakerInitialised(const zend_async_waker_t* waker);

}  // namespace zar::scheduler_testing

#endif  // ZAR_TESTS_SCHEDULER_SUPPORT_SCHEDULER_TEST_H_
