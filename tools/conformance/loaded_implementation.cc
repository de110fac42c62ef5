#include "tools/conformance/loaded_implementation.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

#include "tests/support/implementation.h"

extern "C" {
#include "zend_async_ref/conformance.h"
}

namespace zar::conformance {
namespace {

// Set once by LoadImplementation; the library is never unloaded.
zend_module_entry* loaded_module = nullptr;

}  // namespace

zend_module_entry* LoadImplementation(const std::string& path,
                                      std::string* error) {
  // RTLD_NOW: an engine or ABI symbol the runner does not provide fails
  // here, not in the middle of a test. RTLD_LOCAL: nothing the library
  // defines can take the place of the runner's symbols.
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    *error = dlerror();
    return nullptr;
  }
  auto entry_point = reinterpret_cast<zend_async_conformance_module_t>(
      dlsym(library, ZEND_ASYNC_CONFORMANCE_ENTRY_POINT));
  if (entry_point == nullptr) {
    *error = path + " does not export " ZEND_ASYNC_CONFORMANCE_ENTRY_POINT "()";
    return nullptr;
  }
  zend_module_entry* module = entry_point();
  if (module == nullptr || module->name == nullptr) {
    *error = path + ": " ZEND_ASYNC_CONFORMANCE_ENTRY_POINT
                    "() returned no module (or one without a name)";
    return nullptr;
  }
  if (module->size != sizeof(zend_module_entry) ||
      module->zend_api != ZEND_MODULE_API_NO) {
    *error = path + ": module " + module->name +
             " was built for another engine (module API " +
             std::to_string(module->zend_api) + ", the runner's is " +
             std::to_string(ZEND_MODULE_API_NO) + ")";
    return nullptr;
  }
  loaded_module = module;
  return module;
}

}  // namespace zar::conformance

namespace zar::testing {

zend_module_entry* AsyncModule() {
  if (conformance::loaded_module == nullptr) {
    std::fprintf(stderr,
                 "zend-async-conformance: a test asked for the "
                 "implementation before one was loaded\n");
    std::abort();
  }
  return conformance::loaded_module;
}

}  // namespace zar::testing
