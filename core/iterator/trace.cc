// The async iterators' trace lines (trace.h).

#include "core/iterator/trace.h"

#include <cinttypes>

#include "core/internal/trace_text.h"

namespace zar::core {

void TraceIteratorWorker(uint64_t id, const zend_coroutine_t* worker,
                         unsigned int active, unsigned int concurrency) {
  const internal::CoroutineText name(worker);
  if (concurrency == 0) {
    zend_async_ref_trace("iterator worker Iterator#%" PRIu64 " -> %s (%u/-)",
                         id, name.text, active);
  } else {
    zend_async_ref_trace("iterator worker Iterator#%" PRIu64 " -> %s (%u/%u)",
                         id, name.text, active, concurrency);
  }
}

void TraceIteratorDone(uint64_t id, uint64_t calls,
                       const zend_object* exception) {
  if (exception == nullptr) {
    zend_async_ref_trace(
        "iterator done Iterator#%" PRIu64 " (%" PRIu64 " call(s))", id, calls);
    return;
  }
  zend_async_ref_trace(
      "iterator done Iterator#%" PRIu64 " (%" PRIu64 " call(s)) -> %s", id,
      calls, internal::ExceptionText(const_cast<zend_object*>(exception)).text);
}

}  // namespace zar::core
