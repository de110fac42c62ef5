// The scheduler's and the reactor's trace lines (scheduler_trace.h).

#include "core/scheduler/scheduler_trace.h"

#include "core/internal/trace_text.h"

namespace zar::core {
namespace {

using Name = internal::CoroutineText;
using Exception = internal::ExceptionText<>;

}  // namespace

void TraceLaunch() { zend_async_ref_trace("launch"); }

void TraceSpawn(const zend_coroutine_t* coroutine) {
  zend_async_ref_trace("spawn %s", Name(coroutine).text);
}

void TraceEnqueue(const zend_coroutine_t* coroutine) {
  if (coroutine == nullptr) coroutine = ZEND_ASYNC_CURRENT_COROUTINE;
  if (coroutine == nullptr) {
    zend_async_ref_trace("enqueue main");
    return;
  }
  zend_async_ref_trace("enqueue %s", Name(coroutine).text);
}

void TraceResume(const zend_coroutine_t* coroutine, zend_object* error) {
  if (error == nullptr) {
    zend_async_ref_trace("resume %s", Name(coroutine).text);
    return;
  }
  zend_async_ref_trace("resume %s with %s", Name(coroutine).text,
                       Exception(error).text);
}

void TraceCancel(const zend_coroutine_t* coroutine) {
  zend_async_ref_trace("cancel %s", Name(coroutine).text);
}

void TraceSuspend() { zend_async_ref_trace("suspend"); }

void TraceSwitch(const zend_coroutine_t* from, const zend_coroutine_t* to) {
  char from_name[ZEND_ASYNC_REF_NAME_SIZE];
  TraceSwitchFrom(
      from == nullptr ? "main" : zend_async_ref_coroutine_name(from, from_name),
      to);
}

void TraceSwitchFrom(const char* from, const zend_coroutine_t* to) {
  zend_async_ref_trace_as(from, "switch -> %s",
                          to == nullptr ? "main" : Name(to).text);
}

void TraceFinish(zend_object* exception) {
  if (exception == nullptr) {
    zend_async_ref_trace("finish");
    return;
  }
  zend_async_ref_trace("finish with %s", Exception(exception).text);
}

void TraceTimerStart(const char* token, unsigned int timeout_ms,
                     bool periodic) {
  zend_async_ref_trace("timer start %s (%ums %s)", token, timeout_ms,
                       periodic ? "periodic" : "once");
}

void TraceTimerFire(const char* token) {
  zend_async_ref_trace("timer fire %s", token);
}

}  // namespace zar::core
