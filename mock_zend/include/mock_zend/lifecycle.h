// zend-async-ref: C++ helpers over the mock Zend engine.
//
// Scoped process and request lifetimes for tests and tools:
//
//   mock_zend::Engine engine({&my_extension_module_entry});
//   {
//     mock_zend::Request request;
//     request.RunMain([&] { ... the script ... });
//   }  // request shutdown: scheduler drained, leaks reported
//
// Engine is sapi_startup(sapi) + php_mock_module_startup(sapi, modules)
// (the program's built-in extensions, then `modules` in order) and, at
// destruction, php_module_shutdown() + sapi_shutdown(); the SAPI is
// php_mock_sapi_module unless one is given. Request is
// php_request_startup() ... php_request_shutdown().
//
// Threading: one Engine per process at a time.

#ifndef MOCK_ZEND_LIFECYCLE_H_
#define MOCK_ZEND_LIFECYCLE_H_

#include <functional>
#include <vector>

extern "C" {
#include "php_main.h"
}

namespace mock_zend {

class Engine {
 public:
  explicit Engine(std::vector<zend_module_entry *> modules = {},
                  sapi_module_struct *sapi = &php_mock_sapi_module);
  ~Engine();
  Engine(const Engine &) = delete;
  Engine &operator=(const Engine &) = delete;

  bool started() const { return started_; }

 private:
  bool started_ = false;
  // This object started the engine (even if a MINIT then failed) and so
  // shuts it down.
  bool owns_engine_ = false;
};

class Request {
 public:
  Request();
  // Shuts the request down if Finish() was not called.
  ~Request();
  Request(const Request &) = delete;
  Request &operator=(const Request &) = delete;

  // Runs `main` as the request's main script (php_execute_main). Returns
  // false if it bailed out.
  bool RunMain(const std::function<void()> &main);

  // php_request_shutdown(); returns what the allocator found leaked.
  zend_mm_leak_info Finish();

 private:
  bool active_ = false;
};

}  // namespace mock_zend

#endif  // MOCK_ZEND_LIFECYCLE_H_
