// The async iterators' trace lines (trace.h).

#include "core/iterator/trace.h"

#include <cinttypes>

namespace zar::core {
namespace {

// Room for an exception's rendering.
constexpr size_t kOutcomeSize = 256;

}  // namespace

void TraceIteratorWorker(uint64_t id, const zend_coroutine_t* worker,
                         unsigned int active, unsigned int concurrency) {
  char name[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_coroutine_name(worker, name);
  if (concurrency == 0) {
    zend_async_ref_trace("iterator worker Iterator#%" PRIu64 " -> %s (%u/-)",
                         id, name, active);
  } else {
    zend_async_ref_trace("iterator worker Iterator#%" PRIu64 " -> %s (%u/%u)",
                         id, name, active, concurrency);
  }
}

void TraceIteratorDone(uint64_t id, uint64_t calls,
                       const zend_object* exception) {
  if (exception == nullptr) {
    zend_async_ref_trace(
        "iterator done Iterator#%" PRIu64 " (%" PRIu64 " call(s))", id, calls);
    return;
  }
  char outcome[kOutcomeSize];
  zend_async_ref_describe_exception(const_cast<zend_object*>(exception),
                                    outcome, sizeof(outcome));
  zend_async_ref_trace("iterator done Iterator#%" PRIu64 " (%" PRIu64
                       " call(s)) -> %s",
                       id, calls, outcome);
}

}  // namespace zar::core
