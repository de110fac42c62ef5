// Registering the pool's ABI functions (registration.h).

#include "core/pool/registration.h"

#include "core/extension.h"
#include "core/pool/object.h"
#include "core/pool/pool.h"

namespace zar::core {

void RegisterPool() {
  zend_async_pool_api_register(kSchedulerModuleName, false, NewPool,
                               NewPoolObject, PoolAcquire, PoolTryAcquire,
                               PoolRelease, PoolClose);
}

}  // namespace zar::core
