// zend-async-ref core: the scheduler's and the reactor's trace lines
// (zend_async_ref/trace.h).
//
// One function per event; each formats and emits one line. Callers test
// ZEND_ASYNC_REF_TRACING() first. Lines (docs/tracing.md):
//
//   launch                      the scheduler starts (READY -> ACTIVE)
//   spawn #5                    a new coroutine, queued
//   enqueue #5                  enqueue_coroutine_fn (a yield: the actor's own)
//   resume #5 [with <exception>]
//   cancel #5
//   suspend                     the actor suspends
//   switch -> #5                the actor's coroutine stops running, #5 runs
//   finish [with <exception>]   the actor's body ended
//   timer start Timer#2 (10ms once)
//   timer fire Timer#2
//
// Threading: the request's thread.

#ifndef ZAR_CORE_SCHEDULER_SCHEDULER_TRACE_H_
#define ZAR_CORE_SCHEDULER_SCHEDULER_TRACE_H_

extern "C" {
#include "Zend/zend_async_API.h"
#include "zend_async_ref/trace.h"
}

namespace zar::core {

[[gnu::cold]] void TraceLaunch();
[[gnu::cold]] void TraceSpawn(const zend_coroutine_t* coroutine);
// `coroutine` NULL: the current one.
[[gnu::cold]] void TraceEnqueue(const zend_coroutine_t* coroutine);
[[gnu::cold]] void TraceResume(const zend_coroutine_t* coroutine,
                               zend_object* error);
[[gnu::cold]] void TraceCancel(const zend_coroutine_t* coroutine);
[[gnu::cold]] void TraceSuspend();
// The running coroutine changes from `from` (NULL: the main flow) to `to`
// (NULL: the main flow).
[[gnu::cold]] void TraceSwitch(const zend_coroutine_t* from,
                               const zend_coroutine_t* to);
// The same, `from` named already (it may be gone: a finished coroutine).
[[gnu::cold]] void TraceSwitchFrom(const char* from,
                                   const zend_coroutine_t* to);
[[gnu::cold]] void TraceFinish(zend_object* exception);
// `token`: "Timer#2"; `timeout_ms`, `periodic`: the timer's settings.
[[gnu::cold]] void TraceTimerStart(const char* token, unsigned int timeout_ms,
                                   bool periodic);
[[gnu::cold]] void TraceTimerFire(const char* token);

}  // namespace zar::core

#endif  // ZAR_CORE_SCHEDULER_SCHEDULER_TRACE_H_
