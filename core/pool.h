// zend-async-ref core: the pool's header moved to core/pool/pool.h; this name
// stays for the scheduler's files that still include it, until they move
// into core/scheduler/.

#ifndef ZAR_CORE_POOL_FORWARD_H_
#define ZAR_CORE_POOL_FORWARD_H_

#include "core/pool/pool.h"

#endif  // ZAR_CORE_POOL_FORWARD_H_
