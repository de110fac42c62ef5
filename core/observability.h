// zend-async-ref core: tracing and strict mode at the extension's
// lifecycle points, and the strict-mode checks of the scheduler.
//
//   MINIT       ZEND_ASYNC_REF_STRICT and ZEND_ASYNC_REF_TRACE applied
//   RINIT       object ids (Pool#, Future#, Iterator#, Timer#) start again
//               at 1; the event quarantine opens
//   RSHUTDOWN   strict mode reports what is still registered (before the
//               scheduler's and the reactor's request state go), then,
//               after the reactor closed every event, the quarantine is
//               checked and emptied
//
// docs/strict_mode.md and docs/tracing.md describe both facilities.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_OBSERVABILITY_H_
#define ZAR_CORE_OBSERVABILITY_H_

#include <string>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core {

void ObservabilityModuleStartup();
void ObservabilityModuleShutdown();
void ObservabilityRequestStartup();
// Strict mode: reports what is still registered at request end (live
// reactor events, open pools with waiters or callbacks, coroutines with
// callbacks), each with its info(). No-op otherwise.
void ReportLeftoversAtRequestEnd();
// After the reactor's request shutdown: the quarantine is checked and
// emptied (its memory must be gone before the allocator's leak check).
void ObservabilityRequestShutdown();

// "<token> <info()>": how diagnostics name an object, e.g. "Pool#1
// Pool(idle=1, ...)". Just the token when the event has no info handler.
std::string NameWithInfo(const char* token, zend_async_event_t* event);

// "#5 Coroutine 5 spawned at ... (closure)": the trace name and info().
std::string CoroutineName(zend_coroutine_t* coroutine);

// Strict mode: a suspension in the scheduler context (or of the scheduler
// coroutine), which is refused with Async\AsyncException "A coroutine
// cannot be stopped from the Scheduler context".
[[gnu::cold]] void ReportSuspendInSchedulerContext(zend_coroutine_t* coroutine);

}  // namespace zar::core

#endif  // ZAR_CORE_OBSERVABILITY_H_
