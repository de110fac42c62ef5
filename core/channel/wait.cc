// Waiting on a channel: parking a send or a receive (WaitInQueue,
// WaitForDelivery) and waking it (WakeReceiver, WakeSender, WakeAll);
// channel.h, "Between the channel's files".
//
// A waiter lives in the frame of the call that waits; its callback's
// references are counted as core/internal/waiter_queue.h describes (the
// waiting call, the queue or the `delivering` pointer, the channel event's
// callbacks vector). A woken waiter's callback is deleted from the channel
// event before it is invoked, so that close's notification of the event's
// other callbacks never reaches a coroutine already resumed.

#include "core/channel/channel.h"
#include "core/channel/trace.h"
#include "core/internal/owner_event.h"

namespace zar::core {

using internal::CountDownWaiterCallback;
using internal::Waiter;
using internal::WaiterQueue;

namespace {

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

}  // namespace

// A receive (`receiving`) waits in the receivers' queue for a value, or a
// send in the senders' queue for a slot. An unspent reservation (an
// exception arrived) is handed to the next waiter of the queue.
WaitResult WaitInQueue(AsyncChannel* channel, bool receiving,
                       zend_async_event_t* cancellation, zend_object* token) {
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
void WaitForDelivery(AsyncChannel* channel, zend_object* token) {
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
    if (ServeFutureWaiter(channel, waiter)) {
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
      RejectFutureWaiter(waiter, exception);
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

}  // namespace zar::core
