#include "core/reactor/reactor_unsupported.h"

extern "C" {
#include "php.h"
}

namespace zar::core::reactor {
namespace {

constexpr char kThread[] = "Thread events are not supported by zend-async-ref";

void ThrowUnsupported(const char* message) {
  zend_throw_error(nullptr, "%s", message);
}

}  // namespace

zend_async_thread_event_t* NewThreadEventUnsupported(const zend_fcall_t*,
                                                     const zend_fcall_t*,
                                                     uint32_t, size_t) {
  ThrowUnsupported(kThread);
  return nullptr;
}

}  // namespace zar::core::reactor
