// The channel: create, send, receive, wait, close, the event (channel.h).

#include "core/channel/channel.h"

#include <new>

#include "core/channel/classes.h"
#include "core/channel/trace.h"

extern "C" {
#include "Zend/zend_exceptions.h"
}

namespace zar::core {

using internal::CountDownWaiterCallback;
using internal::DisposeWaiterCallback;
using internal::Waiter;
using internal::WaiterQueue;

namespace {

uint32_t last_channel_id = 0;

void InitChannelEvent(AsyncChannel* channel);

const char* MessageOf(ChannelCloseReason reason) {
  switch (reason) {
    case ChannelCloseReason::kExplicit:
      return "Channel is closed";
    case ChannelCloseReason::kDisposed:
      return "Channel disposed";
    case ChannelCloseReason::kNoProducers:
      return "Channel deadlock: no producers";
    case ChannelCloseReason::kNoConsumers:
      return "Channel deadlock: no consumers";
    case ChannelCloseReason::kDeadlock:
      return "Channel deadlock";
    case ChannelCloseReason::kScopeDisposed:
      return "Channel closed: owner scope disposed";
  }
  return "Channel is closed";
}

// The ChannelException of `reason`, owned by the caller.
zend_object* NewChannelException(ChannelCloseReason reason) {
  ThrowChannelException(reason);
  zend_object* exception = EG(exception);
  EG(exception) = nullptr;
  return exception;
}

}  // namespace

void ThrowChannelException(ChannelCloseReason reason) {
  zend_class_entry* ce = ChannelExceptionClass();
  zend_object* exception = zend_throw_exception(
      ce != nullptr ? ce : zend_ce_exception, MessageOf(reason), 0);
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
// Deadlock timer: one timer per channel while someone waits without a
// reservation (upstream's channel_refresh_deadlock_timer). A waiter
// holding a reservation is not starving and does not count.
// ===========================================================================

namespace {

AsyncChannel* ChannelOfDeadlockCallback(zend_async_event_callback_t* callback) {
  return reinterpret_cast<AsyncChannel*>(
      reinterpret_cast<char*>(callback) -
      offsetof(AsyncChannel, deadlock_callback));
}

void OnDeadlockTimer(zend_async_event_t* /*timer*/,
                     zend_async_event_callback_t* callback, void* /*result*/,
                     zend_object* /*exception*/) {
  AsyncChannel* channel = ChannelOfDeadlockCallback(callback);
  if (channel->closed()) return;
  // Close may let go of the channel's last reference (a waiter's waker).
  ZEND_ASYNC_EVENT_ADD_REF(channel->event());
  CloseChannel(channel, channel->pending_reason);
  ZEND_ASYNC_EVENT_RELEASE(channel->event());
}

void DisposeDeadlockCallback(zend_async_event_callback_t*,
                             zend_async_event_t*) {}

void DisarmDeadlockTimer(AsyncChannel* channel) {
  zend_async_timer_event_t* timer = channel->deadlock_timer;
  if (timer == nullptr) return;
  channel->deadlock_timer = nullptr;
  timer->base.stop(&timer->base);
  timer->base.del_callback(&timer->base, &channel->deadlock_callback);
  ZEND_ASYNC_EVENT_RELEASE(&timer->base);
}

void ArmDeadlockTimer(AsyncChannel* channel, ChannelCloseReason reason,
                      uint32_t timeout_ms) {
  if (timeout_ms == 0 || channel->deadlock_timer != nullptr ||
      channel->closed()) {
    return;
  }
  zend_async_timer_event_t* timer =
      ZEND_ASYNC_NEW_TIMER_EVENT(static_cast<zend_ulong>(timeout_ms), false);
  if (timer == nullptr) return;
  if (!channel->hard_timeouts) ZEND_ASYNC_EVENT_SET_HIDDEN(&timer->base);
  channel->deadlock_callback.ref_count = 0;
  channel->deadlock_callback.callback = OnDeadlockTimer;
  channel->deadlock_callback.dispose = DisposeDeadlockCallback;
  timer->base.add_callback(&timer->base, &channel->deadlock_callback);
  if (!timer->base.start(&timer->base)) {
    timer->base.del_callback(&timer->base, &channel->deadlock_callback);
    ZEND_ASYNC_EVENT_RELEASE(&timer->base);
    return;
  }
  channel->deadlock_timer = timer;
  channel->pending_reason = reason;
}

}  // namespace

void RefreshDeadlockTimer(AsyncChannel* channel) {
  if (channel->no_producer_timeout_ms == 0 &&
      channel->no_consumer_timeout_ms == 0) {
    return;
  }
  const bool starving_receiver =
      channel->receivers.size() > channel->reserved_receivers;
  const bool starving_sender =
      channel->senders.size() > channel->reserved_senders ||
      channel->delivering != nullptr;
  if (channel->closed() || (!starving_receiver && !starving_sender)) {
    DisarmDeadlockTimer(channel);
    return;
  }
  const ChannelCloseReason reason = starving_receiver
                                        ? ChannelCloseReason::kNoProducers
                                        : ChannelCloseReason::kNoConsumers;
  if (channel->deadlock_timer != nullptr) {
    if (channel->pending_reason == reason) return;
    DisarmDeadlockTimer(channel);
  }
  ArmDeadlockTimer(channel, reason,
                   starving_receiver ? channel->no_producer_timeout_ms
                                     : channel->no_consumer_timeout_ms);
}

// ===========================================================================
// Wait: parking a send or a receive (WaitOnChannel) and waking it
// (WakeReceiver, WakeSender, WakeAll).
//
// A waiter lives in the frame of the call that waits; its callback's
// references are counted as core/internal/waiter_queue.h describes (the
// waiting call, the queue or the `delivering` pointer, the channel event's
// callbacks vector). A woken waiter's callback is deleted from the channel
// event before it is invoked, so that close's notification of the event's
// other callbacks never reaches a coroutine already resumed.
// ===========================================================================

namespace {

bool WakeReceiver(AsyncChannel* channel);
void WakeSender(AsyncChannel* channel);

// ---- recvAsync()'s future waiters ----------------------------------------
//
// recvAsync() on a channel with no free value queues a FutureWaiter among
// the receivers (the same FIFO as parked recv()s). It lives in the extra
// bytes of the future it will settle (ZEND_ASYNC_NEW_FUTURE_EX's
// extra_size, right after the zend_future_t), so it is freed with the
// future and parking allocates nothing. Its Waiter has no coroutine (that
// is how the queue's users tell it apart), is never registered on the
// channel event and never holds a reservation: the channel serves it the
// moment a value is free for it (WakeReceiver), or rejects it at close
// (WakeAll), and in both cases takes it off the queue first.
//
// The queue does not own the future: the future's dispose is replaced by
// DisposeRecvFuture, which takes a still-queued waiter off the queue before
// the future's own dispose frees it (a future dropped while pending). The
// channel never outlives a queued waiter unnoticed: close rejects every
// future waiter, and Dispose detaches any left (a close after request
// shutdown began wakes nobody).
struct FutureWaiter {
  internal::Waiter waiter;  // first: a queued Waiter* is this FutureWaiter*
  zend_future_t* future;
  // The channel whose receivers queue holds `waiter`; nullptr once it left.
  AsyncChannel* channel;
  // The future's own dispose, called after the queue is left.
  zend_async_event_dispose_t prev_dispose;
};

static_assert(std::is_standard_layout_v<FutureWaiter>);
static_assert(offsetof(FutureWaiter, waiter) == 0);
static_assert(sizeof(zend_future_t) % alignof(FutureWaiter) == 0,
              "the extra bytes after zend_future_t must fit a FutureWaiter");

bool IsFutureWaiter(const Waiter* waiter) {
  return waiter->callback.coroutine == nullptr;
}

FutureWaiter* FutureWaiterOf(zend_future_t* future) {
  return reinterpret_cast<FutureWaiter*>(reinterpret_cast<char*>(future) +
                                         sizeof(zend_future_t));
}

// Takes a future waiter off its channel's queue (nothing if it left).
void DetachFutureWaiter(FutureWaiter* waiter) {
  AsyncChannel* channel = waiter->channel;
  if (channel == nullptr) return;
  waiter->channel = nullptr;
  channel->receivers.Remove(&waiter->waiter);
}

// The dispose installed on recvAsync()'s futures: a future freed while
// still queued (dropped, or the loser of an await-any) leaves the queue
// first, so the channel never settles freed memory.
bool DisposeRecvFuture(zend_async_event_t* event) {
  zend_future_t* future = reinterpret_cast<zend_future_t*>(event);
  FutureWaiter* waiter = FutureWaiterOf(future);
  AsyncChannel* channel = waiter->channel;
  DetachFutureWaiter(waiter);
  if (channel != nullptr) RefreshDeadlockTimer(channel);
  return waiter->prev_dispose != nullptr ? waiter->prev_dispose(event) : true;
}

// Serves the future waiter at the front of the unreserved receivers with
// the oldest value. REQUIRES: channel->HasFreeValue(). A future settled
// meanwhile (Future::cancel()) only leaves the queue; false then, and the
// value stays for the next receiver.
bool ServeFutureWaiter(AsyncChannel* channel, FutureWaiter* waiter) {
  DetachFutureWaiter(waiter);
  zend_future_t* future = waiter->future;
  if (ZEND_ASYNC_EVENT_IS_CLOSED(&future->event)) return false;
  zval value = channel->buffer.PopFront();
  channel->committed = false;
  if (ZEND_ASYNC_REF_TRACING()) TraceChannelReceive(channel, &value);
  ZEND_FUTURE_COMPLETE(future, &value);
  zval_ptr_dtor(&value);
  WakeSender(channel);
  RefreshDeadlockTimer(channel);
  return true;
}

// Resumes the coroutine whose `waiter` was chosen, with `exception`
// (borrowed) or none.
void Resume(AsyncChannel* channel, Waiter* waiter, zend_object* exception) {
  zend_async_event_t* event = channel->event();
  event->del_callback(event, &waiter->callback.base);
  waiter->callback.base.callback(event, &waiter->callback.base, nullptr,
                                 exception);
}

// The cancellation of a C receive fired: resumes the coroutine without an
// exception (the receive then returns false, as the ABI says).
void OnCancellation(zend_async_event_t* /*event*/,
                    zend_async_event_callback_t* callback, void* /*result*/,
                    zend_object* /*exception*/) {
  zend_coroutine_t* coroutine =
      reinterpret_cast<zend_coroutine_event_callback_t*>(callback)->coroutine;
  ZEND_ASYNC_RESUME_WITH_ERROR(coroutine, nullptr, false);
}

// Outside a coroutine: launches the scheduler so that the caller becomes
// the main coroutine. False (an exception thrown) when it cannot.
bool EnterCoroutine() {
  if (ZEND_ASYNC_CURRENT_COROUTINE != nullptr) return true;
  ZEND_ASYNC_SCHEDULER_LAUNCH();
  if (EG(exception) != nullptr) return false;
  if (ZEND_ASYNC_CURRENT_COROUTINE == nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Cannot wait on a channel outside a coroutine");
    return false;
  }
  return true;
}

enum class WaitFor { kValue, kSlot, kDelivery };

// What ended a wait.
struct WaitResult {
  // Woken with a reservation it still holds (a value or a slot kept for
  // it); the caller must spend it before it suspends again.
  bool reserved = false;
  // Woken by the C cancellation event (no exception).
  bool cancelled = false;
};

// Parks the current coroutine until it is woken (with a reservation, or by
// close with an exception), its cancellation fires or it is cancelled.
// `cancellation` (C: ends the wait with no exception) and `token` (PHP:
// ends it with OperationCanceledException) may be NULL. An unspent
// reservation (an exception arrived) is handed to the next waiter; so is
// the slot of a delivering sender whose value nobody took.
WaitResult WaitOnChannel(AsyncChannel* channel, WaitFor what,
                         zend_async_event_t* cancellation, zend_object* token) {
  WaitResult outcome;
  if (!EnterCoroutine()) return outcome;
  zend_coroutine_t* coroutine = ZEND_ASYNC_CURRENT_COROUTINE;
  if (ZEND_ASYNC_WAKER_NEW(coroutine) == nullptr) {
    // The caller stops on an exception; make sure there is one.
    if (EG(exception) == nullptr) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Cannot wait on a channel: no waker");
    }
    return outcome;
  }

  Waiter waiter = {};
  waiter.callback.base.ref_count = 1;  // this function's
  waiter.callback.base.callback = zend_async_waker_callback_resolve;
  waiter.callback.base.dispose = DisposeWaiterCallback;
  waiter.callback.coroutine = coroutine;
  waiter.callback.event = channel->event();
  waiter.event_slot = Waiter::kNoSlot;
  WaiterQueue* queue = what == WaitFor::kValue  ? &channel->receivers
                       : what == WaitFor::kSlot ? &channel->senders
                                                : nullptr;
  if (queue != nullptr) {
    queue->PushBack(&waiter);
  } else {
    channel->delivering = &waiter;
  }
  waiter.callback.base.ref_count++;  // the queue's (or delivering's)
  RefreshDeadlockTimer(channel);

  bool armed = zend_async_resume_when(coroutine, channel->event(), false,
                                      zend_async_waker_callback_resolve,
                                      &waiter.callback);
  if (armed && cancellation != nullptr) {
    armed = zend_async_resume_when(coroutine, cancellation, false,
                                   OnCancellation, nullptr);
  }
  if (armed && token != nullptr) {
    armed = zend_async_resume_when(coroutine, ZEND_ASYNC_OBJECT_TO_EVENT(token),
                                   false, zend_async_waker_callback_cancel,
                                   nullptr);
  }
  if (armed) ZEND_ASYNC_SUSPEND();
  // Let go of the events now (the channel event's callback and reference,
  // the cancellation's): the waiter's frame ends below.
  if (coroutine->waker != nullptr) zend_async_waker_clean(coroutine);

  const bool reserved = waiter.reserved;
  bool was_queued;
  if (queue != nullptr) {
    was_queued = queue->Remove(&waiter);
  } else {
    was_queued = channel->delivering == &waiter;
    if (was_queued) channel->delivering = nullptr;
  }
  if (was_queued) CountDownWaiterCallback(&waiter.callback.base);
  ZEND_ASSERT(waiter.callback.base.ref_count == 1);

  const bool failed = EG(exception) != nullptr;
  if (what == WaitFor::kDelivery && was_queued && failed &&
      !channel->committed && channel->count() > 0) {
    // Nobody took the value and send() is about to fail: the value must
    // not reach a receiver its sender was told it never reached.
    zval value = channel->buffer.PopFront();
    zval_ptr_dtor(&value);
  }
  if (reserved) {
    if (what == WaitFor::kValue) {
      channel->reserved_receivers--;
    } else {
      channel->reserved_senders--;
    }
  }
  const bool spent = reserved && !failed;
  if (!channel->closed()) {
    if (what == WaitFor::kDelivery && was_queued) {
      // The slot its value held is free again (or the value was taken by
      // nobody and the sender leaves): the next sender may use it.
      WakeSender(channel);
    } else if (reserved && !spent) {
      if (ZEND_ASYNC_REF_TRACING()) TraceChannelHandOn(channel);
      if (what == WaitFor::kValue) {
        WakeReceiver(channel);
      } else {
        WakeSender(channel);
      }
    }
  }
  RefreshDeadlockTimer(channel);
  outcome.reserved = spent;
  outcome.cancelled = !failed && !reserved && what == WaitFor::kValue &&
                      cancellation != nullptr && !channel->closed();
  return outcome;
}

// Gives one unpromised value to the oldest receiver without a
// reservation; false when there is no such value or receiver.
// A future waiter is served at once instead (it has no later run to
// reserve the value for) and reserves nothing.
bool WakeReceiver(AsyncChannel* channel) {
  Waiter* waiter = nullptr;
  for (;;) {
    if (!channel->HasFreeValue()) return false;
    waiter = channel->receivers.FirstUnreserved();
    if (waiter == nullptr) return false;
    if (!IsFutureWaiter(waiter)) break;
    if (ServeFutureWaiter(channel, reinterpret_cast<FutureWaiter*>(waiter))) {
      return true;
    }
  }
  channel->receivers.ReserveOldestUnreserved();
  channel->reserved_receivers++;
  if (ZEND_ASYNC_REF_TRACING()) TraceChannelReserve(channel, waiter, "value");
  Resume(channel, waiter, nullptr);
  RefreshDeadlockTimer(channel);
  return true;
}

// Pays both debts a freed slot creates: the rendezvous sender whose value
// was taken hears so (and leaves), and the oldest sender waiting for a
// slot is given the free one (reserved).
void WakeSender(AsyncChannel* channel) {
  Waiter* delivered = channel->delivering;
  if (delivered != nullptr && channel->count() == 0) {
    channel->delivering = nullptr;
    CountDownWaiterCallback(&delivered->callback.base);
    if (ZEND_ASYNC_REF_TRACING()) TraceChannelDelivered(channel, delivered);
    Resume(channel, delivered, nullptr);
    RefreshDeadlockTimer(channel);
  }
  if (!channel->HasFreeSlot()) return;
  Waiter* waiter = channel->senders.ReserveOldestUnreserved();
  if (waiter == nullptr) return;
  channel->reserved_senders++;
  if (ZEND_ASYNC_REF_TRACING()) TraceChannelReserve(channel, waiter, "slot");
  Resume(channel, waiter, nullptr);
  RefreshDeadlockTimer(channel);
}

// Fails every parked sender (the delivering one included) and every
// unreserved receiver with `exception` (borrowed), newest first. Reserved
// receivers keep their place: their value is still here and receive takes
// it before it looks at the closed flag. Future waiters are rejected with
// `exception`.
void WakeAll(AsyncChannel* channel, zend_object* exception) {
  while (Waiter* waiter = channel->receivers.back()) {
    if (waiter->reserved) break;  // reserved waiters are a prefix
    if (IsFutureWaiter(waiter)) {
      auto* future_waiter = reinterpret_cast<FutureWaiter*>(waiter);
      DetachFutureWaiter(future_waiter);
      ZEND_FUTURE_REJECT(future_waiter->future, exception);
      continue;
    }
    channel->receivers.Remove(waiter);
    if (ZEND_ASYNC_REF_TRACING()) TraceChannelWake(channel, waiter, exception);
    Resume(channel, waiter, exception);
    CountDownWaiterCallback(&waiter->callback.base);
  }
  if (Waiter* delivered = channel->delivering) {
    channel->delivering = nullptr;
    if (ZEND_ASYNC_REF_TRACING()) {
      TraceChannelWake(channel, delivered, exception);
    }
    Resume(channel, delivered, exception);
    CountDownWaiterCallback(&delivered->callback.base);
  }
  while (Waiter* waiter = channel->senders.PopBack()) {
    if (ZEND_ASYNC_REF_TRACING()) TraceChannelWake(channel, waiter, exception);
    Resume(channel, waiter, exception);
    CountDownWaiterCallback(&waiter->callback.base);
  }
}

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

// Takes the oldest value into `result` (owned by the caller) and pays the
// freed slot's debts.
void Take(AsyncChannel* channel, zval* result) {
  *result = channel->buffer.PopFront();
  channel->committed = false;
  if (ZEND_ASYNC_REF_TRACING()) TraceChannelReceive(channel, result);
  WakeSender(channel);
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
      WaitOnChannel(channel, WaitFor::kDelivery, nullptr, token);
      sent = EG(exception) == nullptr;
      break;
    }
    if (ZEND_ASYNC_REF_TRACING()) TraceChannelSend(channel, value, "wait");
    reservation =
        WaitOnChannel(channel, WaitFor::kSlot, nullptr, token).reserved;
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
        WaitOnChannel(channel, WaitFor::kValue, cancellation, token);
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

zend_future_t* ChannelReceiveAsync(AsyncChannel* channel) {
  zend_future_t* future = ZEND_ASYNC_NEW_FUTURE_EX(false, sizeof(FutureWaiter));
  if (future == nullptr) {
    if (EG(exception) == nullptr) {
      zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                       "Async\\Channel::recvAsync(): no future");
    }
    return nullptr;
  }
  FutureWaiter* waiter = FutureWaiterOf(future);
  waiter->future = future;
  waiter->channel = nullptr;
  waiter->prev_dispose = future->event.dispose;
  future->event.dispose = DisposeRecvFuture;

  if (channel->HasFreeValue()) {
    // A value kept for a woken receiver is not free for the future.
    zval value;
    Take(channel, &value);
    ZEND_FUTURE_COMPLETE(future, &value);
    zval_ptr_dtor(&value);
  } else if (channel->closed()) {
    zend_object* exception = NewChannelException(channel->close_reason);
    ZEND_FUTURE_REJECT(future, exception);
    OBJ_RELEASE(exception);
  } else {
    // Queued as the newest receiver; served in turn by WakeReceiver.
    waiter->waiter.callback.base.ref_count = 1;   // never counted down
    waiter->waiter.callback.coroutine = nullptr;  // marks a future waiter
    waiter->waiter.callback.event = channel->event();
    waiter->waiter.event_slot = Waiter::kNoSlot;
    channel->receivers.PushBack(&waiter->waiter);
    waiter->channel = channel;
    if (ZEND_ASYNC_REF_TRACING()) TraceChannelReceive(channel, nullptr);
    RefreshDeadlockTimer(channel);
  }
  return future;
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
    // What was in flight stays in flight.
    zend_object* in_flight = EG(exception);
    EG(exception) = nullptr;
    zend_object* exception = NewChannelException(reason);
    WakeAll(channel, exception);
    if (channel->event()->callbacks.length > 0) {
      ZEND_ASYNC_CALLBACKS_NOTIFY(channel->event(), nullptr, exception);
    }
    OBJ_RELEASE(exception);
    if (in_flight != nullptr) {
      if (EG(exception) != nullptr) {
        zend_exception_set_previous(EG(exception), in_flight);
      } else {
        EG(exception) = in_flight;
      }
    }
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
// The event is never started or stopped. Its callbacks vector holds the
// callbacks of parked waiters (which the channel invokes itself, in its own
// order) and of anyone awaiting the channel (notified once, at close, with
// the close exception).
// ===========================================================================

namespace {

bool Start(zend_async_event_t*) { return true; }
bool Stop(zend_async_event_t*) { return true; }

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
      DetachFutureWaiter(reinterpret_cast<FutureWaiter*>(waiter));
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
  zend_async_event_t* event = channel->event();
  memset(event, 0, sizeof(*event));
  event->ref_count = 1;
  event->add_callback = internal::AddWaiterCallback;
  event->del_callback = internal::DelWaiterCallback;
  event->start = Start;
  event->stop = Stop;
  event->dispose = Dispose;
  event->info = Info;
}

}  // namespace

}  // namespace zar::core
