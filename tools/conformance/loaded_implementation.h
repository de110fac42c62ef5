// zend-async-conformance: the implementation under test, loaded from a
// shared library (zend_async_ref/conformance.h describes its contract).
//
// LoadImplementation dlopens the library, calls its entry point and keeps
// the module entry it returns; from then on zar::testing::AsyncModule()
// (tests/support/implementation.h), which every conformance fixture calls,
// returns that module. The library stays loaded until the process exits.
//
// Threading: call from the main thread before the tests run.

#ifndef ZAR_TOOLS_CONFORMANCE_LOADED_IMPLEMENTATION_H_
#define ZAR_TOOLS_CONFORMANCE_LOADED_IMPLEMENTATION_H_

#include <string>

#include "absl/status/statusor.h"

extern "C" {
#include "php.h"
}

namespace zar::conformance {

// Loads `path` and takes its module as the implementation under test.
// Returns the module, or an error whose message says why: dlopen's or
// dlsym's message (kNotFound), a NULL or nameless module
// (kInvalidArgument), or one built for another engine, its size or
// zend_api differing from the runner's (kFailedPrecondition).
// REQUIRES: no implementation loaded yet.
absl::StatusOr<zend_module_entry*> LoadImplementation(const std::string& path);

}  // namespace zar::conformance

#endif  // ZAR_TOOLS_CONFORMANCE_LOADED_IMPLEMENTATION_H_
