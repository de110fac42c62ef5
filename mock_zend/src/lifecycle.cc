// zend-async-ref: C++ helpers over the mock Zend engine. Scoped engine and
// request lifetimes (mock_zend/lifecycle.h).

#include "mock_zend/lifecycle.h"

extern "C" {
#include "zend_async_ref/registry_testing.h"
}

namespace mock_zend {
namespace {

void RunFunction(void* arg) {
  (*static_cast<const std::function<void()>*>(arg))();
}

}  // namespace

// The engine (and the SAPI) are shut down by this object only if this
// object started them (a failed MINIT still leaves an engine to shut down).
Engine::Engine(std::vector<zend_module_entry*> modules,
               sapi_module_struct* sapi) {
  if (php_module_started()) return;  // another Engine runs
  sapi_startup(sapi);
  started_ =
      php_mock_module_startup(sapi, modules.data(),
                              static_cast<uint32_t>(modules.size())) == SUCCESS;
  owns_engine_ = true;
}

Engine::~Engine() {
  if (!owns_engine_) return;
  php_module_shutdown();
  sapi_shutdown();
  zend_async_ref_reset_registry();
}

// A request whose RINIT failed is still active and is shut down here.
Request::Request() {
  if (EG(active)) return;  // another request is running
  php_request_startup();
  active_ = EG(active);
}

Request::~Request() { Finish(); }

bool Request::RunMain(const std::function<void()>& main) {
  return php_execute_main(&RunFunction,
                          const_cast<std::function<void()>*>(&main));
}

zend_mm_leak_info Request::Finish() {
  if (active_) {
    php_request_shutdown(nullptr);
    active_ = false;
  }
  return zend_mm_last_leaks();
}

}  // namespace mock_zend
