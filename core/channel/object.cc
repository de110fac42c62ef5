// Async\Channel objects: handlers and methods (object.h).

#include "core/channel/object.h"

#include "core/channel/classes.h"
#include "core/internal/arginfo.h"
#include "core/scheduler/async_classes.h"

namespace zar::core {
namespace {

using internal::arginfo_none;
using internal::EventWrapper;

// The channel of an Async\Channel object (an internal::EventWrapper), of
// $this; NULL before construction.
constexpr auto ChannelOfObject = internal::WrappedOwner<AsyncChannel>;
constexpr auto ThisChannel = internal::WrappedThis<AsyncChannel>;

void ThrowNotInitialized() {
  zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                   "Async\\Channel is not initialized");
}

// The channel of $this, or nullptr with Async\AsyncException "Async\Channel
// is not initialized" thrown.
constexpr auto RequireChannel =
    internal::RequireWrappedThis<AsyncChannel, ThrowNotInitialized>;

// ---- Handlers --------------------------------------------------------------

void DestroyChannelObject(zend_object* object) {
  if (EventWrapper::FromObject(object)->SoleOwner()) {
    CloseChannel(ChannelOfObject(object), ChannelCloseReason::kDisposed);
  }
}

// get_gc (internal::GetEventWrapperGc): the buffered values.
void ReportBuffered(AsyncChannel* channel, zend_get_gc_buffer* buffer) {
  for (uint32_t i = 0; i < channel->buffer.size(); i++) {
    zend_get_gc_buffer_add_zval(buffer, const_cast<zval*>(&channel->buffer[i]));
  }
}

// ---- Methods ----------------------------------------------------------------

ZEND_METHOD(Async_Channel, __construct) {
  (void)return_value;
  zend_long capacity = 0;
  zend_long no_producer_timeout = 0;
  zend_long no_consumer_timeout = 0;
  bool hard_timeouts = false;
  ZEND_PARSE_PARAMETERS_START(0, 4)
  Z_PARAM_OPTIONAL
  Z_PARAM_LONG(capacity)
  Z_PARAM_LONG(no_producer_timeout)
  Z_PARAM_LONG(no_consumer_timeout)
  Z_PARAM_BOOL(hard_timeouts)
  ZEND_PARSE_PARAMETERS_END();

  const zend_long limits[3] = {capacity, no_producer_timeout,
                               no_consumer_timeout};
  for (uint32_t i = 0; i < 3; i++) {
    if (limits[i] < 0 || limits[i] > kMaxChannelCapacity) {
      zend_argument_value_error(i + 1, "must be between 0 and %d", INT32_MAX);
      RETURN_THROWS();
    }
  }
  zend_object* self = Z_OBJ_P(ZEND_THIS);
  if (ChannelOfObject(self) != nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Async\\Channel is already initialized");
    RETURN_THROWS();
  }
  AsyncChannel* channel = AllocateChannel(static_cast<uint32_t>(capacity));
  channel->no_producer_timeout_ms = static_cast<uint32_t>(no_producer_timeout);
  channel->no_consumer_timeout_ms = static_cast<uint32_t>(no_consumer_timeout);
  channel->hard_timeouts = hard_timeouts;
  EventWrapper::FromObject(self)->ref.event = channel->event();
}

ZEND_METHOD(Async_Channel, send) {
  (void)return_value;
  zval* value = nullptr;
  zend_object* token = nullptr;
  ZEND_PARSE_PARAMETERS_START(1, 2)
  Z_PARAM_ZVAL(value)
  Z_PARAM_OPTIONAL
  Z_PARAM_OBJ_OF_CLASS_OR_NULL(token, GetClassCe(ZEND_ASYNC_CLASS_COMPLETABLE))
  ZEND_PARSE_PARAMETERS_END();
  AsyncChannel* channel = RequireChannel(execute_data);
  if (channel == nullptr) RETURN_THROWS();
  ChannelSendWithToken(channel, value, token);
}

ZEND_METHOD(Async_Channel, sendAsync) {
  zval* value = nullptr;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_ZVAL(value)
  ZEND_PARSE_PARAMETERS_END();
  AsyncChannel* channel = RequireChannel(execute_data);
  if (channel == nullptr) RETURN_THROWS();
  RETURN_BOOL(ChannelTrySend(channel, value));
}

ZEND_METHOD(Async_Channel, recv) {
  zend_object* token = nullptr;
  ZEND_PARSE_PARAMETERS_START(0, 1)
  Z_PARAM_OPTIONAL
  Z_PARAM_OBJ_OF_CLASS_OR_NULL(token, GetClassCe(ZEND_ASYNC_CLASS_COMPLETABLE))
  ZEND_PARSE_PARAMETERS_END();
  AsyncChannel* channel = RequireChannel(execute_data);
  if (channel == nullptr) RETURN_THROWS();
  if (!ChannelReceiveWithToken(channel, return_value, token)) {
    ZVAL_NULL(return_value);
  }
}

ZEND_METHOD(Async_Channel, recvAsync) {
  ZEND_PARSE_PARAMETERS_NONE();
  AsyncChannel* channel = RequireChannel(execute_data);
  if (channel == nullptr) RETURN_THROWS();
  zend_future_t* future = ChannelReceiveAsync(channel);
  if (future == nullptr) RETURN_THROWS();
  // The object takes over the future's one reference.
  zend_object* object = ZEND_ASYNC_NEW_FUTURE_OBJ(future);
  if (object == nullptr) {
    ZEND_ASYNC_EVENT_RELEASE(&future->event);
    RETURN_THROWS();
  }
  RETURN_OBJ(object);
}

ZEND_METHOD(Async_Channel, close) {
  (void)return_value;
  ZEND_PARSE_PARAMETERS_NONE();
  AsyncChannel* channel = RequireChannel(execute_data);
  if (channel == nullptr) RETURN_THROWS();
  CloseChannel(channel, ChannelCloseReason::kExplicit);
}

ZEND_METHOD(Async_Channel, isClosed) {
  ZEND_PARSE_PARAMETERS_NONE();
  AsyncChannel* channel = ThisChannel(execute_data);
  RETURN_BOOL(channel == nullptr || channel->closed());
}

ZEND_METHOD(Async_Channel, capacity) {
  ZEND_PARSE_PARAMETERS_NONE();
  AsyncChannel* channel = RequireChannel(execute_data);
  if (channel == nullptr) RETURN_THROWS();
  RETURN_LONG(channel->capacity);
}

ZEND_METHOD(Async_Channel, count) {
  ZEND_PARSE_PARAMETERS_NONE();
  AsyncChannel* channel = RequireChannel(execute_data);
  if (channel == nullptr) RETURN_THROWS();
  RETURN_LONG(channel->count());
}

ZEND_METHOD(Async_Channel, isEmpty) {
  ZEND_PARSE_PARAMETERS_NONE();
  AsyncChannel* channel = RequireChannel(execute_data);
  if (channel == nullptr) RETURN_THROWS();
  RETURN_BOOL(channel->count() == 0);
}

ZEND_METHOD(Async_Channel, isFull) {
  ZEND_PARSE_PARAMETERS_NONE();
  AsyncChannel* channel = RequireChannel(execute_data);
  if (channel == nullptr) RETURN_THROWS();
  RETURN_BOOL(channel->count() >= channel->slots());
}

// ---- Arg info and method table ------------------------------------------

ZEND_BEGIN_ARG_INFO_EX(arginfo_construct, 0, 0, 0)
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, capacity, IS_LONG, 0, "0")
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, noProducerTimeout, IS_LONG, 0, "0")
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, noConsumerTimeout, IS_LONG, 0, "0")
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, hardTimeouts, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_send, 0, 0, 1)
ZEND_ARG_TYPE_INFO(0, value, IS_MIXED, 0)
ZEND_ARG_INFO(0, cancellationToken)
ZEND_END_ARG_INFO()

ZAR_ARG_INFO_1(arginfo_send_async, 1, ZEND_ARG_TYPE_INFO(0, value, IS_MIXED, 0))

ZAR_ARG_INFO_1(arginfo_recv, 0, ZEND_ARG_INFO(0, cancellationToken))

// clang-format off
const zend_function_entry kChannelMethods[] = {
    ZEND_ME(Async_Channel, __construct, arginfo_construct, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Channel, send, arginfo_send, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Channel, sendAsync, arginfo_send_async, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Channel, recv, arginfo_recv, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Channel, recvAsync, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Channel, close, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Channel, isClosed, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Channel, capacity, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Channel, count, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Channel, isEmpty, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_ME(Async_Channel, isFull, arginfo_none, ZEND_ACC_PUBLIC)
    ZEND_FE_END};
// clang-format on

}  // namespace

const zend_function_entry* ChannelMethods() { return kChannelMethods; }

const zend_object_handlers* ChannelObjectHandlers() {
  // free_obj, dtor_obj, get_gc, count_elements.
  static const zend_object_handlers handlers =
      internal::MakeObjectHandlers<EventWrapper>(
          {internal::FreeEventWrapper, DestroyChannelObject,
           internal::GetEventWrapperGc<AsyncChannel, ReportBuffered>,
           internal::CountEventWrapper<AsyncChannel, &AsyncChannel::count>});
  return &handlers;
}

zend_object* NewChannelObject(zend_async_channel_t* channel) {
  if (channel == nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "ZEND_ASYNC_NEW_CHANNEL_OBJ(): no channel");
    return nullptr;
  }
  return internal::NewEventWrapper(ChannelClass(), "Async\\Channel",
                                   &channel->event);
}

}  // namespace zar::core
