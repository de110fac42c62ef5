// zend-async-ref task group tests: the fixture and helpers.
//
// Everything here reaches task groups through the ABI (ZEND_ASYNC_NEW_GROUP,
// the group's event vtable) and the PHP class, found by its PHP name as PHP
// code finds it, and its methods, called as the engine calls internal
// methods (closures made with mock_zend::MakeCallable stand in for userland
// callables), so the suite judges any implementation.
//
//   TaskGroupTest  RequestFixture with the async extension under test
//                  loaded; its TearDown fails on leaked blocks or live
//                  objects. Scenarios run in RunMain (the script).
//   NewGroup(...)  new Async\TaskGroup(...args)
//   CallMethod, Closure, Zval::String, NewException
//                  mock_zend's and tests/support's
//   Task           a closure that logs `name`, yields `yields` times and
//                  returns `name` (or throws Exception(name) when failing)
//
// Threading: the request's thread.

#ifndef ZAR_TESTS_TASK_GROUP_SUPPORT_TASK_GROUP_TEST_H_
#define ZAR_TESTS_TASK_GROUP_SUPPORT_TASK_GROUP_TEST_H_

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

namespace zar::task_group_testing {

using mock_zend::CallMethod;
using mock_zend::Closure;
using mock_zend::Render;
using mock_zend::Zval;
using zar::testing::Log;
using zar::testing::NewException;

using TaskGroupTest = zar::testing::AsyncTest;

// Async\TaskGroup by name; NULL when not registered.
zend_class_entry* TaskGroupClass();

// new Async\TaskGroup(...args); UNDEF with the exception pending.
Zval NewGroup(const std::vector<zval*>& args = {});

// A task: logs "<name> start" into `log` (when given), yields `yields`
// times, then returns 'name' or, when `fail`, throws Exception(name).
Zval Task(Log* log, const std::string& name, int yields = 0, bool fail = false);

// $group->spawn($task) (a TaskGroup or TaskSet); the result is dropped.
void SpawnIn(Zval& group, Zval task);

// Render(), but an array shows every key: [0: 'a', k: 1].
std::string Keyed(const zval* value);
inline std::string Keyed(const Zval& value) { return Keyed(value.get()); }

// $future->await(); the result as Keyed() renders it, or "Class: message" of
// what it threw (taken).
std::string AwaitText(Zval& future);

// $group->method() (all, any, race, joinNext, ...), then AwaitText of the
// future it returns.
std::string AwaitCall(Zval& group, const char* method);
// The same with $group->method() called twice before either future is
// awaited: both outcomes, in call order.
void AwaitCallTwice(Zval& group, const char* method, std::string* first,
                    std::string* second);
// The same, `*completed` being the future's isCompleted() before the await.
std::string AwaitCall(Zval& group, const char* method, std::string* completed);

// $group->close(); $group->awaitCompletion().
void CloseAndAwaitCompletion(Zval& group);

// The messages of a CompositeException's getExceptions(), in order.
std::vector<std::string> CompositeMessages(zend_object* composite);

// $e->getMessage() of an exception object.
std::string MessageOf(zend_object* exception);

}  // namespace zar::task_group_testing

#endif  // ZAR_TESTS_TASK_GROUP_SUPPORT_TASK_GROUP_TEST_H_
