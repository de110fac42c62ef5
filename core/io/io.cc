// The registration of core/io/'s two ABI groups, each described once by a
// designated-initialised table and passed from a single place, so that no
// entry can land in the wrong position.

#include "core/io/io.h"

#include "core/reactor/reactor.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core {

// ---- Socket listening ------------------------------------------------------

// ---- Async IO --------------------------------------------------------------

}  // namespace zar::core
