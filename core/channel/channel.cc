// The channel (channel.h): create, send and receive (their loops; wait.cc
// parks them), close, the event. The deadlock timer, the waits and
// recvAsync()'s futures are files of their own (the map in channel.h).

#include "core/channel/channel.h"

#include <new>

#include "core/channel/classes.h"
#include "core/channel/trace.h"
#include "core/internal/owner_event.h"
#include "mock_zend/parked_exception.h"

extern "C" {
#include "Zend/zend_exceptions.h"
}

namespace zar::core {

using internal::CountDownWaiterCallback;
using internal::Waiter;
using internal::WaiterQueue;

namespace {

uint32_t last_channel_id = 0;

void InitChannelEvent(AsyncChannel* channel);

}  // namespace

// The ChannelException of `reason`, owned by the caller.
zend_object* NewChannelException(ChannelCloseReason reason) {
  ThrowChannelException(reason);
  zend_object* exception = EG(exception);
  EG(exception) = nullptr;
  return exception;
}

void ThrowChannelException(ChannelCloseReason reason) {
  zend_class_entry* ce = ChannelExceptionClass();
  zend_object* exception = zend_throw_exception(
      ce != nullptr ? ce : zend_ce_exception, TextOf(reason).message, 0);
  zend_object* reason_case = ChannelCloseReasonCase(reason);
  if (exception != nullptr && reason_case != nullptr && ce != nullptr) {
    zval value;
    ZVAL_OBJ(&value, reason_case);
    zend_update_property(ce, exception, ZEND_STRL("reason"), &value);
  }
}

void ResetChannelIds() { last_channel_id = 0; }

// ===========================================================================
// Create.
// ===========================================================================

AsyncChannel* AllocateChannel(uint32_t capacity, size_t extra_size) {
  void* memory = ecalloc(1, sizeof(AsyncChannel) + extra_size);
  auto* channel = new (memory) AsyncChannel();
  channel->capacity = capacity;
  channel->id = ++last_channel_id;
  InitChannelEvent(channel);
  channel->event()->extra_offset = sizeof(AsyncChannel);
  channel->base.send = ChannelSend;
  channel->base.receive = ChannelReceive;
  channel->base.close = ChannelClose;
  if (ZEND_ASYNC_REF_TRACING()) TraceChannelCreate(channel);
  return channel;
}

zend_async_channel_t* NewChannel(size_t buffer_size, bool /*resizable*/,
                                 bool thread_safe, size_t extra_size) {
  if (thread_safe) {
    zend_async_throw(
        ZEND_ASYNC_EXCEPTION_DEFAULT,
        "Thread-safe channels are not supported by "
        "zend-async-ref: no other thread runs PHP code to share them "
        "with");
    return nullptr;
  }
  if (buffer_size > static_cast<size_t>(kMaxChannelCapacity)) {
    zend_value_error(
        "ZEND_ASYNC_NEW_CHANNEL(): Argument #1 ($buffer_size) must be between "
        "0 and %d",
        INT32_MAX);
    return nullptr;
  }
  return &AllocateChannel(static_cast<uint32_t>(buffer_size), extra_size)->base;
}

// ===========================================================================
// Send and receive: the values, the cancellation tokens, the loops that
// wait (wait.cc parks them).
// ===========================================================================

namespace {

// Puts `value` (a reference taken) into a free slot and wakes a receiver.
// True when the value is on its way to a receiver (buffered, or a
// rendezvous matched); false for a rendezvous value nobody waits for yet.
bool Put(AsyncChannel* channel, zval* value) {
  zval copy;
  ZVAL_COPY(&copy, value);
  channel->buffer.PushBack(copy);
  if (channel->buffered()) {
    const bool handed = WakeReceiver(channel);
    if (ZEND_ASYNC_REF_TRACING()) {
      TraceChannelSend(channel, value, handed ? "handed" : "buffered");
    }
    return true;
  }
  channel->committed = false;
  if (WakeReceiver(channel)) {
    channel->committed = channel->count() > 0;
    if (ZEND_ASYNC_REF_TRACING()) TraceChannelSend(channel, value, "handed");
    return true;
  }
  if (ZEND_ASYNC_REF_TRACING()) TraceChannelSend(channel, value, "wait");
  return false;
}

// Resolves a cancellation token before a call: false when it has not
// completed; otherwise true with OperationCanceledException "Operation has
// been cancelled" thrown. An Async\Future token counts as used and its
// exception as caught (the call consumes it, as upstream's
// async_resolve_cancel_token), so it never warns at destruction.
bool TokenFired(zend_object* token) {
  if (token == nullptr) return false;
  zend_async_event_t* event = ZEND_ASYNC_OBJECT_TO_EVENT(token);
  if (event == nullptr) return false;
  zend_class_entry* future_ce = ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_FUTURE);
  if (future_ce != nullptr && instanceof_function(token->ce, future_ce)) {
    ZEND_ASYNC_EVENT_SET_RESULT_USED(event);
    ZEND_ASYNC_EVENT_SET_EXC_CAUGHT(event);
  }
  if (!ZEND_ASYNC_EVENT_IS_CLOSED(event)) return false;
  zend_object* cause = nullptr;
  ZEND_ASYNC_EVENT_EXTRACT_RESULT_OR_ERROR(event, nullptr, &cause);
  zend_object* error = zend_async_new_exception(
      ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED, "Operation has been cancelled");
  if (error != nullptr && cause != nullptr) {
    GC_ADDREF(cause);
    zend_exception_set_previous(error, cause);
  }
  if (error != nullptr) zend_throw_exception_internal(error);
  return true;
}

bool Send(AsyncChannel* channel, zval* value, zend_object* token) {
  if (TokenFired(token)) return false;
  // Every wait may let go of the last other reference.
  ZEND_ASYNC_EVENT_ADD_REF(channel->event());
  bool sent = false;
  bool reservation = false;
  for (;;) {
    if (channel->closed()) {
      ThrowChannelException(channel->close_reason);
      break;
    }
    if (reservation || channel->HasFreeSlot()) {
      if (Put(channel, value)) {
        sent = true;
        break;
      }
      WaitForDelivery(channel, token);
      sent = EG(exception) == nullptr;
      break;
    }
    if (ZEND_ASYNC_REF_TRACING()) TraceChannelSend(channel, value, "wait");
    reservation =
        WaitInQueue(channel, /*receiving=*/false, nullptr, token).reserved;
    if (EG(exception) != nullptr) break;
  }
  if (!sent && EG(exception) != nullptr && ZEND_ASYNC_REF_TRACING()) {
    TraceChannelFail(channel, "send");
  }
  ZEND_ASYNC_EVENT_RELEASE(channel->event());
  return sent;
}

bool Receive(AsyncChannel* channel, zval* result,
             zend_async_event_t* cancellation, zend_object* token) {
  if (TokenFired(token)) return false;
  ZEND_ASYNC_EVENT_ADD_REF(channel->event());
  bool received = false;
  bool reservation = false;
  for (;;) {
    if (reservation || channel->HasFreeValue()) {
      if (result != nullptr) {
        Take(channel, result);
      } else if (reservation && !channel->closed()) {
        // Wait-only: the value stays; the next receiver may have it.
        WakeReceiver(channel);
      }
      received = true;
      break;
    }
    if (channel->closed()) {
      ThrowChannelException(channel->close_reason);
      break;
    }
    if (ZEND_ASYNC_REF_TRACING()) TraceChannelReceive(channel, nullptr);
    const WaitResult waited =
        WaitInQueue(channel, /*receiving=*/true, cancellation, token);
    if (EG(exception) != nullptr || waited.cancelled) break;
    reservation = waited.reserved;
  }
  if (!received && EG(exception) != nullptr && ZEND_ASYNC_REF_TRACING()) {
    TraceChannelFail(channel, "recv");
  }
  ZEND_ASYNC_EVENT_RELEASE(channel->event());
  return received;
}

}  // namespace

// Takes the oldest value into `result` (owned by the caller) and pays the
// freed slot's debts.
void Take(AsyncChannel* channel, zval* result) {
  *result = channel->buffer.PopFront();
  channel->committed = false;
  if (ZEND_ASYNC_REF_TRACING()) TraceChannelReceive(channel, result);
  WakeSender(channel);
}

// ===========================================================================
// Send, receive, close.
// ===========================================================================

bool ChannelSend(zend_async_channel_t* base, zval* value) {
  if (UNEXPECTED(base == nullptr || value == nullptr)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "ZEND_ASYNC channel send: no channel or value");
    return false;
  }
  return Send(AsyncChannel::FromAbi(base), value, nullptr);
}

bool ChannelReceive(zend_async_channel_t* base, zval* result,
                    zend_async_event_t* cancellation) {
  if (UNEXPECTED(base == nullptr)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "ZEND_ASYNC channel receive: no channel");
    return false;
  }
  return Receive(AsyncChannel::FromAbi(base), result, cancellation, nullptr);
}

void ChannelClose(zend_async_channel_t* base) {
  if (base == nullptr) return;
  CloseChannel(AsyncChannel::FromAbi(base), ChannelCloseReason::kExplicit);
}

bool ChannelSendWithToken(AsyncChannel* channel, zval* value,
                          zend_object* token) {
  return Send(channel, value, token);
}

bool ChannelReceiveWithToken(AsyncChannel* channel, zval* result,
                             zend_object* token) {
  return Receive(channel, result, nullptr, token);
}

bool ChannelTrySend(AsyncChannel* channel, zval* value) {
  if (channel->closed() || !channel->HasFreeSlot()) return false;
  Put(channel, value);
  return true;
}

void CloseChannel(AsyncChannel* channel, ChannelCloseReason reason) {
  if (channel->closed()) return;
  channel->close_reason = reason;
  ZEND_ASYNC_EVENT_SET_CLOSED(channel->event());
  if (ZEND_ASYNC_REF_TRACING()) TraceChannelClose(channel);
  DisarmDeadlockTimer(channel);
  // After request shutdown began there is nobody to wake and no exception
  // may be made.
  if (EG(active)) {
    // What was in flight stays in flight; one raised meanwhile goes before
    // it (the parked one its previous).
    mock_zend::ParkedException parked(ZEND_MOCK_PARKED_BECOMES_PREVIOUS);
    zend_object* exception = NewChannelException(reason);
    WakeAll(channel, exception);
    if (channel->event()->callbacks.length > 0) {
      ZEND_ASYNC_CALLBACKS_NOTIFY(channel->event(), nullptr, exception);
    }
    OBJ_RELEASE(exception);
  }
  if (!channel->buffered() && channel->count() > 0 && !channel->committed) {
    // A parked send that never matched a receiver was just failed: its
    // value must not reach a later receive.
    zval value = channel->buffer.PopFront();
    zval_ptr_dtor(&value);
  }
}

// ===========================================================================
// The channel event: its vtable and dispose.
//
// The channel event is an owner event (core/internal/owner_event.h): never
// started or stopped. Its callbacks vector holds the callbacks of parked
// waiters (which the channel invokes itself, in its own order) and of
// anyone awaiting the channel (notified once, at close, with the close
// exception).
// ===========================================================================

namespace {

bool Dispose(zend_async_event_t* event) {
  AsyncChannel* channel = AsyncChannel::FromEvent(event);
  if (ZEND_ASYNC_REF_TRACING()) TraceChannelDispose(channel);
  if (!channel->closed()) {
    event->ref_count = 1;  // close runs with a reference, as any call
    CloseChannel(channel, ChannelCloseReason::kDisposed);
    event->ref_count = 0;
  }
  DisarmDeadlockTimer(channel);
  // Only future waiters can still be queued (a parked call holds a
  // reference), and only when close woke nobody (request shutdown): they
  // must not reach this channel from their dispose.
  while (Waiter* waiter = channel->receivers.back()) {
    if (IsFutureWaiter(waiter)) {
      DetachFutureWaiter(waiter);
    } else {
      channel->receivers.Remove(waiter);
    }
  }
  zend_async_callbacks_free(event);
  while (!channel->buffer.empty()) {
    zval value = channel->buffer.PopFront();
    zval_ptr_dtor(&value);
  }
  channel->~AsyncChannel();
  efree(channel);
  return true;
}

zend_string* Info(zend_async_event_t* event) {
  const AsyncChannel* channel = AsyncChannel::FromEvent(event);
  return zend_strpprintf(
      0,
      "Channel(capacity=%u, count=%u, receivers=%u, senders=%u, "
      "reserved=%u/%u)",
      channel->capacity, channel->count(), channel->receivers.size(),
      channel->senders.size() + (channel->delivering != nullptr ? 1 : 0),
      channel->reserved_receivers, channel->reserved_senders);
}

void InitChannelEvent(AsyncChannel* channel) {
  internal::InitOwnerEvent(channel->event(), Dispose, Info);
}

}  // namespace

}  // namespace zar::core
