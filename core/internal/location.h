// zend-async-ref core: where the engine is executing, recorded into the
// ABI's filename/lineno pairs (a coroutine's spawn location, a future's
// creation and completion locations).
//
// Threading: the request's thread.

#ifndef ZAR_CORE_INTERNAL_LOCATION_H_
#define ZAR_CORE_INTERNAL_LOCATION_H_

#include <cstdint>

extern "C" {
#include "Zend/zend_globals.h"
#include "Zend/zend_string.h"
}

namespace zar::core {

// Records where the engine is executing now (zend_get_executed_filename /
// lineno) into *filename / *lineno, releasing what *filename held. A NULL
// filename means "not executing a script".
inline void ApplyCurrentLocation(zend_string** filename, uint32_t* lineno) {
  zend_string* now = zend_get_executed_filename_ex();
  if (UNEXPECTED(*filename != now)) {
    if (*filename != nullptr) zend_string_release(*filename);
    *filename = now != nullptr ? zend_string_copy(now) : nullptr;
  }
  *lineno = zend_get_executed_lineno();
}

}  // namespace zar::core

#endif  // ZAR_CORE_INTERNAL_LOCATION_H_
