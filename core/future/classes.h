// zend-async-ref core/future: registering Async\FutureState and
// Async\Future (object.h describes both).
//
// Threading: MINIT time only; the class entries live until module
// shutdown.

#ifndef ZAR_CORE_FUTURE_CLASSES_H_
#define ZAR_CORE_FUTURE_CLASSES_H_

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core {

// Defines final class Async\FutureState and final class Async\Future
// implements `completable`; returns Async\Future (the ABI's
// ZEND_ASYNC_CLASS_FUTURE), or NULL if a class could not be registered.
zend_class_entry* RegisterFutureClasses(zend_class_entry* completable);

// The registered classes; NULL before MINIT.
zend_class_entry* FutureClass();
zend_class_entry* FutureStateClass();

}  // namespace zar::core

#endif  // ZAR_CORE_FUTURE_CLASSES_H_
