// recvAsync()'s futures (channel.h, ChannelReceiveAsync): the future
// waiters among a channel's receivers.

#include "core/channel/channel.h"
#include "core/channel/trace.h"

namespace zar::core {

using internal::Waiter;

namespace {

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

FutureWaiter* FutureWaiterOf(zend_future_t* future) {
  return reinterpret_cast<FutureWaiter*>(reinterpret_cast<char*>(future) +
                                         sizeof(zend_future_t));
}

// Takes a future waiter off its channel's queue (nothing if it left).
void Detach(FutureWaiter* waiter) {
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
  Detach(waiter);
  if (channel != nullptr) RefreshDeadlockTimer(channel);
  return waiter->prev_dispose != nullptr ? waiter->prev_dispose(event) : true;
}

}  // namespace

bool ServeFutureWaiter(AsyncChannel* channel, Waiter* queued) {
  auto* waiter = reinterpret_cast<FutureWaiter*>(queued);
  Detach(waiter);
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

void DetachFutureWaiter(Waiter* queued) {
  Detach(reinterpret_cast<FutureWaiter*>(queued));
}

void RejectFutureWaiter(Waiter* queued, zend_object* exception) {
  auto* waiter = reinterpret_cast<FutureWaiter*>(queued);
  Detach(waiter);
  ZEND_FUTURE_REJECT(waiter->future, exception);
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

}  // namespace zar::core
