// The futures' trace lines (trace.h).

#include "core/future/trace.h"

#include "core/future/future.h"

namespace zar::core {
namespace {

// Room for a result's or an exception's rendering.
constexpr size_t kOutcomeSize = 256;

}  // namespace

void TraceFutureResolve(const zend_future_t* future) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  char outcome[kOutcomeSize];
  FutureToken(future, token);
  if (future->exception != nullptr) {
    zend_async_ref_describe_exception(future->exception, outcome,
                                      sizeof(outcome));
    zend_async_ref_trace("future reject %s -> %s", token, outcome);
  } else {
    zend_async_ref_describe_zval(&future->result, false, outcome,
                                 sizeof(outcome));
    zend_async_ref_trace("future complete %s -> %s", token, outcome);
  }
}

void TraceFutureChain(const zend_future_t* future,
                      const zend_coroutine_t* run) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  char name[ZEND_ASYNC_REF_NAME_SIZE];
  FutureToken(future, token);
  zend_async_ref_coroutine_name(run, name);
  zend_async_ref_trace("future chain %s -> %s", token, name);
}

}  // namespace zar::core
