// zend-async-ref core: the PHP classes of the pool.
//
//   enum Async\CircuitBreakerState { ACTIVE; INACTIVE; RECOVERING; }  (pure)
//   interface Async\CircuitBreaker {
//     getState(): CircuitBreakerState; activate(): void;
//     deactivate(): void; recover(): void; }
//   interface Async\CircuitBreakerStrategy {
//     reportSuccess(mixed $source): void;
//     reportFailure(mixed $source, \Throwable $error): void;
//     shouldRecover(): bool; }
//   final class Async\Pool implements \Countable, Async\CircuitBreaker
//
// Async\PoolException (extends Async\AsyncException) belongs to the
// extension's class set (async_classes.h).
//
// Threading: registered at MINIT; the entries live until module shutdown.

#ifndef ZAR_CORE_POOL_CLASSES_H_
#define ZAR_CORE_POOL_CLASSES_H_

extern "C" {
#include "php.h"
}

namespace zar::core {

// The class entries; NULL before RegisterPoolClasses().
zend_class_entry* PoolClass();
zend_class_entry* CircuitBreakerStateClass();
zend_class_entry* CircuitBreakerClass();
zend_class_entry* CircuitBreakerStrategyClass();

}  // namespace zar::core

#endif  // ZAR_CORE_POOL_CLASSES_H_
