// zend-async-ref core: the PHP classes of the extension.
//
// RegisterClasses() (MINIT) defines every class of the ABI's
// zend_async_class table except Async\Pool (the pool adds it);
// RegisterPoolExceptionClass() defines Async\PoolException, which belongs to
// the pool (an extension that brings another pool over this scheduler, as
// the conformance pool adapter does, defines its own). GetClassCe() is the
// scheduler's get_class_ce_fn.
//
// Interfaces:
//   Async\Awaitable                         AWAITABLE
//   Async\Completable extends Awaitable     COMPLETABLE
//   Async\ScopeProvider                     SCOPE_PROVIDER
//   Async\SpawnStrategy extends ScopeProvider   SPAWN_STRATEGY
// Classes:
//   Async\Coroutine implements Completable  COROUTINE
//   Async\Scope implements ScopeProvider    SCOPE
//   Async\Context                           CONTEXT
//   Async\Timeout implements Awaitable      TIMEOUT
//   Async\Channel implements Awaitable      CHANNEL
//   Async\Future implements Completable     FUTURE
//   Async\TaskGroup implements Awaitable    GROUP
//   (Async\Pool                             POOL: NULL until the pool issue)
// Exceptions:
//   Async\AsyncException extends \Exception            EXCEPTION_DEFAULT
//   Async\AsyncCancellation extends \Cancellation      EXCEPTION_CANCELLATION
//   Async\TimeoutException extends \Exception          EXCEPTION_TIMEOUT
//   Async\InputOutputException extends \Exception      EXCEPTION_INPUT_OUTPUT
//   Async\PollException extends \Exception             EXCEPTION_POLL
//   Async\DnsException extends \Exception              EXCEPTION_DNS
//   Async\DeadlockError extends \Error                 EXCEPTION_DEADLOCK
//   Async\ServiceUnavailableException extends AsyncException
//                                                EXCEPTION_SERVICE_UNAVAILABLE
//   Async\OperationCanceledException extends AsyncException
//                                                EXCEPTION_OPERATION_CANCELLED
//   Async\ThreadTransferException extends AsyncException
//                                                EXCEPTION_THREAD_TRANSFER
//   Async\RemoteException extends AsyncException       EXCEPTION_REMOTE
//                   (core/thread_pool/remote_exception.h)
//   Async\ThreadPoolException extends \Exception      (no enum value;
//                            core/thread_pool/worker_pool.h)
//   Async\PoolException extends AsyncException         (no enum value;
//                                    RegisterPoolExceptionClass())
//
// Threading: MINIT/MSHUTDOWN time only; the class entries live until
// module shutdown.

#ifndef ZAR_CORE_SCHEDULER_ASYNC_CLASSES_H_
#define ZAR_CORE_SCHEDULER_ASYNC_CLASSES_H_

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core {

// Defines the classes; false if one could not be registered (an error was
// reported).
bool RegisterClasses();
// Defines Async\PoolException (after RegisterClasses()); false if it could
// not be registered.
bool RegisterPoolExceptionClass();
// Forgets the class entries (the engine frees them at module shutdown).
void ForgetClasses();

// get_class_ce_fn: the class of `type`, or NULL (POOL, NO, unknown).
zend_class_entry* GetClassCe(zend_async_class type);

// Async\PoolException (no zend_async_class value); NULL before MINIT.
zend_class_entry* PoolExceptionClass();

}  // namespace zar::core

#endif  // ZAR_CORE_SCHEDULER_ASYNC_CLASSES_H_
