// Cancelling a coroutine.
//
// In order:
//   - the scheduler coroutine is never cancelled (false);
//   - finished: nothing to do (true);
//   - running (the current coroutine, not waiting): marked CANCELLED, the
//     error (or Async\AsyncCancellation "Coroutine cancelled") kept as
//     coroutine->exception; it is thrown at the coroutine's next
//     suspension, or becomes its outcome if it ends first;
//   - PROTECTED: deferred; the first cancellation is kept and delivered at
//     the first suspension after the protection is lifted;
//   - not started: waker IGNORED, the cancellation applied to the waker, in
//     the queue; when dequeued it finishes without running its body;
//   - is_safely: becomes a zombie (no longer counted as active);
//   - otherwise (suspended or queued): the cancellation is applied to the
//     waker (unless one is there already) and the coroutine is queued.
// Every path marks the coroutine CANCELLED ("cancellation requested").

#include "core/scheduler/scheduler.h"
#include "core/scheduler/scope.h"

namespace zar::core {
namespace {

zend_object* NewCancellation() {
  return zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION,
                                  "Coroutine cancelled");
}

// Makes sure the caller's error is a reference this function owns.
zend_object* OwnError(zend_object* error, bool transfer_error) {
  if (error == nullptr) return NewCancellation();
  if (!transfer_error) GC_ADDREF(error);
  return error;
}

// A cancellation already waiting in `slot` stays; otherwise the caller's
// error (or a new one) goes there. The caller's reference, when it
// transfers one, is used or dropped.
void KeepFirst(zend_object** slot, zend_object* error, bool transfer_error) {
  if (*slot == nullptr) {
    *slot = OwnError(error, transfer_error);
  } else if (transfer_error && error != nullptr) {
    OBJ_RELEASE(error);
  }
}

}  // namespace

bool Cancel(zend_coroutine_t* coroutine, zend_object* error,
            bool transfer_error, bool is_safely) {
  if (ZEND_ASYNC_REF_TRACING()) TraceCancel(coroutine);
  if (UNEXPECTED(coroutine == ZEND_ASYNC_SCHEDULER)) {
    if (transfer_error && error != nullptr) OBJ_RELEASE(error);
    return false;
  }
  if (ZEND_COROUTINE_IS_FINISHED(coroutine)) {
    if (transfer_error && error != nullptr) OBJ_RELEASE(error);
    return true;
  }
  AsyncCoroutine* self = AsyncCoroutine::FromAbi(coroutine);
  zend_async_waker_t* waker = coroutine->waker;

  const bool waiting =
      waker != nullptr && (waker->status == ZEND_ASYNC_WAKER_WAITING ||
                           ZEND_ASYNC_WAKER_IN_QUEUE(waker));
  if (coroutine == ZEND_ASYNC_CURRENT_COROUTINE && !waiting &&
      ZEND_COROUTINE_IS_STARTED(coroutine)) {
    ZEND_COROUTINE_SET_CANCELLED(coroutine);
    KeepFirst(&coroutine->exception, error, transfer_error);
    return true;
  }

  if (ZEND_COROUTINE_IS_PROTECTED(coroutine)) {
    ZEND_COROUTINE_SET_CANCELLED(coroutine);
    KeepFirst(&self->deferred_cancellation, error, transfer_error);
    return true;
  }

  if (!ZEND_COROUTINE_IS_STARTED(coroutine)) {
    ZEND_COROUTINE_SET_CANCELLED(coroutine);
    if (waker == nullptr || ZEND_ASYNC_WAKER_NOT_IN_QUEUE(waker)) {
      if (!internal::MakeRunnable(coroutine)) {
        if (transfer_error && error != nullptr) OBJ_RELEASE(error);
        return false;
      }
      waker = coroutine->waker;
    }
    waker->status = ZEND_ASYNC_WAKER_IGNORED;
    ZEND_ASYNC_WAKER_APPLY_CANCELLATION(waker, OwnError(error, transfer_error),
                                        true);
    return true;
  }

  if (is_safely) {
    if (!ZEND_COROUTINE_IS_ZOMBIE(coroutine)) {
      ScopeMarkZombie(self);
      ZEND_COROUTINE_SET_ZOMBIE(coroutine);
      if (self->registered) {
        ZEND_ASYNC_DECREASE_COROUTINE_COUNT
      }
    }
    if (transfer_error && error != nullptr) OBJ_RELEASE(error);
    return true;
  }

  if (waker == nullptr) waker = ZEND_ASYNC_WAKER_NEW(coroutine);
  if (ZEND_COROUTINE_IS_CANCELLED(coroutine) && waker->error != nullptr &&
      IsCancellation(waker->error)) {
    if (transfer_error && error != nullptr) OBJ_RELEASE(error);
  } else {
    ZEND_ASYNC_WAKER_APPLY_CANCELLATION(waker, OwnError(error, transfer_error),
                                        true);
  }
  ZEND_COROUTINE_SET_CANCELLED(coroutine);
  return internal::MakeRunnable(coroutine);
}

}  // namespace zar::core
