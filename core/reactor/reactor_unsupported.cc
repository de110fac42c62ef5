#include "core/reactor/reactor_unsupported.h"

extern "C" {
#include "php.h"
}

namespace zar::core::reactor {
namespace {

constexpr char kProcess[] =
    "Process events are not supported by zend-async-ref";
constexpr char kThread[] = "Thread events are not supported by zend-async-ref";
constexpr char kFilesystem[] =
    "Filesystem events are not supported by zend-async-ref";
constexpr char kExec[] = "Exec is not supported by zend-async-ref";

void ThrowUnsupported(const char* message) {
  zend_throw_error(nullptr, "%s", message);
}

}  // namespace

zend_async_process_event_t* NewProcessEventUnsupported(zend_process_t, size_t) {
  ThrowUnsupported(kProcess);
  return nullptr;
}

zend_async_thread_event_t* NewThreadEventUnsupported(const zend_fcall_t*,
                                                     const zend_fcall_t*,
                                                     uint32_t, size_t) {
  ThrowUnsupported(kThread);
  return nullptr;
}

zend_async_filesystem_event_t* NewFilesystemEventUnsupported(zend_string*,
                                                             unsigned int,
                                                             size_t) {
  ThrowUnsupported(kFilesystem);
  return nullptr;
}

zend_async_exec_event_t* NewExecEventUnsupported(zend_async_exec_mode,
                                                 const char*, zval*, zval*,
                                                 zval*, const char*,
                                                 const char*, size_t) {
  ThrowUnsupported(kExec);
  return nullptr;
}

int ExecUnsupported(zend_async_exec_mode, const char*, zval*, zval*, zval*,
                    const char*, const char*, zend_ulong) {
  ThrowUnsupported(kExec);
  return -1;
}

}  // namespace zar::core::reactor
