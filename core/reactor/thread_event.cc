#include "core/reactor/thread_event.h"

#include <pthread.h>

#include <cinttypes>
#include <mutex>

#include "core/internal/release.h"
#include "core/reactor/reactor_event.h"
#include "core/reactor/reactor_loop.h"
#include "core/reactor/thread_registry.h"
#include "core/thread_pool/thread.h"

extern "C" {
#include "Zend/zend_exceptions.h"
}

namespace zar::core::reactor {
namespace {

struct ThreadEvent : EventOf<ThreadEvent> {
  zend_async_thread_event_t abi;  // ABI structure (must be first)
  EventCore core;
  uv_async_t wakeup;  // the child's notify_parent sends it
  bool launched;      // the first start() created the thread

  static zend_string* Info(zend_async_event_t* event);
};

[[gnu::cold]] void TraceThread(EventCore* core, const char* what) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  zend_async_ref_trace("thread %s %s", what, EventToken(core, token));
}

// The child's end, on the request's thread. The callbacks may release the
// event: it is held until the end of this function.
void OnWakeup(uv_async_t* handle) {
  auto* self =
      ThreadEvent::FromAbi(static_cast<EventCore*>(handle->data)->event);
  zend_async_event_t* event = &self->abi.base;
  uv_loop_t* loop = handle->loop;
  if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
    return;
  }
  if (ZEND_ASYNC_REF_TRACING()) TraceThread(&self->core, "done");
  ZEND_ASYNC_THREAD_LOAD_RESULT(&self->abi);
  if (EG(exception) != nullptr) {
    zend_object* load_error = EG(exception);
    GC_ADDREF(load_error);
    zend_clear_exception();
    if (self->abi.exception != nullptr) {
      zend_exception_set_previous(self->abi.exception, load_error);
    } else {
      self->abi.exception = load_error;
    }
  }
  ZEND_ASYNC_EVENT_ADD_REF(event);
  ZEND_ASYNC_CALLBACKS_NOTIFY(event, &self->abi.result, self->abi.exception);
  if (!self->core.destroyed) {
    StopEventCompletely(&self->core);
    ZEND_ASYNC_EVENT_SET_HIDDEN(event);
    ZEND_ASYNC_EVENT_SET_CLOSED(event);
  }
  if (ZEND_ASYNC_EVENT_IS_EXCEPTION_HANDLED(event)) {
    ZEND_THREAD_SET_EXCEPTION_CONSUMED(&self->abi);
  }
  ZEND_ASYNC_EVENT_RELEASE(event);
  StopLoopIfException(loop);
}

// notify_parent, on the child thread (under thread_pool::HandoffMutex()).
void NotifyParent(zend_async_thread_event_t* event) {
  uv_async_send(&reinterpret_cast<ThreadEvent*>(event)->wakeup);
}

// Creates the OS thread running zend_async_thread_run_fn(context), with
// one context reference and a registry entry for it. Returns 0 or a libuv
// error (nothing is left registered then).
int LaunchThread(zend_async_thread_context_t* context) {
  ZEND_ASYNC_THREAD_CONTEXT_ADDREF(context);
  // Registered before the thread exists: a thread that ends at once still
  // finds its entry to remove.
  context->key = reinterpret_cast<zend_async_thread_handle_t>(context);
  const zend_async_thread_handle_t key = context->key;
  ThreadRegistryAdd(key);
  uv_thread_t thread;
  const int error = uv_thread_create(&thread, zend_async_thread_run_fn,
                                     static_cast<void*>(context));
  if (error != 0) {
    ThreadRegistryRemove(key);
    context->key = 0;
    zend_atomic_int_dec(&context->ref_count);
    return error;
  }
  // Nothing joins these threads: the registry tells when they are gone.
  pthread_detach(thread);
  return 0;
}

int Arm(zend_async_event_t*) { return 0; }
void Disarm(zend_async_event_t*) {}

// The last reference: see thread_event.h (dispose()).
void Teardown(zend_async_event_t* event) {
  zend_async_thread_event_t* thread = &ThreadEvent::FromAbi(event)->abi;
  if (zend_async_thread_context_t* context = thread->context) {
    zend_atomic_ptr_store(&context->event, nullptr);
    // A hand-off that read the event before the store ends before this.
    { std::lock_guard<std::mutex> barrier(thread_pool::HandoffMutex()); }
    thread->context = nullptr;
    ZEND_ASYNC_THREAD_CONTEXT_RELEASE(context);
  }
  core::internal::ReleaseAndClear(thread->filename);
  if (ZEND_THREAD_IS_RESULT_LOADED(thread)) {
    zval_ptr_dtor(&thread->result);
    if (zend_object* exception = thread->exception) {
      if (ZEND_THREAD_IS_EXCEPTION_CONSUMED(thread)) {
        OBJ_RELEASE(exception);
      } else if (EG(exception) != nullptr) {
        zend_exception_set_previous(EG(exception), exception);
      } else {
        zend_throw_exception_internal(exception);
      }
    }
    ZVAL_UNDEF(&thread->result);
    thread->exception = nullptr;
  } else {
    thread_pool::ReleaseHandedOver(thread);
  }
}

constexpr EventKind kThreadKind = {
    .name = "thread", .arm = Arm, .disarm = Disarm, .teardown = Teardown};

zend_string* ThreadEvent::Info(zend_async_event_t* event) {
  zend_async_thread_event_t* thread = &FromAbi(event)->abi;
  const int64_t id = thread->context != nullptr
                         ? zend_atomic_int64_load(&thread->context->thread_id)
                         : 0;
  return zend_strpprintf(
      0, "thread #%" PRId64 " spawned at %s:%u", id,
      thread->filename != nullptr ? ZSTR_VAL(thread->filename) : "unknown",
      thread->lineno);
}

bool Start(zend_async_event_t* event) {
  ThreadEvent* self = ThreadEvent::FromAbi(event);
  if (self->core.destroyed || ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
    return false;
  }
  if (!self->launched) {
    // The spawn: the thread starts; the event stays transparent.
    zend_async_thread_context_t* context = self->abi.context;
    zend_atomic_ptr_store(&context->event, &self->abi);
    const int error = LaunchThread(context);
    if (error != 0) {
      zend_atomic_ptr_store(&context->event, nullptr);
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Failed to create thread: %s", uv_strerror(error));
      return false;
    }
    self->launched = true;
    if (ZEND_ASYNC_REF_TRACING()) TraceThread(&self->core, "start");
    return true;
  }
  // An awaiter: the event now keeps the loop alive and is counted.
  if (event->loop_ref_count == 0) ZEND_ASYNC_EVENT_CLR_HIDDEN(event);
  Ref(&self->core);
  return true;
}

bool Stop(zend_async_event_t* event) {
  ThreadEvent* self = ThreadEvent::FromAbi(event);
  if (event->loop_ref_count == 0) {
    return true;
  }
  if (event->loop_ref_count > 1 && !ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
    Unref(&self->core);
    return true;
  }
  StopEventCompletely(&self->core);
  ZEND_ASYNC_EVENT_SET_HIDDEN(event);
  return true;
}

bool Replay(zend_async_event_t* event, zend_async_event_callback_t* callback,
            zval* result, zend_object** exception) {
  zend_async_thread_event_t* thread = &ThreadEvent::FromAbi(event)->abi;
  if (!ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
    return false;
  }
  if (callback != nullptr) {
    callback->callback(event, callback, &thread->result, thread->exception);
    if (ZEND_ASYNC_EVENT_IS_EXCEPTION_HANDLED(event)) {
      ZEND_THREAD_SET_EXCEPTION_CONSUMED(thread);
    }
    return true;
  }
  if (result != nullptr && !Z_ISUNDEF(thread->result)) {
    ZVAL_COPY(result, &thread->result);
  }
  if (thread->exception != nullptr) {
    if (exception == nullptr) {
      zval thrown;
      ZVAL_OBJ_COPY(&thrown, thread->exception);
      zend_throw_exception_object(&thrown);
    } else {
      GC_ADDREF(thread->exception);
      *exception = thread->exception;
    }
    ZEND_THREAD_SET_EXCEPTION_CONSUMED(thread);
  }
  return thread->exception != nullptr || !Z_ISUNDEF(thread->result);
}

}  // namespace

zend_async_thread_event_t* NewThreadEvent(const zend_fcall_t* entry,
                                          const zend_fcall_t* bootloader,
                                          uint32_t thread_flags,
                                          size_t extra_size) {
  uv_loop_t* loop = AcquireLoop();
  if (loop == nullptr) {
    return nullptr;
  }
  auto* context = static_cast<zend_async_thread_context_t*>(
      pecalloc(1, sizeof(zend_async_thread_context_t), 1));
  ZEND_ATOMIC_INT_INIT(&context->ref_count, 1);  // the event's
  ZEND_ATOMIC_INT64_INIT(&context->thread_id, 0);
  ZEND_ATOMIC_PTR_INIT(&context->event, nullptr);
  if (entry != nullptr) {
    context->snapshot = ZEND_ASYNC_THREAD_SNAPSHOT_CREATE(entry, bootloader);
    if (context->snapshot == nullptr) {
      pefree(context, 1);
      return nullptr;
    }
  }

  ThreadEvent* self = AllocateEvent<ThreadEvent>(extra_size);
  const int error = uv_async_init(loop, &self->wakeup, OnWakeup);
  if (error < 0) {
    ZEND_ASYNC_THREAD_CONTEXT_RELEASE(context);
    efree(self);
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to init thread notification: %s",
                     uv_strerror(error));
    return nullptr;
  }
  zend_async_thread_event_t* thread = &self->abi;
  thread->thread_flags = thread_flags;
  ZVAL_UNDEF(&thread->result);
  thread->context = context;
  thread->notify_parent = NotifyParent;
  thread->base.start = Start;
  thread->base.stop = Stop;
  thread->base.replay = Replay;
  InitCore(&self->core, &kThreadKind, &thread->base,
           reinterpret_cast<uv_handle_t*>(&self->wakeup));
  ZEND_ASYNC_EVENT_SET_HIDDEN(&thread->base);
  return thread;
}

zend_async_thread_handle_t StartThread(
    zend_async_thread_internal_entry_t* entry,
    zend_async_thread_context_t* context) {
  context->internal_entry = entry;
  const int error = LaunchThread(context);
  if (error != 0) {
    context->internal_entry = nullptr;
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to create thread: %s", uv_strerror(error));
    return 0;
  }
  // The thread may already have freed the context: only the key is left.
  return reinterpret_cast<zend_async_thread_handle_t>(context);
}

}  // namespace zar::core::reactor
