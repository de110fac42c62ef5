// zend-async-ref core: the scheduler group's operations this reference does
// not implement.
//
// Each is a function (never NULL, so a caller that does not check can
// call it) that throws Error "<Feature> is not supported by zend-async-ref"
// and fails the way its type allows (NULL, false, or nothing):
//   thread_snapshot_create_fn, thread_snapshot_destroy_fn, thread_run_fn,
//   thread_load_result_fn                "Threads"
//
// Threading: the request's thread.

#ifndef ZAR_CORE_SCHEDULER_UNSUPPORTED_H_
#define ZAR_CORE_SCHEDULER_UNSUPPORTED_H_

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::unsupported {

void* ThreadSnapshotCreate(const zend_fcall_t* entry,
                           const zend_fcall_t* bootloader);
void ThreadSnapshotDestroy(void* snapshot);
void ThreadRun(void* arg);
void ThreadLoadResult(zend_async_thread_event_t* event);

}  // namespace zar::core::unsupported

#endif  // ZAR_CORE_SCHEDULER_UNSUPPORTED_H_
