// zend-async-ref core: Async\Pool objects, the PHP face of a pool.
//
// final class Async\Pool implements Countable, Async\CircuitBreaker. An
// object made by `new Async\Pool(...)` creates its pool in __construct and
// owns it; ZEND_ASYNC_NEW_POOL_OBJ(pool) makes a new object for an existing
// pool (each call a new one) that holds one more reference to it. Either
// way the object sets pool->wrapper (the $source the strategy is given).
//
// The object is an event reference: ZEND_ASYNC_OBJECT_TO_EVENT(object) is
// the pool's event (NULL before construction).
//
// Lifetime: the object holds one pool event reference from construction
// until free_obj. When the object is destroyed (its last reference
// dropped, or the cycle collector frees it) while it holds the pool's last
// reference, dtor_obj closes the pool, so destroying the object is closing
// the pool: idle resources are destroyed before anything else the object
// kept alive is freed. get_gc reports what the pool holds (idle resources,
// the five callables, the strategy object) only when the object is the
// pool's sole owner, so cycles through a callable are collected and
// nothing a C owner still uses is ever reported.
//
// An object whose __construct did not run (or failed before creating the
// pool) has no pool: acquire/tryAcquire/release and the circuit breaker
// methods throw Async\PoolException "Pool is not initialized"; close() does
// nothing; isClosed() is true; the counts are 0.
//
// Not cloneable. Threading: the request's thread.

#ifndef ZAR_CORE_POOL_OBJECT_H_
#define ZAR_CORE_POOL_OBJECT_H_

#include "core/internal/php_object.h"
#include "core/pool/pool.h"

namespace zar::core {

// new_pool_obj_fn: a new Async\Pool object for `pool` (one pool reference
// taken; pool->wrapper set). The caller owns the returned reference. NULL
// (Async\AsyncException thrown) before the classes are registered.
zend_object* NewPoolObject(zend_async_pool_t* pool);

// Class set-up for classes.cc: the method table and handlers of
// Async\Pool (its create_object is internal::CreateEventWrapper).
const zend_function_entry* PoolMethods();
const zend_object_handlers* PoolObjectHandlers();

}  // namespace zar::core

#endif  // ZAR_CORE_POOL_OBJECT_H_
