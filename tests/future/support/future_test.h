// zend-async-ref future tests: the fixture and helpers.
//
// Everything here reaches futures through the ABI (ZEND_ASYNC_NEW_FUTURE,
// ZEND_FUTURE_COMPLETE/REJECT, the event vtable, ZEND_ASYNC_NEW_FUTURE_OBJ)
// and the PHP classes, found by their PHP names as PHP code finds them, and
// their methods, called as the engine calls internal methods (closures made
// with mock_zend::MakeCallable stand in for userland callables), so the
// suite judges any implementation.
//
//   FutureTest     RequestFixture with the async extension under test
//                  loaded; its TearDown fails on leaked blocks or live
//                  objects.
//   NewState()     new Async\FutureState()
//   NewFuture(s)   new Async\Future($s)
//   CallMethod, CallStatic
//                  mock_zend's: $object->method(...args),
//                  Async\Future::method(...args); UNDEF with the exception
//                  pending
//   Closure        a callable whose body logs and returns what a lambda says
//
// Threading: the request's thread.

#ifndef ZAR_TESTS_FUTURE_SUPPORT_FUTURE_TEST_H_
#define ZAR_TESTS_FUTURE_SUPPORT_FUTURE_TEST_H_

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "mock_zend/callable.h"
#include "mock_zend/methods.h"
#include "mock_zend/zval.h"
#include "tests/support/exceptions.h"
#include "tests/support/implementation.h"
#include "tests/support/log.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "Zend/zend_exceptions.h"
#include "php.h"
}

namespace zar::future_testing {

using mock_zend::CallMethod;
using mock_zend::CallStatic;
using mock_zend::Closure;
using mock_zend::Render;
using mock_zend::Zval;
using zar::testing::Log;
using zar::testing::NewException;

using FutureTest = zar::testing::AsyncTest;

// Async\FutureState, Async\Future by name; NULL when not registered.
zend_class_entry* FutureStateClass();
zend_class_entry* FutureClass();

// new Async\FutureState() / new Async\Future($state); UNDEF with the
// exception pending on failure.
Zval NewState();
Zval NewFuture(Zval& state);

// $future->await() (in the current coroutine); the result, or "Class:
// message" of what it threw (taken).
std::string AwaitText(Zval& future);

// The E_CORE_WARNING messages reported since the fixture started.
std::vector<std::string> Warnings();

// Lets go of `values` in the given order (unset), then expects no warning
// reported.
void ExpectNoWarningsAfterLettingGo(std::initializer_list<Zval*> values);

}  // namespace zar::future_testing

#endif  // ZAR_TESTS_FUTURE_SUPPORT_FUTURE_TEST_H_
