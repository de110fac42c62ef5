#include "tests/support/engine_test.h"

extern "C" {
#include "zend_async_ref/registry_testing.h"
}

namespace zar::testing {
namespace {

void MainTrampoline(void* arg) {
  (*static_cast<const std::function<void()>*>(arg))();
}

}  // namespace

void EngineTest::SetUp() {
  zend_mock_errors_clear();
  std::vector<zend_module_entry*> modules = Modules();
  sapi_startup(&php_mock_sapi_module);
  ASSERT_EQ(php_mock_module_startup(&php_mock_sapi_module, modules.data(),
                                    static_cast<uint32_t>(modules.size())),
            SUCCESS);
  ASSERT_EQ(php_request_startup(), SUCCESS);
  request_active_ = true;
}

bool EngineTest::RunMain(const std::function<void()>& main) {
  return php_execute_main(&MainTrampoline,
                          const_cast<std::function<void()>*>(&main));
}

php_mock_request_report EngineTest::ShutdownRequest() {
  if (request_active_) {
    php_request_shutdown(nullptr);
    request_active_ = false;
  }
  return php_mock_last_request_report();
}

void EngineTest::TearDown() {
  const php_mock_request_report report = ShutdownRequest();
  EXPECT_EQ(report.leaked_blocks, 0u)
      << report.leaked_bytes << " bytes leaked (see stderr for each block)";
  EXPECT_EQ(report.objects_alive_at_shutdown, 0u)
      << "objects still referenced when the request ended";
  php_module_shutdown();
  sapi_shutdown();
  zend_async_ref_reset_registry();
  zend_mock_errors_clear();
}

}  // namespace zar::testing
