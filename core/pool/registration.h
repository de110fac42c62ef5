// zend-async-ref core: installing the pool.
//
// The extension's MINIT calls, after the scheduler's classes exist
// (Async\PoolException comes from RegisterPoolExceptionClass()):
//
//   RegisterPool();          // zend_async_pool_api_register(...)
//   RegisterPoolClasses();   // Async\Pool and the circuit breaker types
//
// and its MSHUTDOWN calls ForgetPoolClasses() (the engine frees the class
// entries itself).
//
// Threading: MINIT / MSHUTDOWN only.

#ifndef ZAR_CORE_POOL_REGISTRATION_H_
#define ZAR_CORE_POOL_REGISTRATION_H_

namespace zar::core {

// Registers the pool's ABI functions (new_pool, new_pool_obj, acquire,
// try_acquire, release, close) under kSchedulerModuleName.
void RegisterPool();

// Registers Async\CircuitBreakerState, Async\CircuitBreaker,
// Async\CircuitBreakerStrategy and Async\Pool. False (an error reported)
// when one cannot be registered.
bool RegisterPoolClasses();

// Forgets the class entries.
void ForgetPoolClasses();

}  // namespace zar::core

#endif  // ZAR_CORE_POOL_REGISTRATION_H_
