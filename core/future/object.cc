// Async\FutureState and Async\Future objects (object.h).

#include "core/future/object.h"

#include "core/future/classes.h"
#include "core/future/future.h"
#include "core/future/mapper.h"
#include "core/internal/arginfo.h"
#include "core/internal/php_object.h"

extern "C" {
#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
#include "zend_async_ref/park.h"
}

namespace zar::core {
namespace {

using internal::arginfo_cancellation;
using internal::arginfo_none;

FutureStateObject* ThisState(zend_execute_data* execute_data) {
  return FutureStateObject::FromObject(Z_OBJ_P(ZEND_THIS));
}

FutureObject* ThisFuture(zend_execute_data* execute_data) {
  return FutureObject::FromObject(Z_OBJ_P(ZEND_THIS));
}

// ---- Object lifecycle -------------------------------------------------------

void FreeFutureState(zend_object* object) {
  FutureStateObject* self = FutureStateObject::FromObject(object);
  zend_async_event_t* event = self->ref.event;
  self->ref.event = nullptr;
  if (event != nullptr) ZEND_ASYNC_EVENT_RELEASE(event);
  zend_object_std_dtor(object);
}

void FreeFuture(zend_object* object) {
  FutureObject* self = FutureObject::FromObject(object);
  if (self->child_futures != nullptr) {
    zend_array_destroy(self->child_futures);
    self->child_futures = nullptr;
  }
  zval_ptr_dtor(&self->mapper);
  ZVAL_UNDEF(&self->mapper);
  zend_async_event_t* event = self->ref.event;
  self->ref.event = nullptr;
  if (event != nullptr) ZEND_ASYNC_EVENT_RELEASE(event);
  zend_object_std_dtor(object);
}

// What a Future owns: its derived futures and its mapper, and, when it
// holds the future's only reference, what the future holds: the outcome,
// and the object itself when the future's chain subscription (mapper.h)
// holds it. A shared future is reported by nobody, so the collector never
// counts an edge twice; a pending future nobody else can settle makes the
// source and its derived futures a cycle the collector frees.
HashTable* GetFutureGc(zend_object* object, zval** table, int* n) {
  FutureObject* self = FutureObject::FromObject(object);
  zend_get_gc_buffer* buffer = zend_get_gc_buffer_create();
  zend_future_t* future = self->future();
  if (future != nullptr && future->event.ref_count == 1) {
    if (future->exception != nullptr) {
      zend_get_gc_buffer_add_obj(buffer, future->exception);
    }
    zend_get_gc_buffer_add_zval(buffer, &future->result);
    if (future->resolve_callbacks.length != 0) {
      zend_get_gc_buffer_add_obj(buffer, object);
    }
  }
  zend_get_gc_buffer_add_zval(buffer, &self->mapper);
  if (self->child_futures != nullptr) {
    zval* child;
    ZEND_HASH_FOREACH_VAL(self->child_futures, child) {
      zend_get_gc_buffer_add_zval(buffer, child);
    }
    ZEND_HASH_FOREACH_END();
  }
  zend_get_gc_buffer_use(buffer, table, n);
  return nullptr;
}

FutureObject* AllocFutureObject(zend_class_entry* ce, zend_future_t* future) {
  auto* self = internal::AllocObject<FutureObject>(ce);
  ZEND_ASYNC_EVENT_REF_SET(&self->ref, offsetof(FutureObject, std),
                           future != nullptr ? &future->event : nullptr);
  self->child_futures = nullptr;
  ZVAL_UNDEF(&self->mapper);
  self->mapper_type = MapperType::kMap;
  zend_object_std_init(&self->std, ce);
  object_properties_init(&self->std, ce);
  return self;
}

// ---- Shared by both classes -------------------------------------------------

void ThrowAlreadyCompleted(const zend_future_t* future) {
  if (future->completed_filename != nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "FutureState is already completed at %s:%u",
                     ZSTR_VAL(future->completed_filename),
                     future->completed_lineno);
  } else {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "FutureState is already completed at Unknown:0");
  }
}

void ReturnAwaitingInfo(zend_future_t* future, zval* return_value) {
  array_init(return_value);
  if (future != nullptr) {
    add_next_index_str(return_value, future->event.info(&future->event));
  }
}

void ReturnFileAndLine(zend_string* filename, uint32_t lineno,
                       zval* return_value) {
  array_init(return_value);
  if (filename != nullptr) {
    add_next_index_str(return_value, zend_string_copy(filename));
  } else {
    add_next_index_null(return_value);
  }
  add_next_index_long(return_value, lineno);
}

void ReturnLocation(zend_string* filename, uint32_t lineno,
                    zval* return_value) {
  if (filename != nullptr) {
    RETURN_STR(zend_strpprintf(0, "%s:%u", ZSTR_VAL(filename), lineno));
  }
  RETURN_STRING("unknown");
}

// The unsettled future of the FutureState $this, or nullptr with
// Async\AsyncException thrown: "FutureState is already destroyed", or
// already completed (ThrowAlreadyCompleted).
zend_future_t* UnsettledFuture(zend_execute_data* execute_data) {
  zend_future_t* future = ThisState(execute_data)->future();
  if (future == nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "FutureState is already destroyed");
    return nullptr;
  }
  if (ZEND_FUTURE_IS_COMPLETED(future)) {
    ThrowAlreadyCompleted(future);
    return nullptr;
  }
  return future;
}

}  // namespace

// ---- Async\FutureState ------------------------------------------------------

ZEND_METHOD(Async_FutureState, __construct) {
  (void)return_value;
  ZEND_PARSE_PARAMETERS_NONE();
}

ZEND_METHOD(Async_FutureState, complete) {
  (void)return_value;
  zval* result;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_ZVAL(result)
  ZEND_PARSE_PARAMETERS_END();

  zend_future_t* future = UnsettledFuture(execute_data);
  if (future == nullptr) RETURN_THROWS();
  ZEND_FUTURE_COMPLETE(future, result);
}

ZEND_METHOD(Async_FutureState, error) {
  (void)return_value;
  zval* throwable;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_OBJECT_OF_CLASS(throwable, zend_ce_throwable)
  ZEND_PARSE_PARAMETERS_END();

  zend_future_t* future = UnsettledFuture(execute_data);
  if (future == nullptr) RETURN_THROWS();
  ZEND_FUTURE_REJECT(future, Z_OBJ_P(throwable));
}

ZEND_METHOD(Async_FutureState, isCompleted) {
  ZEND_PARSE_PARAMETERS_NONE();
  const zend_future_t* future = ThisState(execute_data)->future();
  RETURN_BOOL(future == nullptr || ZEND_FUTURE_IS_COMPLETED(future));
}

ZEND_METHOD(Async_FutureState, ignore) {
  (void)return_value;
  ZEND_PARSE_PARAMETERS_NONE();
  zend_future_t* future = ThisState(execute_data)->future();
  if (future == nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "FutureState is already destroyed");
    RETURN_THROWS();
  }
  ZEND_FUTURE_SET_IGNORED(future);
}

// ---- Async\Future -----------------------------------------------------------

ZEND_METHOD(Async_Future, __construct) {
  (void)return_value;
  zval* state;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_OBJECT_OF_CLASS(state, FutureStateClass())
  ZEND_PARSE_PARAMETERS_END();

  zend_future_t* future =
      FutureStateObject::FromObject(Z_OBJ_P(state))->future();
  if (future == nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "FutureState is already destroyed");
    RETURN_THROWS();
  }
  FutureObject* self = ThisFuture(execute_data);
  zend_async_event_t* previous = self->ref.event;
  ZEND_ASYNC_EVENT_ADD_REF(&future->event);
  self->ref.event = &future->event;
  if (previous != nullptr) ZEND_ASYNC_EVENT_RELEASE(previous);
}

ZEND_METHOD(Async_Future, completed) {
  zval* value = nullptr;
  ZEND_PARSE_PARAMETERS_START(0, 1)
  Z_PARAM_OPTIONAL
  Z_PARAM_ZVAL(value)
  ZEND_PARSE_PARAMETERS_END();

  zend_future_t* future = NewFuture(false, 0);
  zval null_value{};
  ZVAL_NULL(&null_value);
  ZEND_FUTURE_COMPLETE(future, value != nullptr ? value : &null_value);
  RETURN_OBJ(NewFutureObject(future));
}

ZEND_METHOD(Async_Future, failed) {
  zval* throwable;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_OBJECT_OF_CLASS(throwable, zend_ce_throwable)
  ZEND_PARSE_PARAMETERS_END();

  zend_future_t* future = NewFuture(false, 0);
  ZEND_FUTURE_REJECT(future, Z_OBJ_P(throwable));
  RETURN_OBJ(NewFutureObject(future));
}

ZEND_METHOD(Async_Future, isCompleted) {
  ZEND_PARSE_PARAMETERS_NONE();
  const zend_future_t* future = ThisFuture(execute_data)->future();
  RETURN_BOOL(future != nullptr && ZEND_FUTURE_IS_COMPLETED(future));
}

ZEND_METHOD(Async_Future, isCancelled) {
  ZEND_PARSE_PARAMETERS_NONE();
  const zend_future_t* future = ThisFuture(execute_data)->future();
  RETURN_BOOL(future != nullptr && ZEND_FUTURE_IS_COMPLETED(future) &&
              future->exception != nullptr &&
              instanceof_function(
                  future->exception->ce,
                  ZEND_ASYNC_GET_CE(ZEND_ASYNC_EXCEPTION_CANCELLATION)));
}

ZEND_METHOD(Async_Future, cancel) {
  (void)return_value;
  zend_object* cancellation = nullptr;
  ZEND_PARSE_PARAMETERS_START(0, 1)
  Z_PARAM_OPTIONAL
  Z_PARAM_OBJ_OF_CLASS_OR_NULL(
      cancellation, ZEND_ASYNC_GET_CE(ZEND_ASYNC_EXCEPTION_CANCELLATION))
  ZEND_PARSE_PARAMETERS_END();

  zend_future_t* future = ThisFuture(execute_data)->future();
  if (future == nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "Future has no state");
    RETURN_THROWS();
  }
  if (ZEND_FUTURE_IS_COMPLETED(future)) return;

  if (cancellation == nullptr) {
    cancellation = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION,
                                            "Future has been cancelled");
  } else {
    GC_ADDREF(cancellation);
  }
  ZEND_FUTURE_REJECT(future, cancellation);
  OBJ_RELEASE(cancellation);
}

ZEND_METHOD(Async_Future, ignore) {
  ZEND_PARSE_PARAMETERS_NONE();
  zend_future_t* future = ThisFuture(execute_data)->future();
  if (future != nullptr) ZEND_FUTURE_SET_IGNORED(future);
  RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Future, map) {
  CreateMapper(execute_data, return_value, MapperType::kMap);
}

ZEND_METHOD(Async_Future, catch) {
  CreateMapper(execute_data, return_value, MapperType::kCatch);
}

ZEND_METHOD(Async_Future, finally) {
  CreateMapper(execute_data, return_value, MapperType::kFinally);
}

ZEND_METHOD(Async_Future, await) {
  zend_object* cancellation = nullptr;
  ZEND_PARSE_PARAMETERS_START(0, 1)
  Z_PARAM_OPTIONAL
  Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancellation,
                               ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_COMPLETABLE))
  ZEND_PARSE_PARAMETERS_END();

  if (UNEXPECTED(ZEND_ASYNC_CURRENT_COROUTINE == nullptr)) {
    ZEND_ASYNC_SCHEDULER_LAUNCH();
    if (UNEXPECTED(EG(exception) != nullptr)) RETURN_THROWS();
  }
  zend_coroutine_t* coroutine = ZEND_ASYNC_CURRENT_COROUTINE;
  if (UNEXPECTED(coroutine == nullptr)) RETURN_NULL();

  zend_future_t* future = ThisFuture(execute_data)->future();
  if (future == nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "Future has no state");
    RETURN_THROWS();
  }
  ZEND_FUTURE_SET_USED(future);
  zend_async_event_t* event = &future->event;

  if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
    zend_object* exception = nullptr;
    if (!ZEND_ASYNC_EVENT_EXTRACT_RESULT_OR_ERROR(event, return_value,
                                                  &exception)) {
      RETURN_NULL();
    }
    if (exception != nullptr) {
      ZEND_FUTURE_SET_EXCEPTION_CAUGHT(future);
      zend_throw_exception_internal(exception);
      RETURN_THROWS();
    }
    return;
  }

  zend_async_event_t* cancellation_event = nullptr;
  if (cancellation != nullptr) {
    cancellation_event = ZEND_ASYNC_OBJECT_TO_EVENT(cancellation);
    if (ZEND_ASYNC_EVENT_IS_CLOSED(cancellation_event)) {
      // A cancellation that already happened ends the wait before it
      // starts, with its own error as the previous one.
      zend_object* previous = nullptr;
      ZEND_ASYNC_EVENT_EXTRACT_RESULT_OR_ERROR(cancellation_event, nullptr,
                                               &previous);
      zend_object* cancelled =
          zend_async_new_exception(ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED,
                                   "Operation has been cancelled");
      if (previous != nullptr) zend_exception_set_previous(cancelled, previous);
      zend_throw_exception_internal(cancelled);
      RETURN_THROWS();
    }
  }

  zval result;
  zend_async_ref_park_t park = {};
  park.events[0].event = event;
  park.events[1] = {cancellation_event, zend_async_waker_callback_cancel,
                    nullptr, false};
  park.result = &result;
  if (!zend_async_ref_park(coroutine, &park)) RETURN_THROWS();
  if (Z_TYPE(result) == IS_UNDEF) RETURN_NULL();
  RETURN_COPY_VALUE(&result);
}

// The five introspection methods, shared by both classes (FutureState
// registers these functions under the same names): each reads the future
// of $this, whichever class it is (both objects are event references).

namespace {

zend_future_t* FutureOfThis(zend_execute_data* execute_data) {
  return reinterpret_cast<zend_future_t*>(
      ZEND_ASYNC_OBJECT_TO_EVENT(Z_OBJ_P(ZEND_THIS)));
}

// Where the future of $this was made (or, with `completed`, settled):
// "file:line" as ReturnLocation, or [file, line] as ReturnFileAndLine.
void ReturnWhere(zend_execute_data* execute_data, zval* return_value,
                 bool completed, void (*as)(zend_string*, uint32_t, zval*)) {
  const zend_future_t* future = FutureOfThis(execute_data);
  if (future == nullptr) {
    as(nullptr, 0, return_value);
  } else if (completed) {
    as(future->completed_filename, future->completed_lineno, return_value);
  } else {
    as(future->filename, future->lineno, return_value);
  }
}

// getCreatedFileAndLine(), getCreatedLocation(), getCompletedFileAndLine()
// and getCompletedLocation(): ReturnWhere with `kCompleted` and `kAs`.
template <bool kCompleted, void (*kAs)(zend_string*, uint32_t, zval*)>
void WhereMethod(INTERNAL_FUNCTION_PARAMETERS) {
  ZEND_PARSE_PARAMETERS_NONE();
  ReturnWhere(execute_data, return_value, kCompleted, kAs);
}

}  // namespace

ZEND_METHOD(Async_Future, getAwaitingInfo) {
  ZEND_PARSE_PARAMETERS_NONE();
  ReturnAwaitingInfo(FutureOfThis(execute_data), return_value);
}

// ---- Class set-up -----------------------------------------------------------

namespace {

ZAR_ARG_INFO_1(arginfo_complete, 1, ZEND_ARG_TYPE_INFO(0, result, IS_MIXED, 0))

ZAR_ARG_INFO_1(arginfo_error, 1, ZEND_ARG_OBJ_INFO(0, throwable, Throwable, 0))

ZAR_ARG_INFO_1(arginfo_completed, 0, ZEND_ARG_TYPE_INFO(0, value, IS_MIXED, 0))

ZAR_ARG_INFO_1(arginfo_construct, 1,
               ZEND_ARG_OBJ_INFO(0, state, Async\\FutureState, 0))

ZAR_ARG_INFO_1(arginfo_map, 1, ZEND_ARG_TYPE_INFO(0, map, IS_CALLABLE, 0))

ZAR_ARG_INFO_1(arginfo_catch, 1, ZEND_ARG_TYPE_INFO(0, catch, IS_CALLABLE, 0))

ZAR_ARG_INFO_1(arginfo_finally, 1,
               ZEND_ARG_TYPE_INFO(0, finally, IS_CALLABLE, 0))

ZAR_ARG_INFO_1(arginfo_await, 0,
               ZEND_ARG_OBJ_INFO(0, cancellation, Async\\Completable, 1))

// The introspection methods: Future's, which FutureState registers under
// the same names (they read either object).
#define ZAR_FUTURE_INTROSPECTION_METHODS                                       \
  ZEND_ME(Async_Future, getAwaitingInfo, arginfo_none, ZEND_ACC_PUBLIC)        \
  ZEND_RAW_FENTRY("getCreatedFileAndLine",                                     \
                  (WhereMethod<false, ReturnFileAndLine>), arginfo_none,       \
                  ZEND_ACC_PUBLIC, nullptr, nullptr)                           \
  ZEND_RAW_FENTRY("getCreatedLocation", (WhereMethod<false, ReturnLocation>),  \
                  arginfo_none, ZEND_ACC_PUBLIC, nullptr, nullptr)             \
  ZEND_RAW_FENTRY("getCompletedFileAndLine",                                   \
                  (WhereMethod<true, ReturnFileAndLine>), arginfo_none,        \
                  ZEND_ACC_PUBLIC, nullptr, nullptr)                           \
  ZEND_RAW_FENTRY("getCompletedLocation", (WhereMethod<true, ReturnLocation>), \
                  arginfo_none, ZEND_ACC_PUBLIC, nullptr, nullptr)

// clang-format off
const zend_function_entry kFutureStateMethods[] = {
    ZEND_ME(Async_FutureState, __construct, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_FutureState, complete, arginfo_complete, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_FutureState, error, arginfo_error, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_FutureState, isCompleted, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_FutureState, ignore, arginfo_none, ZEND_ACC_PUBLIC)
    ZAR_FUTURE_INTROSPECTION_METHODS
    ZEND_FE_END};

const zend_function_entry kFutureMethods[] = {
    ZEND_ME(Async_Future, completed, arginfo_completed,
            ZEND_ACC_PUBLIC | ZEND_ACC_STATIC)
    ZEND_ME(Async_Future, failed, arginfo_error,
            ZEND_ACC_PUBLIC | ZEND_ACC_STATIC)
    ZEND_ME(Async_Future, __construct, arginfo_construct, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Future, isCompleted, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Future, isCancelled, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Future, cancel, arginfo_cancellation, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Future, ignore, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Future, map, arginfo_map, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Future, catch, arginfo_catch, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Future, finally, arginfo_finally, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Future, await, arginfo_await, ZEND_ACC_PUBLIC)
    ZAR_FUTURE_INTROSPECTION_METHODS
    ZEND_FE_END};
// clang-format on

#undef ZAR_FUTURE_INTROSPECTION_METHODS

}  // namespace

zend_object* CreateFutureStateObject(zend_class_entry* ce) {
  auto* self = internal::AllocObject<FutureStateObject>(ce);
  zend_future_t* future = NewFuture(false, 0);
  ZEND_ASYNC_EVENT_REF_SET(&self->ref, offsetof(FutureStateObject, std),
                           &future->event);
  zend_object_std_init(&self->std, ce);
  object_properties_init(&self->std, ce);
  return &self->std;
}

zend_object* CreateFutureObject(zend_class_entry* ce) {
  return &AllocFutureObject(ce, nullptr)->std;
}

zend_object* NewFutureObject(zend_future_t* future) {
  if (future == nullptr) return nullptr;
  return &AllocFutureObject(FutureClass(), future)->std;
}

const zend_function_entry* FutureStateMethods() { return kFutureStateMethods; }
const zend_function_entry* FutureMethods() { return kFutureMethods; }

const zend_object_handlers* FutureStateObjectHandlers() {
  static const zend_object_handlers handlers =
      internal::MakeObjectHandlers<FutureStateObject>(
          {.free_obj = FreeFutureState});
  return &handlers;
}

const zend_object_handlers* FutureObjectHandlers() {
  static const zend_object_handlers handlers =
      internal::MakeObjectHandlers<FutureObject>(
          {.free_obj = FreeFuture, .get_gc = GetFutureGc});
  return &handlers;
}

}  // namespace zar::core
