// Async\Pool objects: handlers and methods (object.h).

#include "core/pool/object.h"

#include <cinttypes>
#include <cstdio>
#include <utility>

#include "core/internal/arginfo.h"
#include "core/pool/circuit_breaker.h"
#include "core/pool/classes.h"
#include "core/pool/strict.h"

extern "C" {
#include "zend_async_ref/strict.h"
#include "zend_async_ref/trace.h"
}

namespace zar::core {
namespace {

using internal::arginfo_none;
using internal::EventWrapper;

// The pool of an Async\Pool object (an internal::EventWrapper), of $this;
// NULL before construction.
constexpr auto PoolOfObject = internal::WrappedOwner<AsyncPool>;
constexpr auto ThisPool = internal::WrappedThis<AsyncPool>;

void ThrowNotInitialized() { ThrowPoolException("Pool is not initialized"); }

// The pool of $this, or nullptr with "Pool is not initialized" thrown.
constexpr auto RequirePool =
    internal::RequireWrappedThis<AsyncPool, ThrowNotInitialized>;

// Whether the resources of `pool` were made by C: its factory is a C
// function (ZEND_ASYNC_NEW_POOL, as PDO's pool is made). Such a slot may hold
// anything C put there (IS_PTR to a connection), so PHP can neither be given
// one nor give one back (php-async #276/#277).
bool EngineOwnsResources(const AsyncPool* pool) {
  return (pool->base.handler_flags & ZEND_ASYNC_POOL_F_FACTORY_INTERNAL) != 0;
}

// The pool of $this for a method that moves a resource across the boundary
// (`verb`: "acquired", "released"), or nullptr with an exception thrown:
// "Pool is not initialized", or Async\PoolException "<method>(): the
// resources of this pool are owned by the extension that created it and
// cannot be <verb> from PHP" on a pool whose resources C owns. Nothing of
// the pool is touched before the check.
AsyncPool* RequireUserlandResources(zend_execute_data* execute_data,
                                    const char* method, const char* verb) {
  AsyncPool* pool = RequirePool(execute_data);
  if (pool == nullptr || !EngineOwnsResources(pool)) return pool;
  char message[160];
  std::snprintf(message, sizeof message,
                "%s(): the resources of this pool are owned by the extension "
                "that created it and cannot be %s from PHP",
                method, verb);
  ThrowPoolException(message);
  return nullptr;
}

// ---- Handlers --------------------------------------------------------------

// The object is the only owner of its pool (no C owner, no other wrapper,
// no waiting coroutine): destroying it closes the pool.
void DestroyPoolObject(zend_object* object) {
  if (EventWrapper::FromObject(object)->SoleOwner() &&
      !PoolOfObject(object)->closed()) {
    PoolClose(&PoolOfObject(object)->base);
  }
}

void FreePoolObject(zend_object* object) {
  AsyncPool* pool = PoolOfObject(object);
  if (pool != nullptr && pool->base.wrapper == object) {
    pool->base.wrapper = nullptr;
  }
  internal::FreeEventWrapper(object);
}

// get_gc (internal::GetEventWrapperGc): the idle resources, the handlers
// that are callables, a userland strategy.
void ReportResourcesAndHandlers(AsyncPool* pool, zend_get_gc_buffer* buffer) {
  for (uint32_t i = 0; i < pool->idle.size(); i++) {
    zend_get_gc_buffer_add_zval(buffer, const_cast<zval*>(&pool->idle[i]));
  }
  zend_async_pool_t* base = &pool->base;
  // Each handler with its "C function" flag: the others are callables.
  const std::pair<uint8_t, zend_fcall_t*> handlers[] = {
      {ZEND_ASYNC_POOL_F_FACTORY_INTERNAL, base->factory.fcall},
      {ZEND_ASYNC_POOL_F_DESTRUCTOR_INTERNAL, base->destructor.fcall},
      {ZEND_ASYNC_POOL_F_HEALTHCHECK_INTERNAL, base->healthcheck.fcall},
      {ZEND_ASYNC_POOL_F_BEFORE_ACQUIRE_INTERNAL, base->before_acquire.fcall},
      {ZEND_ASYNC_POOL_F_BEFORE_RELEASE_INTERNAL, base->before_release.fcall},
  };
  for (const auto& [internal_flag, fcall] : handlers) {
    if ((base->handler_flags & internal_flag) == 0 && fcall != nullptr) {
      zend_get_gc_buffer_add_zval(buffer, &fcall->fci.function_name);
    }
  }
  if (HasUserStrategy(pool)) {
    zend_get_gc_buffer_add_obj(buffer, base->strategy.object);
  }
}

// Makes `object` wrap `pool`, taking over one reference.
void Attach(zend_object* object, AsyncPool* pool) {
  EventWrapper::FromObject(object)->ref.event = pool->event();
  pool->base.wrapper = object;
}

// ---- __construct
// -------------------------------------------------------------

// A zend_fcall_t for a parsed callable, or nullptr when it was null.
zend_fcall_t* MakeFcall(zend_fcall_info& fci, zend_fcall_info_cache& fcc) {
  if (!ZEND_FCI_INITIALIZED(fci)) return nullptr;
  zval* no_args = nullptr;
  uint32_t no_arg_count = 0;
  HashTable* no_named_args = nullptr;
  ZEND_ASYNC_FCALL_DEFINE(fcall, fci, fcc, no_args, no_arg_count,
                          no_named_args);
  return fcall;
}

ZEND_METHOD(Async_Pool, __construct) {
  (void)return_value;
  zend_fcall_info factory_fci = empty_fcall_info;
  zend_fcall_info_cache factory_fcc = empty_fcall_info_cache;
  zend_fcall_info hook_fci[4] = {empty_fcall_info, empty_fcall_info,
                                 empty_fcall_info, empty_fcall_info};
  zend_fcall_info_cache hook_fcc[4] = {
      empty_fcall_info_cache, empty_fcall_info_cache, empty_fcall_info_cache,
      empty_fcall_info_cache};
  zend_long min = 0;
  zend_long max = 10;
  zend_long interval = 0;

  ZEND_PARSE_PARAMETERS_START(1, 8)
  Z_PARAM_FUNC(factory_fci, factory_fcc)
  Z_PARAM_OPTIONAL
  Z_PARAM_FUNC_OR_NULL(hook_fci[0], hook_fcc[0])
  Z_PARAM_FUNC_OR_NULL(hook_fci[1], hook_fcc[1])
  Z_PARAM_FUNC_OR_NULL(hook_fci[2], hook_fcc[2])
  Z_PARAM_FUNC_OR_NULL(hook_fci[3], hook_fcc[3])
  Z_PARAM_LONG(min)
  Z_PARAM_LONG(max)
  Z_PARAM_LONG(interval)
  ZEND_PARSE_PARAMETERS_END();

  if (min < 0) {
    zend_argument_value_error(6, "must be >= 0");
    RETURN_THROWS();
  }
  if (max < 1) {
    zend_argument_value_error(7, "must be >= 1");
    RETURN_THROWS();
  }
  if (min > max) {
    zend_argument_value_error(6, "must be <= max");
    RETURN_THROWS();
  }
  if (interval < 0) {
    zend_argument_value_error(8, "must be >= 0");
    RETURN_THROWS();
  }
  if (min > UINT32_MAX || max > UINT32_MAX || interval > UINT32_MAX) {
    zend_value_error("Async\\Pool::__construct(): sizes must fit 32 bits");
    RETURN_THROWS();
  }
  if (min > kMaxPoolMinSize) {
    zend_argument_value_error(6, "must be <= %" PRIu32, kMaxPoolMinSize);
    RETURN_THROWS();
  }
  if (ThisPool(execute_data) != nullptr) {
    // Upstream has no such guard; refused with its class for an
    // uninitialised pool.
    ThrowPoolException("Async\\Pool is already initialized");
    RETURN_THROWS();
  }

  AsyncPool* pool =
      AllocatePool(static_cast<uint32_t>(min), static_cast<uint32_t>(max),
                   static_cast<uint32_t>(interval));
  zend_async_pool_t* base = &pool->base;
  base->handler_flags = 0;
  base->factory.fcall = MakeFcall(factory_fci, factory_fcc);
  base->destructor.fcall = MakeFcall(hook_fci[0], hook_fcc[0]);
  base->healthcheck.fcall = MakeFcall(hook_fci[1], hook_fcc[1]);
  base->before_acquire.fcall = MakeFcall(hook_fci[2], hook_fcc[2]);
  base->before_release.fcall = MakeFcall(hook_fci[3], hook_fcc[3]);
  Attach(Z_OBJ_P(ZEND_THIS), pool);
  // Pre-warm exceptions propagate; the pool stays attached (and is closed
  // with the object).
  StartPool(pool);
}

// ---- Acquire / release ------------------------------------------------------

ZEND_METHOD(Async_Pool, acquire) {
  zend_long timeout = 0;
  ZEND_PARSE_PARAMETERS_START(0, 1)
  Z_PARAM_OPTIONAL
  Z_PARAM_LONG(timeout)
  ZEND_PARSE_PARAMETERS_END();

  AsyncPool* pool = RequireUserlandResources(
      execute_data, "Async\\Pool::acquire", "acquired");
  if (pool == nullptr) RETURN_THROWS();
  if (ZEND_ASYNC_CURRENT_COROUTINE == nullptr) {
    ZEND_ASYNC_SCHEDULER_LAUNCH();
    if (EG(exception) != nullptr) {
      if (ZEND_ASYNC_REF_STRICT()) {
        ReportLaunchFailure(pool, "Async\\Pool::acquire",
                            "cannot acquire outside a coroutine");
      }
      RETURN_THROWS();
    }
  }
  if (!PoolAcquire(&pool->base, return_value, timeout)) {
    ZVAL_NULL(return_value);
  }
}

ZEND_METHOD(Async_Pool, tryAcquire) {
  ZEND_PARSE_PARAMETERS_NONE();
  AsyncPool* pool = RequireUserlandResources(
      execute_data, "Async\\Pool::tryAcquire", "acquired");
  if (pool == nullptr) RETURN_THROWS();
  if (!PoolTryAcquire(&pool->base, return_value)) ZVAL_NULL(return_value);
}

ZEND_METHOD(Async_Pool, release) {
  (void)return_value;
  zval* resource = nullptr;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_ZVAL(resource)
  ZEND_PARSE_PARAMETERS_END();
  AsyncPool* pool = RequireUserlandResources(
      execute_data, "Async\\Pool::release", "released");
  if (pool == nullptr) RETURN_THROWS();
  PoolReleaseFrom(&pool->base, resource, "Async\\Pool::release");
}

ZEND_METHOD(Async_Pool, close) {
  (void)return_value;
  ZEND_PARSE_PARAMETERS_NONE();
  AsyncPool* pool = ThisPool(execute_data);
  if (pool != nullptr) PoolClose(&pool->base);
}

ZEND_METHOD(Async_Pool, isClosed) {
  ZEND_PARSE_PARAMETERS_NONE();
  AsyncPool* pool = ThisPool(execute_data);
  RETURN_BOOL(pool == nullptr || pool->closed());
}

// ---- Counts
// -------------------------------------------------------------------

ZEND_METHOD(Async_Pool, count) {
  ZEND_PARSE_PARAMETERS_NONE();
  AsyncPool* pool = ThisPool(execute_data);
  RETURN_LONG(pool != nullptr ? pool->total() : 0);
}

ZEND_METHOD(Async_Pool, idleCount) {
  ZEND_PARSE_PARAMETERS_NONE();
  AsyncPool* pool = ThisPool(execute_data);
  RETURN_LONG(pool != nullptr ? pool->idle.size() : 0);
}

ZEND_METHOD(Async_Pool, activeCount) {
  ZEND_PARSE_PARAMETERS_NONE();
  AsyncPool* pool = ThisPool(execute_data);
  RETURN_LONG(pool != nullptr ? pool->active_count : 0);
}

// ---- Circuit breaker --------------------------------------------------------

ZEND_METHOD(Async_Pool, setCircuitBreakerStrategy) {
  (void)return_value;
  zend_object* strategy = nullptr;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_OBJ_OF_CLASS_OR_NULL(strategy, CircuitBreakerStrategyClass())
  ZEND_PARSE_PARAMETERS_END();
  AsyncPool* pool = RequirePool(execute_data);
  if (pool == nullptr) RETURN_THROWS();
  SetUserStrategy(pool, strategy);
}

ZEND_METHOD(Async_Pool, getState) {
  ZEND_PARSE_PARAMETERS_NONE();
  AsyncPool* pool = RequirePool(execute_data);
  if (pool == nullptr) RETURN_THROWS();
  const char* name = "ACTIVE";
  switch (pool->base.circuit_state) {
    case ZEND_ASYNC_CIRCUIT_STATE_ACTIVE:
      name = "ACTIVE";
      break;
    case ZEND_ASYNC_CIRCUIT_STATE_INACTIVE:
      name = "INACTIVE";
      break;
    case ZEND_ASYNC_CIRCUIT_STATE_RECOVERING:
      name = "RECOVERING";
      break;
  }
  zend_object* state =
      zend_enum_get_case_cstr(CircuitBreakerStateClass(), name);
  if (state == nullptr) RETURN_NULL();
  RETURN_OBJ_COPY(state);
}

void SetState(zend_execute_data* execute_data,
              zend_async_circuit_state_t state) {
  AsyncPool* pool = RequirePool(execute_data);
  if (pool != nullptr) pool->base.circuit_state = state;
}

ZEND_METHOD(Async_Pool, activate) {
  (void)return_value;
  ZEND_PARSE_PARAMETERS_NONE();
  SetState(execute_data, ZEND_ASYNC_CIRCUIT_STATE_ACTIVE);
}

ZEND_METHOD(Async_Pool, deactivate) {
  (void)return_value;
  ZEND_PARSE_PARAMETERS_NONE();
  SetState(execute_data, ZEND_ASYNC_CIRCUIT_STATE_INACTIVE);
}

ZEND_METHOD(Async_Pool, recover) {
  (void)return_value;
  ZEND_PARSE_PARAMETERS_NONE();
  SetState(execute_data, ZEND_ASYNC_CIRCUIT_STATE_RECOVERING);
}

// ---- Arg info and method table ------------------------------------------

ZEND_BEGIN_ARG_INFO_EX(arginfo_construct, 0, 0, 1)
ZEND_ARG_TYPE_INFO(0, factory, IS_CALLABLE, 0)
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, destructor, IS_CALLABLE, 1, "null")
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, healthcheck, IS_CALLABLE, 1, "null")
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, beforeAcquire, IS_CALLABLE, 1, "null")
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, beforeRelease, IS_CALLABLE, 1, "null")
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, min, IS_LONG, 0, "0")
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, max, IS_LONG, 0, "10")
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, healthcheckInterval, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZAR_ARG_INFO_1(arginfo_acquire, 0,
               ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_LONG, 0,
                                                     "0"))

ZAR_ARG_INFO_1(arginfo_release, 1, ZEND_ARG_TYPE_INFO(0, resource, IS_MIXED, 0))

ZAR_ARG_INFO_1(arginfo_set_strategy, 1, ZEND_ARG_INFO(0, strategy))

// clang-format off
const zend_function_entry kPoolMethods[] = {
    ZEND_ME(Async_Pool, __construct, arginfo_construct, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Pool, acquire, arginfo_acquire, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Pool, tryAcquire, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Pool, release, arginfo_release, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Pool, close, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Pool, isClosed, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Pool, count, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Pool, idleCount, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Pool, activeCount, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Pool, setCircuitBreakerStrategy, arginfo_set_strategy,
            ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Pool, getState, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Pool, activate, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Pool, deactivate, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Pool, recover, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_FE_END};
// clang-format on

}  // namespace

const zend_function_entry* PoolMethods() { return kPoolMethods; }

const zend_object_handlers* PoolObjectHandlers() {
  // free_obj, dtor_obj, get_gc, count_elements.
  static const zend_object_handlers handlers =
      internal::MakeObjectHandlers<EventWrapper>(
          {FreePoolObject, DestroyPoolObject,
           internal::GetEventWrapperGc<AsyncPool, ReportResourcesAndHandlers>,
           internal::CountEventWrapper<AsyncPool, &AsyncPool::total>});
  return &handlers;
}

zend_object* NewPoolObject(zend_async_pool_t* pool) {
  zend_object* object =
      internal::NewEventWrapper(PoolClass(), "Async\\Pool", &pool->event);
  if (object != nullptr) AsyncPool::FromAbi(pool)->base.wrapper = object;
  return object;
}

}  // namespace zar::core
