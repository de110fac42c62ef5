#include "core/thread_pool/thread.h"

#include <pthread.h>

#include "core/reactor/thread_registry.h"
#include "core/thread_pool/remote_exception.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "php.h"
}

namespace zar::core::thread_pool {
namespace {

// Async\ThreadTransferException(message), `previous` (one reference, or
// NULL) chained as its previous.
zend_object* NewTransferException(const char* message, zend_object* previous) {
  zend_object* exception = zend_async_new_exception(
      ZEND_ASYNC_EXCEPTION_THREAD_TRANSFER, "%s", message);
  if (previous != nullptr) {
    zend_exception_set_previous(exception, previous);
  }
  return exception;
}

// Takes the pending exception (its reference moves to the caller).
zend_object* TakeException() {
  zend_object* exception = EG(exception);
  GC_ADDREF(exception);
  zend_clear_exception();
  return exception;
}

// The transferred exception, loaded and wrapped in Async\RemoteException;
// a failed load becomes Async\ThreadTransferException.
zend_object* LoadException(zend_object* transferred) {
  // A transit shell carries its class name in `ce` (zval_transfer.h).
  zend_string* class_name = reinterpret_cast<zend_string*>(transferred->ce);
  zend_string* remote_class =
      zend_string_init(ZSTR_VAL(class_name), ZSTR_LEN(class_name), false);
  zval shell;
  ZVAL_OBJ(&shell, transferred);
  zval loaded;
  ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &shell);
  ZEND_ASYNC_THREAD_RELEASE_TRANSFERRED_ZVAL(&shell);

  zend_object* result;
  if (EG(exception) != nullptr) {
    zend_object* load_error = TakeException();
    zend_string* message =
        zend_strpprintf(0, "Failed to load remote exception of class \"%s\"",
                        ZSTR_VAL(remote_class));
    result = NewTransferException(ZSTR_VAL(message), load_error);
    zend_string_release(message);
  } else {
    result = NewRemoteException(Z_OBJ(loaded), remote_class);
  }
  zval_ptr_dtor(&loaded);
  zend_string_release(remote_class);
  return result;
}

}  // namespace

void ReleaseHandedOver(zend_async_thread_event_t* event) {
  if (!Z_ISUNDEF(event->result)) {
    ZEND_ASYNC_THREAD_RELEASE_TRANSFERRED_ZVAL(&event->result);
  }
  if (event->exception != nullptr) {
    zval shell;
    ZVAL_OBJ(&shell, event->exception);
    ZEND_ASYNC_THREAD_RELEASE_TRANSFERRED_ZVAL(&shell);
    event->exception = nullptr;
  }
  ZVAL_UNDEF(&event->result);
}

std::mutex& HandoffMutex() {
  static std::mutex* mutex = new std::mutex;
  return *mutex;
}

void* ThreadSnapshotCreate(const zend_fcall_t*, const zend_fcall_t*) {
  zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "%s", kCallableRefused);
  return nullptr;
}

void ThreadSnapshotDestroy(void*) {}

void ThreadRun(void* arg) {
  auto* context = static_cast<zend_async_thread_context_t*>(arg);
  // The key is read now: the context may be gone before the thread leaves
  // the registry.
  const zend_async_thread_handle_t key = context->key;
  zend_atomic_int64_store(&context->thread_id,
                          static_cast<int64_t>(pthread_self()));

  if (context->internal_entry != nullptr) {
    zend_async_thread_internal_entry_t* entry = context->internal_entry;
    auto* handler = entry->handler;
    void* ctx = entry->ctx;
    pefree(entry, 1);
    context->internal_entry = nullptr;
    handler(static_cast<zend_async_thread_event_t*>(
                zend_atomic_ptr_load(&context->event)),
            ctx);
  }

  {
    std::lock_guard<std::mutex> lock(HandoffMutex());
    auto* event = static_cast<zend_async_thread_event_t*>(
        zend_atomic_ptr_load(&context->event));
    if (event != nullptr) {
      event->notify_parent(event);
    }
  }

  // The context reference goes first: once quiesce returns, no thread
  // holds one.
  ZEND_ASYNC_THREAD_CONTEXT_RELEASE(context);
  reactor::ThreadRegistryRemove(key);
}

void ThreadLoadResult(zend_async_thread_event_t* event) {
  ZEND_ASYNC_EVENT_CLR_EXCEPTION_HANDLED(&event->base);

  zend_async_thread_context_t* context = event->context;
  if (context != nullptr && context->bailout_error_message != nullptr) {
    ReleaseHandedOver(event);  // a bailout replaces them
    event->exception =
        NewTransferException(context->bailout_error_message, nullptr);
    pefree(context->bailout_error_message, 1);
    context->bailout_error_message = nullptr;
    ZEND_THREAD_SET_RESULT_LOADED(event);
    return;
  }

  if (event->exception != nullptr) {
    event->exception = LoadException(event->exception);
  }

  if (!Z_ISUNDEF(event->result)) {
    zval loaded;
    ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &event->result);
    ZEND_ASYNC_THREAD_RELEASE_TRANSFERRED_ZVAL(&event->result);
    if (EG(exception) != nullptr) {
      zend_object* load_error = TakeException();
      zval_ptr_dtor(&loaded);
      ZVAL_UNDEF(&event->result);
      if (event->exception != nullptr) OBJ_RELEASE(event->exception);
      event->exception = NewTransferException(
          "Failed to load thread result into parent thread", load_error);
      ZEND_THREAD_SET_RESULT_LOADED(event);
      return;
    }
    ZVAL_COPY_VALUE(&event->result, &loaded);
    ZEND_ASYNC_EVENT_SET_ZVAL_RESULT(&event->base);
  }

  ZEND_THREAD_SET_RESULT_LOADED(event);
}

}  // namespace zar::core::thread_pool
