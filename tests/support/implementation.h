// zend-async-ref conformance tests: the async extension under test.
//
// The conformance suites (tests/abi, scheduler, future, iterator,
// task_group, reactor, io, thread_pool, channel, pool, pool_model, pdo; the
// area table in tools/conformance/areas.cc) reach the implementation only
// through the ABI and through the module entry this function returns: its
// MINIT registers the scheduler, the reactor, async IO, socket listening,
// the thread pool, the pool and the fork hooks with the zend_async_*
// register functions, its RINIT does ZEND_ASYNC_INITIALIZE (the contract of
// zend_async_ref/conformance.h). Two definitions exist:
//
//   implementation_static.cc   the reference extension linked in
//                              (&zar_async_module_entry); the suites' ctest
//                              executables use it.
//   tools/conformance          the module of the library the conformance
//                              runner loaded (--impl).
//
// Threading: the test's thread.

#ifndef ZAR_TESTS_SUPPORT_IMPLEMENTATION_H_
#define ZAR_TESTS_SUPPORT_IMPLEMENTATION_H_

#include <vector>

#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "php.h"
}

namespace zar::testing {

// The async extension under test; never null, valid for the process.
zend_module_entry* AsyncModule();

// The request fixture with the async extension under test started: the
// fixture of the suites that need nothing else (a suite names it,
// `using ChannelTest = zar::testing::AsyncTest;`, or derives from it).
class AsyncTest : public RequestFixture {
 protected:
  std::vector<zend_module_entry*> Modules() override { return {AsyncModule()}; }
};

}  // namespace zar::testing

#endif  // ZAR_TESTS_SUPPORT_IMPLEMENTATION_H_
