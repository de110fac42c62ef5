// zend-async-ref core: calling a pool's resource handlers.
//
// Each handler is either a C function (its handler_flags bit set; NULL
// means "not set") or a userland callable (a zend_fcall_t*, NULL = not
// set), called through zend_call_function with a local copy of its
// zend_fcall_info.
//
// Conventions (the same for both forms unless said):
//   factory      no arguments; the return value is the resource. Fails
//                when it throws or cannot be called; a C factory fails by
//                returning false. Not set: every creation fails.
//   destructor   the resource as its argument, return value ignored; then
//                the pool drops its own reference. Exceptions propagate.
//   healthcheck, beforeAcquire, beforeRelease
//                the resource as argument; userland: a strict `false`
//                return or a thrown exception rejects the resource (the
//                exception is swallowed), anything else accepts it; C: the
//                bool returned. Not set: accepted.
// An exception already in flight when a userland hook or the destructor
// is called is parked for the call (the engine runs no code while one is
// pending) and put back afterwards; a destructor's own exception is then
// chained after it (previous), so neither is lost
// (mock_zend::ParkedException, ZEND_MOCK_PARKED_STAYS_CURRENT).
//
// The C forms are inline so that a pool with C handlers pays one indirect
// call per hook and nothing else.
//
// Threading: the request's thread. Hooks may suspend the calling coroutine,
// except when the healthcheck tick calls them, in the scheduler context
// (pool.h, Threading).

#ifndef ZAR_CORE_POOL_HANDLERS_H_
#define ZAR_CORE_POOL_HANDLERS_H_

#include "core/pool/pool.h"
#include "core/pool/strict.h"
#include "core/pool/trace.h"
#include "mock_zend/parked_exception.h"

namespace zar::core {

// Userland forms (handlers.cc).
bool CallUserFactory(zend_fcall_t* fcall, zval* result);
void CallUserDestructor(zend_fcall_t* fcall, zval* resource);
bool CallUserCheck(zend_fcall_t* fcall, zval* resource);

// Makes a resource into `result` (owned). False on failure (an exception
// may be pending). A C factory that returns true but leaves `result`
// IS_UNDEF has failed: nothing was made, so nothing is lent, kept or
// destroyed (strict mode reports it).
inline bool CallFactory(AsyncPool* pool, zval* result) {
  zend_async_pool_t* base = &pool->base;
  if (base->handler_flags & ZEND_ASYNC_POOL_F_FACTORY_INTERNAL) {
    ZVAL_UNDEF(result);
    if (base->factory.internal == nullptr ||
        !base->factory.internal(base, result)) {
      return false;
    }
    if (UNEXPECTED(Z_ISUNDEF_P(result))) {
      ReportUndefinedFactoryResult(pool);
      return false;
    }
    return true;
  }
  return base->factory.fcall != nullptr &&
         CallUserFactory(base->factory.fcall, result);
}

// Destroys `resource`, consuming the reference it holds.
inline void DestroyResource(AsyncPool* pool, zval* resource) {
  zend_async_pool_t* base = &pool->base;
  if (ZEND_ASYNC_REF_TRACING()) TracePoolDestroy(pool, resource);
  if (base->handler_flags & ZEND_ASYNC_POOL_F_DESTRUCTOR_INTERNAL) {
    if (base->destructor.internal != nullptr) {
      base->destructor.internal(base, resource);
    }
  } else if (base->destructor.fcall != nullptr) {
    CallUserDestructor(base->destructor.fcall, resource);
  }
  zval_ptr_dtor(resource);
}

// A check handler (healthcheck, beforeAcquire, beforeRelease) said yes:
// the C function when `internal_flag` is set, else the callable; an unset
// handler always does.
template <typename Handler>
inline bool CallCheck(zend_async_pool_t* base, uint8_t internal_flag,
                      const Handler& handler, zval* resource) {
  if (base->handler_flags & internal_flag) {
    return handler.internal == nullptr || handler.internal(base, resource);
  }
  return handler.fcall == nullptr || CallUserCheck(handler.fcall, resource);
}

inline bool CallHealthcheck(AsyncPool* pool, zval* resource) {
  return CallCheck(&pool->base, ZEND_ASYNC_POOL_F_HEALTHCHECK_INTERNAL,
                   pool->base.healthcheck, resource);
}

inline bool CallBeforeAcquire(AsyncPool* pool, zval* resource) {
  return CallCheck(&pool->base, ZEND_ASYNC_POOL_F_BEFORE_ACQUIRE_INTERNAL,
                   pool->base.before_acquire, resource);
}

inline bool CallBeforeRelease(AsyncPool* pool, zval* resource) {
  return CallCheck(&pool->base, ZEND_ASYNC_POOL_F_BEFORE_RELEASE_INTERNAL,
                   pool->base.before_release, resource);
}

// Whether a healthcheck is set (C or userland).
inline bool HasHealthcheck(const AsyncPool* pool) {
  return (pool->base.handler_flags & ZEND_ASYNC_POOL_F_HEALTHCHECK_INTERNAL)
             ? pool->base.healthcheck.internal != nullptr
             : pool->base.healthcheck.fcall != nullptr;
}

// Releases the userland callables of `pool` (dispose).
void ReleaseUserHandlers(AsyncPool* pool);

// Releases EG(exception), if any.
void DiscardException();

}  // namespace zar::core

#endif  // ZAR_CORE_POOL_HANDLERS_H_
