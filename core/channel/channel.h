// zend-async-ref core/channel: the channel (Async\Channel), the ABI's
// zend_async_channel_t, made by new_channel_fn. This header is the
// subsystem's map; docs/channels.md is its full description.
//
// Files (all in core/channel/, the OBJECT library zar_core_channel that
// zar_core carries); after "=" the upstream concepts each holds (php-async's
// channel.c and channel.h):
//
//   channel.h/.cc    AsyncChannel = async_channel_t's channel part:
//     create           NewChannel (upstream's C new_channel is a stub
//                      returning NULL; ours is a working Async\Channel)
//     send             ChannelSend, ChannelTrySend = METHOD(send),
//                      METHOD(sendAsync)
//     receive          ChannelReceive = METHOD(recv)
//     close            CloseChannel = channel_close
//     the event        its vtable, dispose
//   wait.cc          WaitInQueue, WaitForDelivery, WakeReceiver,
//                    WakeSender, WakeAll
//                    = channel_wait_for, channel_wake_receiver,
//                      channel_wake_sender, channel_wake_all
//   deadlock.cc      the deadlock timer (RefreshDeadlockTimer)
//                    = channel_refresh_deadlock_timer and its callback
//   recv_future.cc   ChannelReceiveAsync, the future waiters
//                    = METHOD(recvAsync), channel_recv_future_dispose
//   object.h/.cc     the Async\Channel object = its handlers and methods
//   classes.h/.cc    the channel's PHP classes = async_register_channel_ce
//   trace.h/.cc      the "channel ..." trace lines (ours: docs/tracing.md)
//
// The waiters are core/internal/waiter_queue.h, the pool's queue: one
// FIFO-with-reservation mechanism for both, and the pool's waiter glue
// (core/internal/owner_event.h), deadlock timer mechanism
// (core/internal/embedded_timer.h) and wrapper object
// (core/internal/php_object.h).
//
// A channel passes values (zvals) from senders to receivers in FIFO order.
// capacity 0 is a rendezvous: a send parks until a receiver took its value.
// capacity > 0 is a bounded buffer: a send parks only while it is full.
//
// Reservations. When a value arrives while receivers wait, the oldest
// receiver without a reservation is woken *with a reservation*: the value
// is kept for it (reserved_receivers) until it runs. Likewise a freed slot
// is kept for the oldest parked sender (reserved_senders). Everyone else
// (sendAsync, a newcomer, the coroutine that made the value or freed the
// slot) may only use what is not reserved. So senders and receivers are
// served strictly in arrival order. A woken waiter that leaves without
// using its reservation (cancelled) hands it to the next waiter.
//
// Rendezvous. The one value of a capacity-0 channel sits in its one slot.
// A send that finds no receiver parks as the "delivering" sender (outside
// the senders queue: it waits for an answer, not a slot) until a receiver
// takes the value. `committed` records that a receiver was matched: close
// rolls back an uncommitted value (its sender is told it failed) and keeps
// a committed one for the receiver it was promised to.
//
// Close wakes every parked sender and every unreserved receiver with
// Async\ChannelException ("Channel is closed", reason EXPLICIT; "Channel
// disposed", reason DISPOSED when the channel goes with its last owner);
// reserved receivers keep their value. Values already buffered can still be
// received after close; then receive fails the same way.
//
// Lifetime: a plain (not ZEND_OBJ) event created with ref_count 1, owned by
// its creator (an Async\Channel object or a C user). Each wrapper object
// and each parked waiter's waker holds one more reference (a recvAsync()
// future queued as a receiver holds none: close rejects it, dispose
// detaches it). The last
// ZEND_ASYNC_EVENT_RELEASE disposes it: closes it (DISPOSED) if open, then
// frees the buffered values and the memory.
//
// Threading: the request's thread. thread_safe channels are refused.

#ifndef ZAR_CORE_CHANNEL_CHANNEL_H_
#define ZAR_CORE_CHANNEL_CHANNEL_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/internal/embedded_timer.h"
#include "core/internal/owner_event.h"
#include "core/internal/ring_buffer.h"
#include "core/internal/waiter_queue.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core {

// Why a channel closed; mirrors Async\ChannelCloseReason (upstream's
// channel_close_reason_t). DEADLOCK and SCOPE_DISPOSED never happen here:
// the global deadlock resolver and the owner-scope binding are not
// implemented (docs/channels.md).
enum class ChannelCloseReason : uint8_t {
  kExplicit,
  kDisposed,
  kNoProducers,
  kNoConsumers,
  kDeadlock,
  kScopeDisposed,
};

// What a ChannelCloseReason is called and says: its Async\ChannelCloseReason
// case (name, value) and the message of its Async\ChannelException.
struct ChannelCloseReasonText {
  const char* name;     // "NO_PRODUCERS"
  const char* value;    // "no producers timeout" (also its trace word)
  const char* message;  // "Channel deadlock: no producers"
};
// The text of `reason` (classes.cc holds the one table).
const ChannelCloseReasonText& TextOf(ChannelCloseReason reason);

struct AsyncChannel
    : internal::OwnerEventOf<AsyncChannel, zend_async_channel_t> {
  zend_async_channel_t base;  // ABI structure (must be first)
  // 0: rendezvous; otherwise the most values the buffer holds.
  uint32_t capacity = 0;
  // Values sent and not yet received, oldest first; each owns one
  // reference. size() <= max(capacity, 1) (the rendezvous slot is one).
  internal::RingBuffer<zval> buffer;
  // Parked receive()s and send()s (a rendezvous sender parked on its own
  // value is `delivering` instead). FIFO; reserved ones form a prefix.
  internal::WaiterQueue receivers;
  internal::WaiterQueue senders;
  // The rendezvous sender whose value is in the slot, waiting to hear it
  // was taken; nullptr otherwise. Never in `senders`, never reserved.
  internal::Waiter* delivering = nullptr;
  // Values / free slots kept for woken waiters that have not run yet:
  // reserved_receivers <= buffer.size(), reserved_senders <= free slots.
  uint32_t reserved_receivers = 0;
  uint32_t reserved_senders = 0;
  // Rendezvous only: a receiver was matched to the value in the slot.
  bool committed = false;
  ChannelCloseReason close_reason = ChannelCloseReason::kExplicit;
  // Names the channel in traces ("Channel#<id>"), 1, 2, ... per request.
  uint32_t id = 0;

  // Deadlock timeouts (Async\Channel's $noProducerTimeout and
  // $noConsumerTimeout, ms; 0 = off). While a receiver without a
  // reservation waits (no producer) or a sender does (no consumer), one
  // timer runs; when it fires the channel closes with NO_PRODUCERS or
  // NO_CONSUMERS. Any change of who waits re-arms or stops it, so it
  // measures how long the waiting has gone on without progress.
  uint32_t no_producer_timeout_ms = 0;
  uint32_t no_consumer_timeout_ms = 0;
  // $hardTimeouts: the timer keeps the loop alive; otherwise it is HIDDEN.
  bool hard_timeouts = false;
  // The running timer (none once closed) and which side it guards.
  internal::EmbeddedTimer deadlock;
  ChannelCloseReason pending_reason = ChannelCloseReason::kNoProducers;

  bool buffered() const { return capacity > 0; }
  // The slots of the buffer: capacity, or the one rendezvous slot.
  uint32_t slots() const { return capacity > 0 ? capacity : 1; }
  uint32_t count() const { return buffer.size(); }
  uint32_t free_space() const { return slots() - buffer.size(); }
  // A value no woken receiver has been promised.
  bool HasFreeValue() const { return count() > reserved_receivers; }
  // A slot no woken sender has been promised.
  bool HasFreeSlot() const { return free_space() > reserved_senders; }
};

static_assert(std::is_standard_layout_v<AsyncChannel>);
static_assert(offsetof(AsyncChannel, base) == 0);
static_assert(offsetof(zend_async_channel_t, event) == 0);

// The largest capacity (upstream's INT32_MAX).
inline constexpr zend_long kMaxChannelCapacity = INT32_MAX;

// ---- ABI entry points (registered by core/scheduler/registration.cc) -----

// new_channel_fn (ZEND_ASYNC_NEW_CHANNEL). A channel with Async\Channel's
// semantics and capacity `buffer_size` (0: rendezvous). `extra_size` zeroed
// bytes for the caller follow the channel, at event.extra_offset.
// `resizable` is accepted and has no effect (the buffer is bounded at
// buffer_size; no upstream channel honours it). Refused, NULL with an
// exception thrown (upstream's new_channel_fn is a stub that returns NULL):
//   thread_safe: Async\AsyncException "Thread-safe channels are not supported
//   by
//     zend-async-ref: no other thread runs PHP code to share them with"
//   buffer_size > INT32_MAX: ValueError "ZEND_ASYNC_NEW_CHANNEL(): Argument
//     #1 ($buffer_size) must be between 0 and 2147483647"
// The caller owns the returned reference.
zend_async_channel_t* NewChannel(size_t buffer_size, bool resizable,
                                 bool thread_safe, size_t extra_size);

// send: puts `value` (borrowed; a reference is taken) into the channel,
// parking the current coroutine while there is no free slot (FIFO among
// senders) and, for a rendezvous, until a receiver took the value. True
// when sent; false with an exception pending: Async\ChannelException (the
// channel is or becomes closed), a cancellation of the waiting coroutine.
// Outside a coroutine the scheduler is launched first.
bool ChannelSend(zend_async_channel_t* channel, zval* value);

// receive: takes the oldest value into `result` (owned by the caller),
// parking while none is free (FIFO among receivers). `result` NULL: waits
// until a value is there without taking it (the reservation, if the wait
// got one, is handed on). `cancellation` (may be NULL): an event that ends
// the wait when it fires: false with no exception. False with
// Async\ChannelException when the channel is closed and empty (values
// buffered before close are still received), or with the coroutine's
// cancellation.
bool ChannelReceive(zend_async_channel_t* channel, zval* result,
                    zend_async_event_t* cancellation);

// close: idempotent; CloseChannel(EXPLICIT).
void ChannelClose(zend_async_channel_t* channel);

// ---- For object.cc
// -----------------------------------------------------------

// Allocates an open channel of `capacity` (ref_count 1).
AsyncChannel* AllocateChannel(uint32_t capacity, size_t extra_size = 0);

// Starts, moves or stops the deadlock timer after a change of who waits
// (nothing when both timeouts are 0).
void RefreshDeadlockTimer(AsyncChannel* channel);

// Closes the channel with `reason` (nothing if already closed): wakes every
// parked sender and unreserved receiver with the ChannelException of
// `reason`, notifies the event's other callbacks with it, and drops an
// uncommitted rendezvous value.
void CloseChannel(AsyncChannel* channel, ChannelCloseReason reason);

// ChannelSend / ChannelReceive with an optional cancellation object (a
// Completable; NULL for none): when its event fires while parked, the call
// fails with its exception (zend_async_waker_callback_cancel), and a token
// already completed fails the call before anything else.
bool ChannelSendWithToken(AsyncChannel* channel, zval* value,
                          zend_object* token);
bool ChannelReceiveWithToken(AsyncChannel* channel, zval* result,
                             zend_object* token);

// sendAsync: sends without parking; false (no exception) when closed or no
// slot is free (a slot kept for a woken sender is not free).
bool ChannelTrySend(AsyncChannel* channel, zval* value);

// recvAsync: an Async\Future's C future for the next value, owned by the
// caller (one reference; hand it to ZEND_ASYNC_NEW_FUTURE_OBJ). A free value
// (not one kept for a woken receiver) completes it at once and frees its
// slot for a sender; a closed channel rejects it with its
// Async\ChannelException; otherwise it joins the receivers' FIFO queue and
// is completed in turn (or rejected by close). A future freed while queued
// (dropped, never awaited) leaves the queue; one settled meanwhile
// (Future::cancel()) is skipped. nullptr with an exception pending when no
// future could be made.
zend_future_t* ChannelReceiveAsync(AsyncChannel* channel);

// Throws the Async\ChannelException of `reason`.
void ThrowChannelException(ChannelCloseReason reason);
// The Async\ChannelException of `reason`, owned by the caller.
zend_object* NewChannelException(ChannelCloseReason reason);

// ---- Between the channel's files -------------------------------------------

// channel.cc: takes the oldest value into `result` (owned by the caller)
// and pays the freed slot's debts (WakeSender).
void Take(AsyncChannel* channel, zval* result);

// wait.cc: parking a send or a receive, and waking it.

// What ended a wait in a queue.
struct WaitResult {
  // Woken with a reservation it still holds (a value or a slot kept for
  // it); the caller must spend it before it suspends again.
  bool reserved = false;
  // Woken by the C cancellation event (no exception).
  bool cancelled = false;
};

// A receive (`receiving`) waits in the receivers' queue for a value, or a
// send in the senders' queue for a slot, until it is woken (with a
// reservation, or by close with an exception), `cancellation` fires (C: no
// exception) or `token` does (OperationCanceledException), or it is
// cancelled. An unspent reservation is handed to the next waiter.
WaitResult WaitInQueue(AsyncChannel* channel, bool receiving,
                       zend_async_event_t* cancellation, zend_object* token);
// A rendezvous send whose value sits in the slot waits, as the
// `delivering` sender, until a receiver took it; leaving before, it takes
// the value back unless a receiver was promised it.
void WaitForDelivery(AsyncChannel* channel, zend_object* token);
// Gives one unpromised value to the oldest receiver without a reservation
// (a future waiter is served at once); false when there is none.
bool WakeReceiver(AsyncChannel* channel);
// Pays a freed slot's debts: the delivering sender whose value was taken,
// and the oldest sender waiting for a slot (reserved).
void WakeSender(AsyncChannel* channel);
// Fails every parked sender and every unreserved receiver with `exception`
// (borrowed), newest first; future waiters are rejected with it.
void WakeAll(AsyncChannel* channel, zend_object* exception);

// deadlock.cc: stops the deadlock timer (close, dispose).
void DisarmDeadlockTimer(AsyncChannel* channel);

// recv_future.cc: the future waiters among the receivers (recvAsync()).
// A queued waiter without a coroutine is a future waiter.
inline bool IsFutureWaiter(const internal::Waiter* waiter) {
  return waiter->callback.coroutine == nullptr;
}
// Serves a future waiter at the front of the unreserved receivers with the
// oldest value (REQUIRES: channel->HasFreeValue()); false, the value kept,
// when its future was settled meanwhile (it only leaves the queue).
bool ServeFutureWaiter(AsyncChannel* channel, internal::Waiter* waiter);
// Takes a future waiter off the queue; RejectFutureWaiter also rejects its
// future with `exception` (borrowed).
void DetachFutureWaiter(internal::Waiter* waiter);
void RejectFutureWaiter(internal::Waiter* waiter, zend_object* exception);

// Channel ids start again at 1 (each request).
void ResetChannelIds();

}  // namespace zar::core

#endif  // ZAR_CORE_CHANNEL_CHANNEL_H_
