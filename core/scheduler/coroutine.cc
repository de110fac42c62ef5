// The Async\Coroutine object and its event: creation, the event vtable, and
// what freeing the object releases. Running and finishing a coroutine is
// the scheduler's (coroutine_run.cc).

#include "core/scheduler/coroutine.h"

#include "core/internal/event_vtable.h"
#include "core/internal/php_object.h"
#include "core/internal/release.h"
#include "core/scheduler/async_classes.h"
#include "core/scheduler/scope.h"

namespace zar::core {
namespace {

// Hands a finished coroutine's outcome to `callback`, or copies it to
// result/exception; with neither an exception slot nor a callback, a
// failed coroutine's exception is thrown. False while it runs.
bool CoroutineReplay(zend_async_event_t* event,
                     zend_async_event_callback_t* callback, zval* result,
                     zend_object** exception) {
  zend_coroutine_t* coroutine = reinterpret_cast<zend_coroutine_t*>(event);
  if (!ZEND_COROUTINE_IS_FINISHED(coroutine)) return false;

  if (callback != nullptr) {
    callback->callback(event, callback, &coroutine->result,
                       coroutine->exception);
    return true;
  }
  if (result != nullptr) ZVAL_COPY(result, &coroutine->result);
  if (coroutine->exception != nullptr) {
    GC_ADDREF(coroutine->exception);
    if (exception != nullptr) {
      *exception = coroutine->exception;
    } else {
      zend_throw_exception_internal(coroutine->exception);
    }
  }
  return coroutine->exception != nullptr ||
         Z_TYPE(coroutine->result) != IS_UNDEF;
}

zend_string* CoroutineInfo(zend_async_event_t* event) {
  zend_coroutine_t* coroutine = reinterpret_cast<zend_coroutine_t*>(event);
  zend_string* name = zend_coroutine_callable_name(coroutine);
  const char* spawned_at =
      coroutine->filename != nullptr ? ZSTR_VAL(coroutine->filename) : "";
  zend_string* info;
  if (ZEND_COROUTINE_SUSPENDED(coroutine)) {
    const zend_async_waker_t* waker = coroutine->waker;
    info = zend_strpprintf(
        0, "Coroutine %u spawned at %s:%u, suspended at %s:%u (%s)",
        AsyncCoroutine::FromAbi(coroutine)->std.handle, spawned_at,
        coroutine->lineno,
        waker->filename != nullptr ? ZSTR_VAL(waker->filename) : "",
        waker->lineno, ZSTR_VAL(name));
  } else {
    info = zend_strpprintf(0, "Coroutine %u spawned at %s:%u (%s)",
                           AsyncCoroutine::FromAbi(coroutine)->std.handle,
                           spawned_at, coroutine->lineno, ZSTR_VAL(name));
  }
  zend_string_release(name);
  return info;
}

// dispose() of an object event drops one reference to the object.
bool CoroutineDispose(zend_async_event_t* event) {
  OBJ_RELEASE(
      &AsyncCoroutine::FromAbi(reinterpret_cast<zend_coroutine_t*>(event))
           ->std);
  return true;
}

void ReleaseObject(zend_object** slot) {
  if (*slot != nullptr) {
    zend_object* object = *slot;
    *slot = nullptr;
    OBJ_RELEASE(object);
  }
}

// free_obj: everything the coroutine still owns. A coroutine that ran has
// already left its scope and the scheduler and emptied its waker
// (coroutine_run.cc); one that never ran (created and dropped, or freed at
// request end) leaves them here. The waker itself ends here.
void CoroutineFree(zend_object* object) {
  AsyncCoroutine* self = AsyncCoroutine::FromObject(object);
  zend_coroutine_t* coroutine = &self->coroutine;

  if (self->scope_member) ScopeRemoveCoroutine(self);
  if (coroutine->fcall != nullptr) {
    zend_fcall_release(coroutine->fcall);
    coroutine->fcall = nullptr;
  }
  internal::ReleaseAndClear(coroutine->filename);
  ReleaseWaker(coroutine);
  if (coroutine->internal_context != nullptr) {
    zend_async_coroutine_internal_context_dispose(coroutine);
  }
  if (coroutine->context != nullptr) {
    zend_async_context_t* context = coroutine->context;
    coroutine->context = nullptr;
    context->dispose(context);
  }
  zval_ptr_dtor(&coroutine->result);
  ZVAL_UNDEF(&coroutine->result);
  ReleaseObject(&coroutine->exception);
  ReleaseObject(&self->deferred_cancellation);
  ReleaseObject(&self->throw_on_start);
  zend_async_callbacks_free(&coroutine->event);
  if (coroutine->switch_handlers != nullptr) {
    zend_coroutine_switch_handlers_destroy(coroutine);
  }
  if (coroutine->extended_dispose != nullptr) {
    const zend_async_coroutine_dispose dispose = coroutine->extended_dispose;
    coroutine->extended_dispose = nullptr;
    dispose(coroutine);
  }
  zend_object_std_dtor(object);
}

}  // namespace

const zend_object_handlers* CoroutineObjectHandlers() {
  static const zend_object_handlers handlers =
      internal::MakeObjectHandlers<AsyncCoroutine>({.free_obj = CoroutineFree});
  return &handlers;
}

zend_coroutine_t* NewCoroutine(zend_async_scope_t* scope) {
  zend_class_entry* ce = GetClassCe(ZEND_ASYNC_CLASS_COROUTINE);
  if (UNEXPECTED(ce == nullptr)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "The Async\\Coroutine class is not registered");
    return nullptr;
  }
  auto* self = internal::AllocObject<AsyncCoroutine>(ce);
  zend_coroutine_t* coroutine = &self->coroutine;
  ZVAL_UNDEF(&coroutine->result);
  zend_async_event_t* event = &coroutine->event;
  ZEND_ASYNC_EVENT_SET_ZEND_OBJ(event);
  ZEND_ASYNC_EVENT_SET_NO_FREE_MEMORY(event);
  ZEND_ASYNC_EVENT_SET_ZEND_OBJ_OFFSET(event, offsetof(AsyncCoroutine, std));
  // A coroutine is not armed in any loop.
  internal::SetUnarmedVtable(event, {.replay = CoroutineReplay,
                                     .dispose = CoroutineDispose,
                                     .info = CoroutineInfo});
  coroutine->scope = scope;
  // Its waker, for life (zend_object_alloc zeroed the storage).
  zend_async_waker_init(&self->waker_storage);
  coroutine->waker = &self->waker_storage;
  zend_object_std_init(&self->std, ce);
  object_properties_init(&self->std, ce);
  return coroutine;
}

bool IsCancellation(const zend_object* exception) {
  return exception != nullptr && zend_ce_cancellation != nullptr &&
         instanceof_function(exception->ce, zend_ce_cancellation);
}

zend_async_waker_t* NewWaker(zend_coroutine_t* coroutine) {
  if (coroutine == nullptr) coroutine = ZEND_ASYNC_CURRENT_COROUTINE;
  if (UNEXPECTED(coroutine == nullptr)) {
    zend_error(E_CORE_ERROR,
               "Cannot create waker for a coroutine that is not running");
    return nullptr;
  }
  zend_async_waker_t* waker = coroutine->waker;
  if (EXPECTED(waker != nullptr)) {
    // A waker is reused for every suspension of its coroutine.
    if (waker->status != ZEND_ASYNC_WAKER_NO_STATUS) {
      zend_async_waker_clean(coroutine);
    }
    return waker;
  }
  waker = &AsyncCoroutine::FromAbi(coroutine)->waker_storage;
  // As at creation: every field zero, then initialised (the storage may
  // hold a waker released earlier).
  memset(waker, 0, sizeof(*waker));
  zend_async_waker_init(waker);
  coroutine->waker = waker;
  return waker;
}

void EmptyWaker(zend_coroutine_t* coroutine) {
  zend_async_waker_clean(coroutine);
}

void ReleaseWaker(zend_coroutine_t* coroutine) {
  zend_async_waker_t* waker = coroutine->waker;
  if (waker == nullptr) return;
  zend_async_waker_clean(coroutine);
  coroutine->waker = nullptr;
  if (waker->triggered_events != nullptr) {
    zend_hash_destroy(waker->triggered_events);
    efree(waker->triggered_events);
    waker->triggered_events = nullptr;
  }
  zend_hash_destroy(&waker->events);
  if (waker != &AsyncCoroutine::FromAbi(coroutine)->waker_storage) {
    efree(waker);  // installed by someone else (ecalloc'd, as the default)
  }
}

}  // namespace zar::core
