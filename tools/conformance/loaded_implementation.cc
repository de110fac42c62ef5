#include "tools/conformance/loaded_implementation.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tests/support/implementation.h"

extern "C" {
#include "zend_async_ref/conformance.h"
}

namespace zar::conformance {
namespace {

// Set once by LoadImplementation; the library is never unloaded.
zend_module_entry* loaded_module = nullptr;

}  // namespace

absl::StatusOr<zend_module_entry*> LoadImplementation(const std::string& path) {
  // RTLD_NOW: an engine or ABI symbol the runner does not provide fails
  // here, not in the middle of a test. RTLD_LOCAL: nothing the library
  // defines can take the place of the runner's symbols.
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    return absl::NotFoundError(why != nullptr ? why : path);
  }
  auto entry_point = reinterpret_cast<zend_async_conformance_module_t>(
      dlsym(library, ZEND_ASYNC_CONFORMANCE_ENTRY_POINT));
  if (entry_point == nullptr) {
    return absl::NotFoundError(absl::StrCat(
        path, " does not export " ZEND_ASYNC_CONFORMANCE_ENTRY_POINT "()"));
  }
  zend_module_entry* module = entry_point();
  if (module == nullptr || module->name == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": " ZEND_ASYNC_CONFORMANCE_ENTRY_POINT
                           "() returned no module (or one without a name)"));
  }
  if (module->size != sizeof(zend_module_entry) ||
      module->zend_api != ZEND_MODULE_API_NO) {
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": module ", module->name,
        " was built for another engine (module API ", module->zend_api,
        ", the runner's is ", ZEND_MODULE_API_NO, ")"));
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
