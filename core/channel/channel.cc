// The channel: create, send, receive, wait, close, the event (channel.h).

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

void OnDeadlockTimer(zend_async_event_t* /*timer*/,
                     zend_async_event_callback_t* callback, void* /*result*/,
                     zend_object* /*exception*/) {
  AsyncChannel* channel = internal::EmbeddedTimer::OwnerOf<AsyncChannel>(
      callback, offsetof(AsyncChannel, deadlock));
  if (channel->closed()) return;
  // Close may let go of the channel's last reference (a waiter's waker).
  ZEND_ASYNC_EVENT_ADD_REF(channel->event());
  CloseChannel(channel, channel->pending_reason);
  ZEND_ASYNC_EVENT_RELEASE(channel->event());
}

void DisarmDeadlockTimer(AsyncChannel* channel) { channel->deadlock.Stop(); }

void ArmDeadlockTimer(AsyncChannel* channel, ChannelCloseReason reason,
                      uint32_t timeout_ms) {
  if (timeout_ms == 0 || channel->deadlock.running() || channel->closed()) {
    return;
  }
  // $hardTimeouts: the timer keeps the loop alive; otherwise it is HIDDEN.
  if (channel->deadlock.Start(timeout_ms, /*periodic=*/false,
                              /*hidden=*/!channel->hard_timeouts,
                              OnDeadlockTimer)) {
    channel->pending_reason = reason;
  }
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
  if (channel->deadlock.running()) {
    if (channel->pending_reason == reason) return;
    DisarmDeadlockTimer(channel);
  }
  ArmDeadlockTimer(channel, reason,
                   starving_receiver ? channel->no_producer_timeout_ms
                                     : channel->no_consumer_timeout_ms);
}

// ===========================================================================
// Wait: parking a send or a receive (WaitInQueue, WaitForDelivery) and waking
// it (WakeReceiver, WakeSender, WakeAll).
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

// What ended a wait in a queue.
struct WaitResult {
  // Woken with a reservation it still holds (a value or a slot kept for
  // it); the caller must spend it before it suspends again.
  bool reserved = false;
  // Woken by the C cancellation event (no exception).
  bool cancelled = false;
};

// Sets up `waiter` for the current coroutine, launching the scheduler
// outside one (false, an exception thrown, when that fails).
[[gnu::always_inline]] inline bool InitChannelWaiter(AsyncChannel* channel,
                                                     Waiter* waiter) {
  if (ZEND_ASYNC_CURRENT_COROUTINE == nullptr &&
      internal::EnterCoroutine("Cannot wait on a channel outside a coroutine",
                               /*refuse_while_off=*/false) !=
          internal::Entered::kYes) {
    return false;
  }
  internal::InitWaiter(waiter, ZEND_ASYNC_CURRENT_COROUTINE, channel->event());
  return true;
}

// Parks the coroutine of `waiter` (which the channel holds already) until
// it is woken (with a reservation, or by close with an exception), its
// cancellation fires or it is cancelled. `cancellation` (C: ends the wait
// with no exception) and `token` (PHP: ends it with
// OperationCanceledException) may be NULL. EG(exception) tells how it
// ended.
[[gnu::always_inline]] inline void Park(AsyncChannel* channel, Waiter* waiter,
                                        zend_async_event_t* cancellation,
                                        zend_object* token) {
  RefreshDeadlockTimer(channel);
  zend_async_ref_park_t park = {};
  park.events[1] = {cancellation, OnCancellation, nullptr, false};
  if (token != nullptr) {
    park.events[2] = {ZEND_ASYNC_OBJECT_TO_EVENT(token),
                      zend_async_waker_callback_cancel, nullptr, false};
  }
  internal::ParkWaiter(waiter, &park);
}

// A receive (`receiving`) waits in the receivers' queue for a value, or a
// send in the senders' queue for a slot. An unspent reservation (an
// exception arrived) is handed to the next waiter of the queue.
[[gnu::noinline]] WaitResult WaitInQueue(AsyncChannel* channel, bool receiving,
                                         zend_async_event_t* cancellation,
                                         zend_object* token) {
  WaitResult outcome;
  Waiter waiter;
  if (!InitChannelWaiter(channel, &waiter)) return outcome;
  WaiterQueue* queue = receiving ? &channel->receivers : &channel->senders;
  queue->PushBack(&waiter);
  Park(channel, &waiter, cancellation, token);

  const bool reserved = waiter.reserved;
  internal::LeaveQueue(queue, &waiter);
  ZEND_ASSERT(waiter.callback.base.ref_count == 1);
  const bool failed = EG(exception) != nullptr;
  if (reserved) {
    (receiving ? channel->reserved_receivers : channel->reserved_senders)--;
    if (failed && !channel->closed()) {
      if (ZEND_ASYNC_REF_TRACING()) TraceChannelHandOn(channel);
      if (receiving) {
        WakeReceiver(channel);
      } else {
        WakeSender(channel);
      }
    }
  }
  RefreshDeadlockTimer(channel);
  outcome.reserved = reserved && !failed;
  outcome.cancelled = receiving && !failed && !reserved &&
                      cancellation != nullptr && !channel->closed();
  return outcome;
}

// A rendezvous send whose value sits in the slot waits, as the
// `delivering` sender, until a receiver took it. A sender that leaves
// before (an exception arrived) takes the value back unless a receiver was
// promised it, and either way frees the slot for the next sender.
[[gnu::noinline]] void WaitForDelivery(AsyncChannel* channel,
                                       zend_object* token) {
  Waiter waiter;
  if (!InitChannelWaiter(channel, &waiter)) return;
  waiter.reserved = false;
  waiter.queued = false;
  channel->delivering = &waiter;
  Park(channel, &waiter, nullptr, token);

  const bool undelivered = channel->delivering == &waiter;
  if (undelivered) {
    channel->delivering = nullptr;
    CountDownWaiterCallback(&waiter.callback.base);
  }
  ZEND_ASSERT(waiter.callback.base.ref_count == 1);
  if (undelivered && EG(exception) != nullptr && !channel->committed &&
      channel->count() > 0) {
    // Nobody took the value and send() is about to fail: the value must
    // not reach a receiver its sender was told it never reached.
    zval value = channel->buffer.PopFront();
    zval_ptr_dtor(&value);
  }
  if (undelivered && !channel->closed()) WakeSender(channel);
  RefreshDeadlockTimer(channel);
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
  internal::InitOwnerEvent(channel->event(), Dispose, Info);
}

}  // namespace

}  // namespace zar::core
