// Registering the pool's ABI functions (pool_registration.h).

#include "core/pool_registration.h"

#include "core/extension.h"
#include "core/pool.h"
#include "core/pool_object.h"

namespace zar::core {

void RegisterPool() {
  zend_async_pool_api_register(kSchedulerModuleName, false, NewPool,
                               NewPoolObject, PoolAcquire, PoolTryAcquire,
                               PoolRelease, PoolClose);
}

}  // namespace zar::core
