// One engine lifetime and one request (request.h).

#include "zend_async_ref/testing/request.h"

#include <string>

extern "C" {
#include "zend_async_ref/registry_testing.h"
}

namespace zar::testing {
namespace {

void MainTrampoline(void* arg) {
  (*static_cast<const std::function<void()>*>(arg))();
}

}  // namespace

zend_result StartEngine(const std::vector<zend_module_entry*>& modules) {
  zend_mock_errors_clear();
  sapi_startup(&php_mock_sapi_module);
  return php_mock_module_startup(&php_mock_sapi_module, modules.data(),
                                 static_cast<uint32_t>(modules.size()));
}

zend_result StartRequest() { return php_request_startup(); }

bool RunMain(const std::function<void()>& main) {
  return php_execute_main(&MainTrampoline,
                          const_cast<std::function<void()>*>(&main));
}

php_mock_request_report EndRequest() {
  php_request_shutdown(nullptr);
  return php_mock_last_request_report();
}

std::string RequestLeaks(const php_mock_request_report& report) {
  std::string problems;
  if (report.leaked_blocks != 0) {
    problems += std::to_string(report.leaked_blocks) +
                " emalloc block(s) leaked, " +
                std::to_string(report.leaked_bytes) +
                " bytes (see stderr for each block).";
  }
  if (report.objects_alive_at_shutdown != 0) {
    if (!problems.empty()) problems += ' ';
    problems += std::to_string(report.objects_alive_at_shutdown) +
                " object(s) still referenced when the request ended.";
  }
  return problems;
}

std::vector<std::string> RequestFatalErrors() {
  std::vector<std::string> errors;
  for (uint32_t i = 0; const char* error = php_mock_request_fatal_error(i);
       i++) {
    errors.emplace_back(error);
  }
  return errors;
}

void StopEngine() {
  php_module_shutdown();
  sapi_shutdown();
  zend_async_ref_reset_registry();
  zend_mock_errors_clear();
}

}  // namespace zar::testing
