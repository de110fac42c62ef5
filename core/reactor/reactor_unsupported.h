// zend-async-ref core: the reactor entries the reference does not implement.
//
// The reactor registration has 22 function slots; this fills the one of the
// group the reference leaves out (threads), so that a caller gets an Error
// instead of a NULL call. It throws Error "<what> is not supported by
// zend-async-ref" and returns what its type uses for failure:
//
//   new_thread_event      "Thread events are not supported ..."      NULL
//
// Threading: the request's thread.

#ifndef ZAR_CORE_REACTOR_REACTOR_UNSUPPORTED_H_
#define ZAR_CORE_REACTOR_REACTOR_UNSUPPORTED_H_

#include <cstddef>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::reactor {

zend_async_thread_event_t* NewThreadEventUnsupported(
    const zend_fcall_t* entry, const zend_fcall_t* bootloader,
    uint32_t thread_flags, size_t extra_size);

}  // namespace zar::core::reactor

#endif  // ZAR_CORE_REACTOR_REACTOR_UNSUPPORTED_H_
