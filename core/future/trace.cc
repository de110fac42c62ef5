// The futures' trace lines (trace.h).

#include "core/future/trace.h"

#include "core/future/future.h"
#include "core/internal/trace_text.h"

namespace zar::core {

void TraceFutureResolve(const zend_future_t* future) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  FutureToken(future, token);
  if (future->exception != nullptr) {
    zend_async_ref_trace("future reject %s -> %s", token,
                         internal::ExceptionText(future->exception).text);
  } else {
    zend_async_ref_trace("future complete %s -> %s", token,
                         internal::ValueText<256>(&future->result).text);
  }
}

void TraceFutureChain(const zend_future_t* future,
                      const zend_coroutine_t* run) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace("future chain %s -> %s", FutureToken(future, token),
                       internal::CoroutineText(run).text);
}

}  // namespace zar::core
