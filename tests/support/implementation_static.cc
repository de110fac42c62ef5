// AsyncModule() for the conformance suites' ctest executables: the
// reference extension of core/, linked in.

#include "core/extension.h"
#include "tests/support/implementation.h"

namespace zar::testing {

zend_module_entry* AsyncModule() { return &zar_async_module_entry; }

}  // namespace zar::testing
