#include "core/scheduler/unsupported.h"

namespace zar::core::unsupported {
namespace {

void NotSupported(const char* feature) {
  zend_throw_error(nullptr, "%s is not supported by zend-async-ref", feature);
}

}  // namespace

void* ThreadSnapshotCreate(const zend_fcall_t*, const zend_fcall_t*) {
  NotSupported("Threads");
  return nullptr;
}

void ThreadSnapshotDestroy(void*) { NotSupported("Threads"); }

void ThreadRun(void*) { NotSupported("Threads"); }

void ThreadLoadResult(zend_async_thread_event_t*) { NotSupported("Threads"); }

}  // namespace zar::core::unsupported
