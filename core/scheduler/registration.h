// zend-async-ref core: registering the scheduler through the ABI.
//
// zend_async_scheduler_register takes 31 positional arguments. They are
// passed from a single call, each named by its parameter in the ABI's
// declaration, so no pointer can land in another's slot unseen.
//
// Threading: MINIT.

#ifndef ZAR_CORE_SCHEDULER_REGISTRATION_H_
#define ZAR_CORE_SCHEDULER_REGISTRATION_H_

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core {

// Registers the reference scheduler under kSchedulerModuleName
// (zend_async_scheduler_register's result).
bool RegisterScheduler();

}  // namespace zar::core

#endif  // ZAR_CORE_SCHEDULER_REGISTRATION_H_
