// zend-async-ref strict-mode tests: the fixture and helpers.
//
//   StrictTest      the engine with the reference extension and a request,
//                   strict mode on from the start of the request. TearDown
//                   ends the request (if the test did not) and fails the
//                   test on a leaked block, or on live objects beyond what
//                   the test declared with ExpectObjectsAliveAtEnd() (tests
//                   of "still registered at request end" leave one on
//                   purpose), then turns strict mode off.
//   Diagnostics()   the strict-mode reports since the test started, each
//                   "<call>: <message>" (the "zend-async-ref strict: "
//                   prefix removed), after checking their level.
//   IntPool(max)    ZEND_ASYNC_NEW_POOL with C handlers making int(1),
//                   int(2), ...
//   PhpIntPool(max) new Async\Pool(factory making int(1), int(2), ...,
//                   max: max): the object (owned), for Async\Pool's methods,
//                   which refuse a pool whose resources C makes.
//   Info(event)     the event's info().
//
// Tests reach everything through the ABI (ZEND_ASYNC_* macros, event
// vtables) and the mock engine's API; coroutines come from
// ZendAsyncRef::testing (zend_async_ref/testing/coroutines.h).
//
// Threading: the test's thread.

#ifndef ZAR_TESTS_STRICT_SUPPORT_STRICT_TEST_H_
#define ZAR_TESTS_STRICT_SUPPORT_STRICT_TEST_H_

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

extern "C" {
#include "Zend/zend_async_API.h"
#include "php_main.h"
}

namespace zar::strict_testing {

class StrictTest : public ::testing::Test {
 protected:
  // The modules started (MINIT order). Default: the reference extension.
  virtual std::vector<zend_module_entry*> Modules();

  void SetUp() override;
  void TearDown() override;

  // Runs `main` as the request's main script; false if it bailed out.
  bool RunMain(const std::function<void()>& main);
  // Ends the request now (idempotent); returns its report.
  php_mock_request_report EndRequest();
  void ExpectObjectsAliveAtEnd(uint32_t count) { objects_alive_ = count; }

 private:
  bool request_active_ = false;
  uint32_t objects_alive_ = 0;
};

// Diagnostics() and other lists of lines, compared whole.
using Strings = std::vector<std::string>;

std::vector<std::string> Diagnostics();

// A callback's handlers for a callback the test itself owns (static or on
// its stack): notifications are ignored, disposal frees nothing.
void Ignore(zend_async_event_t*, zend_async_event_callback_t*, void*,
            zend_object*);
void KeepCallback(zend_async_event_callback_t*, zend_async_event_t*);

// The pool's info() is `info`; then the caller's reference is let go.
void ExpectInfoAndRelease(zend_async_pool_t* pool, const std::string& info);

// A pool of ints made by a C factory: int(1), int(2), ... (counting per
// test). The caller owns the pool reference.
zend_async_pool_t* IntPool(uint32_t max);
zend_object* PhpIntPool(uint32_t max);

// The event's info() as a string.
std::string Info(zend_async_event_t* event);

// EG(exception) as `Class "message"`, released; "" when none.
std::string TakeException();

}  // namespace zar::strict_testing

#endif  // ZAR_TESTS_STRICT_SUPPORT_STRICT_TEST_H_
