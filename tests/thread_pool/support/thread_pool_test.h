// zend-async-ref thread pool tests: the reactor tests' support
// (tests/reactor/support/reactor_test.h: ReactorTest, AddRecorder,
// NotificationLog, RunUntil, InfoOf, TakeExceptionText, ...) by the short
// names the thread pool suites use, as the IO suites have them.
//
// Threading: the test's thread.

#ifndef ZAR_TESTS_THREAD_POOL_SUPPORT_THREAD_POOL_TEST_H_
#define ZAR_TESTS_THREAD_POOL_SUPPORT_THREAD_POOL_TEST_H_

#include "tests/reactor/support/reactor_test.h"

namespace zar::thread_pool_testing {

using namespace reactor_testing;  // NOLINT(build/namespaces)

}  // namespace zar::thread_pool_testing

#endif  // ZAR_TESTS_THREAD_POOL_SUPPORT_THREAD_POOL_TEST_H_
