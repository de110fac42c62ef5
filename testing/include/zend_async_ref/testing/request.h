// zend-async-ref testing: one engine lifetime and one request, as plain
// functions (request_fixture.h wraps them in a GoogleTest fixture).
//
//   zar::testing::StartEngine({&zar_async_module_entry, &my_module_entry});
//   zar::testing::StartRequest();
//   zar::testing::RunMain([] { ... the script ... });
//   std::string leaks = zar::testing::RequestLeaks(zar::testing::EndRequest());
//   zar::testing::StopEngine();
//
// StartEngine is sapi_startup() + php_mock_module_startup() (MINIT of the
// program's built-in extensions, then of `modules` in order); StartRequest
// is php_request_startup() (every RINIT); EndRequest is
// php_request_shutdown() (the scheduler drains, every RSHUTDOWN runs, the
// allocator and the object store are checked); StopEngine is
// php_module_shutdown() + sapi_shutdown() and then returns the async
// registry to its just-started state, so that the next engine starts from
// a clean process.
//
// Threading: the engine's thread; one engine per process at a time.

#ifndef ZEND_ASYNC_REF_TESTING_REQUEST_H_
#define ZEND_ASYNC_REF_TESTING_REQUEST_H_

#include <functional>
#include <string>
#include <vector>

extern "C" {
#include "php_main.h"
}

namespace zar::testing {

// Starts the engine with `modules` (borrowed; they must outlive the
// engine). FAILURE when a module's MINIT failed; StopEngine() is still
// due then.
zend_result StartEngine(const std::vector<zend_module_entry*>& modules);

// Starts a request (every module's RINIT). FAILURE when one failed.
zend_result StartRequest();

// Runs `main` as the request's main script (php_execute_main): the body
// first, then the scheduler until every coroutine has finished (PHP's
// "scheduler after main"). An exception `main` leaves is the script's
// uncaught exception. Returns false if the script bailed out.
bool RunMain(const std::function<void()>& main);

// Ends the request and returns what php_request_shutdown() found.
php_mock_request_report EndRequest();

// "" when `report` is clean; otherwise what is wrong, one problem a
// sentence: emalloc blocks leaked (each block is also printed to stderr by
// the allocator), objects still referenced when the request ended.
std::string RequestLeaks(const php_mock_request_report& report);

// The fatal errors reported while the current (or last) request was active,
// oldest first (php_mock_request_fatal_error): an exception nobody caught
// (the script's, a coroutine's, one left in flight at the request's end)
// reads "Uncaught Class: message".
std::vector<std::string> RequestFatalErrors();

// Shuts the engine down (every MSHUTDOWN) and resets the async registry
// and the engine's error log.
void StopEngine();

}  // namespace zar::testing

#endif  // ZEND_ASYNC_REF_TESTING_REQUEST_H_
