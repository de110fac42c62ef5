// zend-async-ref core: Async\RemoteException, the wrapper of an exception
// that crossed from a child thread (php-async thread.stub.php).
//
//   class Async\RemoteException extends Async\AsyncException
//     private ?\Throwable $remoteException = null;
//     private string $remoteClass = '';
//     getRemoteException(): ?\Throwable   the loaded remote exception
//     getRemoteClass(): string            its class name in the child
//
// No dynamic properties, as upstream's generated registration.
//
// Threading: the request's thread (MINIT for the registration).

#ifndef ZAR_CORE_THREAD_POOL_REMOTE_EXCEPTION_H_
#define ZAR_CORE_THREAD_POOL_REMOTE_EXCEPTION_H_

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::thread_pool {

// Registers the class under `async_exception`; NULL if it could not be.
zend_class_entry* RegisterRemoteExceptionClass(
    zend_class_entry* async_exception);

// A new Async\RemoteException (one reference, the caller's) carrying
// `remote`'s message and code (when they are a string and an int), `remote`
// itself as remoteException and `remote_class` as remoteClass.
zend_object* NewRemoteException(zend_object* remote, zend_string* remote_class);

}  // namespace zar::core::thread_pool

#endif  // ZAR_CORE_THREAD_POOL_REMOTE_EXCEPTION_H_
