// zend-async-ref: mock Zend engine. The compiler's globals and position
// (zend_compile.h, CG()). The mock compiles no PHP code: nothing is ever
// being compiled.

#include "engine_internal.h"

extern "C" {

zend_compiler_globals compiler_globals;

bool zend_is_compiling(void) { return CG(in_compilation); }

zend_string* zend_get_compiled_filename(void) { return CG(compiled_filename); }

int zend_get_compiled_lineno(void) { return static_cast<int>(CG(zend_lineno)); }

size_t zend_dirname(char* path, size_t len) {
  if (len == 0) return 0;
  char* end = path + len - 1;
  // Trailing slashes, then the last component, then the slashes before it.
  while (end >= path && *end == '/') end--;
  if (end < path) {  // only slashes: the root
    path[0] = '/';
    path[1] = '\0';
    return 1;
  }
  while (end >= path && *end != '/') end--;
  if (end < path) {  // no directory part
    path[0] = '.';
    path[1] = '\0';
    return 1;
  }
  while (end >= path && *end == '/') end--;
  if (end < path) {
    path[0] = '/';
    path[1] = '\0';
    return 1;
  }
  end[1] = '\0';
  return static_cast<size_t>(end + 1 - path);
}

}  // extern "C"

namespace mock_zend::internal {

namespace {

// The compile-time fields of CG() (not the map-pointer table, which
// compiled_code.cc keeps): nothing is being compiled.
void ResetCompileState() {
  CG(active_class_entry) = nullptr;
  CG(compiled_filename) = nullptr;
  CG(zend_lineno) = 0;
  CG(function_table) = nullptr;
  CG(class_table) = nullptr;
  CG(auto_globals) = nullptr;
  CG(in_compilation) = false;
}

}  // namespace

void CompilerGlobalsStartup() {
  ResetCompileState();
  CG(function_table) = EG(function_table);
  CG(class_table) = EG(class_table);
}

void CompilerGlobalsShutdown() { ResetCompileState(); }

}  // namespace mock_zend::internal
