#include "core/scheduler/unsupported.h"

namespace zar::core::unsupported {
namespace {

void NotSupported(const char* feature) {
  zend_throw_error(nullptr, "%s is not supported by zend-async-ref", feature);
}

}  // namespace

zend_async_iterator_t* NewIterator(zval*, zend_object_iterator*, zend_fcall_t*,
                                   zend_async_iterator_handler_t,
                                   zend_async_scope_t*, unsigned int, int32_t,
                                   size_t) {
  NotSupported("Async iterators");
  return nullptr;
}

zend_async_channel_t* NewChannel(size_t, bool, bool, size_t) {
  NotSupported("Channels");
  return nullptr;
}

zend_object* NewChannelObject(zend_async_channel_t*) {
  NotSupported("Channels");
  return nullptr;
}

void* ThreadSnapshotCreate(const zend_fcall_t*, const zend_fcall_t*) {
  NotSupported("Threads");
  return nullptr;
}

void ThreadSnapshotDestroy(void*) { NotSupported("Threads"); }

void ThreadRun(void*) { NotSupported("Threads"); }

void ThreadLoadResult(zend_async_thread_event_t*) { NotSupported("Threads"); }

}  // namespace zar::core::unsupported
