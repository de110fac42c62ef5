// zend-async-ref core: the pool's header moved to core/pool/strict.h; this name
// stays for the scheduler's files that still include it, until they move
// into core/scheduler/.

#ifndef ZAR_CORE_POOL_STRICT_FORWARD_H_
#define ZAR_CORE_POOL_STRICT_FORWARD_H_

#include "core/pool/strict.h"

#endif  // ZAR_CORE_POOL_STRICT_FORWARD_H_
