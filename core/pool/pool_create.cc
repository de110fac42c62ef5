// Creating a pool: allocation, pre-warm, the healthcheck timer, and
// new_pool_fn for C users.

#include <algorithm>
#include <new>

#include "core/async_classes.h"
#include "core/pool/handlers.h"
#include "core/pool/pool.h"
#include "core/pool/strict.h"
#include "core/pool/trace.h"

namespace zar::core {
namespace {

// The idle ring starts with room for this many resources at least (it
// grows when more are released at once).
constexpr uint32_t kMinIdleCapacity = 4;

// The id of the last pool created in this request.
uint32_t last_pool_id = 0;

// Makes min_size resources. A failure with an exception stops (the
// exception stays pending); one without is skipped.
void PreWarm(AsyncPool* pool) {
  for (uint32_t i = 0; i < pool->base.min_size; i++) {
    zval resource;
    ZVAL_UNDEF(&resource);
    pool->active_count++;  // counted while the factory runs
    const bool made = CallFactory(pool, &resource);
    pool->active_count--;
    if (made) {
      pool->idle.PushBack(resource);
    } else if (EG(exception) != nullptr) {
      return;
    }
  }
}

}  // namespace

void ResetPoolIds() { last_pool_id = 0; }

void ThrowPoolException(const char* message) {
  zend_class_entry* ce = PoolExceptionClass();
  zend_throw_exception(ce != nullptr ? ce : zend_ce_exception, message, 0);
}

AsyncPool* AllocatePool(uint32_t min_size, uint32_t max_size,
                        uint32_t healthcheck_interval_ms) {
  auto* pool = new (ecalloc(1, sizeof(AsyncPool))) AsyncPool();
  InitPoolEvent(pool);
  pool->base.circuit_state = ZEND_ASYNC_CIRCUIT_STATE_ACTIVE;
  pool->base.min_size = min_size;
  pool->base.max_size = max_size;
  pool->healthcheck_interval_ms = healthcheck_interval_ms;
  pool->idle.Reserve(std::max(min_size, kMinIdleCapacity));
  pool->id = ++last_pool_id;
  CreatePoolLedger(pool);
  return pool;
}

void StartPool(AsyncPool* pool) {
  if (ZEND_ASYNC_REF_TRACING()) TracePoolCreate(pool);
  PreWarm(pool);
  if (EG(exception) == nullptr) StartHealthcheck(pool);
}

zend_async_pool_t* NewPool(zend_async_pool_factory_fn factory,
                           zend_async_pool_destructor_fn destructor,
                           zend_async_pool_healthcheck_fn healthcheck,
                           zend_async_pool_before_acquire_fn before_acquire,
                           zend_async_pool_before_release_fn before_release,
                           uint32_t min_size, uint32_t max_size,
                           uint32_t healthcheck_interval_ms,
                           size_t /*extra_size*/) {
  AsyncPool* pool = AllocatePool(min_size, max_size, healthcheck_interval_ms);
  zend_async_pool_t* base = &pool->base;
  base->handler_flags = ZEND_ASYNC_POOL_F_FACTORY_INTERNAL |
                        ZEND_ASYNC_POOL_F_DESTRUCTOR_INTERNAL |
                        ZEND_ASYNC_POOL_F_HEALTHCHECK_INTERNAL |
                        ZEND_ASYNC_POOL_F_BEFORE_ACQUIRE_INTERNAL |
                        ZEND_ASYNC_POOL_F_BEFORE_RELEASE_INTERNAL;
  base->factory.internal = factory;
  base->destructor.internal = destructor;
  base->healthcheck.internal = healthcheck;
  base->before_acquire.internal = before_acquire;
  base->before_release.internal = before_release;
  StartPool(pool);
  return base;
}

}  // namespace zar::core
