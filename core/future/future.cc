// The zend_future_t event (future.h).

#include "core/future/future.h"

#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <type_traits>

#include "core/future/trace.h"
#include "core/internal/event_vtable.h"
#include "core/internal/location.h"
#include "core/internal/release.h"
#include "core/internal/trace_text.h"

extern "C" {
#include "Zend/zend_API.h"
#include "Zend/zend_exceptions.h"
}

namespace zar::core {
namespace {

// What NewFuture allocates: the id, then the ABI struct, then the caller's
// extra bytes (which start right after the struct, as the ABI promises).
struct AsyncFuture {
  uint64_t id;
  zend_future_t future;

  static AsyncFuture* From(zend_future_t* future) {
    return reinterpret_cast<AsyncFuture*>(reinterpret_cast<char*>(future) -
                                          offsetof(AsyncFuture, future));
  }
  static const AsyncFuture* From(const zend_future_t* future) {
    return From(const_cast<zend_future_t*>(future));
  }
};

static_assert(std::is_standard_layout_v<AsyncFuture>);
static_assert(offsetof(AsyncFuture, future) + sizeof(zend_future_t) ==
              sizeof(AsyncFuture));

uint64_t last_future_id = 0;

zend_future_t* AsFuture(zend_async_event_t* event) {
  return reinterpret_cast<zend_future_t*>(event);
}

// future->resolve: completes once. The outcome (result or exception) is
// already stored by ZEND_FUTURE_COMPLETE / ZEND_FUTURE_REJECT.
bool Resolve(zend_async_event_t* event, void* iterator) {
  if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) return true;
  ZEND_ASYNC_EVENT_SET_CLOSED(event);

  zend_future_t* future = AsFuture(event);
  ApplyCurrentLocation(&future->completed_filename, &future->completed_lineno);
  if (ZEND_ASYNC_REF_TRACING()) TraceFutureResolve(future);

  // Waiters first, then the map/catch/finally chains with the chain run
  // that completed this future (NULL at the chain's start).
  ZEND_ASYNC_CALLBACKS_NOTIFY(event, &future->result, future->exception);
  zend_async_callbacks_vector_notify(&future->resolve_callbacks, event,
                                     iterator);
  // The subscriptions have handed their futures to a chain run, which holds
  // its own references: freeing them now lets a temporary source object go
  // (a completed future takes no new subscriptions, mapper.h).
  zend_async_callbacks_vector_free(&future->resolve_callbacks, event);

  if (ZEND_ASYNC_EVENT_IS_EXCEPTION_HANDLED(event)) {
    ZEND_FUTURE_SET_EXCEPTION_CAUGHT(future);
  }
  return true;
}

bool AddCallback(zend_async_event_t* event,
                 zend_async_event_callback_t* callback) {
  zend_future_t* future = AsFuture(event);
  if (ZEND_FUTURE_IS_COMPLETED(future)) {
    // The notification already went out: deliver it to the late subscriber.
    callback->callback(event, callback, &future->result, future->exception);
    return EG(exception) == nullptr;
  }
  return zend_async_callbacks_push(event, callback);
}

bool Replay(zend_async_event_t* event, zend_async_event_callback_t* callback,
            zval* result, zend_object** exception) {
  zend_future_t* future = AsFuture(event);
  if (!ZEND_FUTURE_IS_COMPLETED(future)) return false;

  if (callback != nullptr) {
    callback->callback(event, callback, &future->result, future->exception);
    return EG(exception) == nullptr;
  }
  if (result != nullptr && future->exception == nullptr) {
    ZVAL_COPY(result, &future->result);
  }
  if (future->exception != nullptr) {
    GC_ADDREF(future->exception);
    if (exception != nullptr) {
      *exception = future->exception;
    } else {
      zend_throw_exception_internal(future->exception);
    }
  }
  return EG(exception) == nullptr;
}

zend_string* Info(zend_async_event_t* event) {
  return zend_strpprintf(
      0, "FutureState(%s)",
      ZEND_FUTURE_IS_COMPLETED(AsFuture(event)) ? "completed" : "pending");
}

// The rejected future's message property, or "Unknown error".
const char* ExceptionMessage(zend_object* exception) {
  zval rv;
  zval* message = zend_read_property_ex(exception->ce, exception,
                                        ZSTR_KNOWN(ZEND_STR_MESSAGE), 1, &rv);
  return message != nullptr && Z_TYPE_P(message) == IS_STRING
             ? Z_STRVAL_P(message)
             : "Unknown error";
}

// The two warnings of a future nobody looked at (future.h).
void WarnIfUnused(zend_future_t* future) {
  if (ZEND_FUTURE_IS_IGNORED(future)) return;

  if (!ZEND_FUTURE_IS_USED(future)) {
    if (future->filename != nullptr) {
      zend_error(E_CORE_WARNING,
                 "Future was never used; call await(), map(), catch(), "
                 "finally() or ignore() to suppress this warning. Created at "
                 "%s:%u",
                 ZSTR_VAL(future->filename), future->lineno);
    } else {
      zend_error(E_CORE_WARNING,
                 "Future was never used; call await(), map(), catch(), "
                 "finally() or ignore() to suppress this warning");
    }
  }

  if (future->exception == nullptr || ZEND_FUTURE_IS_EXCEPTION_CAUGHT(future)) {
    return;
  }
  const char* message = ExceptionMessage(future->exception);
  if (future->filename != nullptr && future->completed_filename != nullptr) {
    zend_error(E_CORE_WARNING,
               "Unhandled exception in Future: %s; use catch() or ignore() "
               "to handle. Created at %s:%u, completed at %s:%u",
               message, ZSTR_VAL(future->filename), future->lineno,
               ZSTR_VAL(future->completed_filename), future->completed_lineno);
  } else if (future->filename != nullptr) {
    zend_error(E_CORE_WARNING,
               "Unhandled exception in Future: %s; use catch() or ignore() "
               "to handle. Created at %s:%u",
               message, ZSTR_VAL(future->filename), future->lineno);
  } else {
    zend_error(E_CORE_WARNING,
               "Unhandled exception in Future: %s; use catch() or ignore() "
               "to handle",
               message);
  }
}

bool Dispose(zend_async_event_t* event) {
  zend_future_t* future = AsFuture(event);
  WarnIfUnused(future);

  zval_ptr_dtor(&future->result);
  ZVAL_UNDEF(&future->result);
  internal::ReleaseAndClear(future->exception);
  internal::ReleaseAndClear(future->filename);
  internal::ReleaseAndClear(future->completed_filename);
  zend_async_callbacks_free(event);
  zend_async_callbacks_vector_free(&future->resolve_callbacks, event);
  efree(AsyncFuture::From(future));
  return true;
}

}  // namespace

zend_future_t* NewFuture(bool thread_safe, size_t extra_size) {
  (void)thread_safe;  // ignored, as upstream (future.h)
  auto* block =
      static_cast<AsyncFuture*>(ecalloc(1, sizeof(AsyncFuture) + extra_size));
  block->id = ++last_future_id;
  zend_future_t* future = &block->future;
  zend_async_event_t* event = &future->event;
  ZVAL_UNDEF(&future->result);

  event->ref_count = 1;
  // stop() does not complete a future: resolve() does.
  internal::SetUnarmedVtable(event, {.add_callback = AddCallback,
                                     .replay = Replay,
                                     .dispose = Dispose,
                                     .info = Info});
  future->resolve = Resolve;

  ApplyCurrentLocation(&future->filename, &future->lineno);
  ZEND_ASYNC_EVENT_SET_ZVAL_RESULT(event);
  return future;
}

const char* FutureToken(const zend_future_t* future,
                        char buf[ZEND_ASYNC_REF_NAME_SIZE]) {
  return internal::TokenText::Format(buf, "Future",
                                     AsyncFuture::From(future)->id);
}

void ResetFutureIds() { last_future_id = 0; }

}  // namespace zar::core
