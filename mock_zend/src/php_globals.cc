// zend-async-ref: mock PHP. The core globals, PG() (main/php_globals.h),
// and the last error they keep.

#include "engine_internal.h"

extern "C" {
#include "main/php_globals.h"
}

extern "C" {

php_core_globals core_globals;

}  // extern "C"

namespace mock_zend::internal {

void ClearLastError() {
  if (PG(last_error_message) != nullptr) {
    zend_string_release(PG(last_error_message));
    PG(last_error_message) = nullptr;
  }
  if (PG(last_error_file) != nullptr) {
    zend_string_release(PG(last_error_file));
    PG(last_error_file) = nullptr;
  }
  PG(last_error_type) = 0;
  PG(last_error_lineno) = 0;
}

// As php_error_cb: the file is the one being compiled, else the executing
// script's, else "Unknown".
void NoteLastError(int type, const std::string& message) {
  ClearLastError();
  zend_string* file = zend_is_compiling() ? zend_get_compiled_filename()
                                          : zend_get_executed_filename_ex();
  const int line = zend_is_compiling()
                       ? zend_get_compiled_lineno()
                       : static_cast<int>(zend_get_executed_lineno());
  PG(last_error_type) = type;
  PG(last_error_message) =
      zend_string_init(message.data(), message.size(), true);
  PG(last_error_file) =
      file != nullptr ? zend_string_init(ZSTR_VAL(file), ZSTR_LEN(file), true)
                      : zend_string_init(ZEND_STRL("Unknown"), true);
  PG(last_error_lineno) = line;
}

}  // namespace mock_zend::internal
