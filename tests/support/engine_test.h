// zend-async-ref test support: a fixture that runs each test inside a full
// engine lifetime and request, and checks that nothing leaked.
//
//   class MyTest : public zar::testing::EngineTest {
//    protected:
//     std::vector<zend_module_entry*> Modules() override { return {&my_ext}; }
//   };
//   TEST_F(MyTest, Something) {
//     RunMain([&] { ... the "script" ... });
//   }
//
// SetUp starts the engine with Modules() and a request. TearDown shuts the
// request down (the scheduler drains, modules' RSHUTDOWN run) and then
// fails the test if any emalloc block leaked or any object was still alive
// when the object store was torn down; finally it shuts the engine down and
// resets the async registry, so the next test starts from a clean process
// state.

#ifndef ZAR_TESTS_SUPPORT_ENGINE_TEST_H_
#define ZAR_TESTS_SUPPORT_ENGINE_TEST_H_

#include <gtest/gtest.h>

#include <functional>
#include <vector>

extern "C" {
#include "Zend/zend_async_API.h"
#include "php_main.h"
}

namespace zar::testing {

class EngineTest : public ::testing::Test {
 protected:
  // The extensions started for this test (MINIT order). Default: none.
  virtual std::vector<zend_module_entry*> Modules() { return {}; }

  void SetUp() override;
  void TearDown() override;

  // Runs `main` as the request's main script; false if it bailed out.
  bool RunMain(const std::function<void()>& main);

  // Ends the request early (tests of shutdown itself). TearDown then only
  // checks the report of this shutdown.
  php_mock_request_report ShutdownRequest();

 private:
  bool request_active_ = false;
};

}  // namespace zar::testing

#endif  // ZAR_TESTS_SUPPORT_ENGINE_TEST_H_
