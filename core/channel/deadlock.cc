// The deadlock timer of a channel (channel.h, "Deadlock timeouts";
// upstream's channel_refresh_deadlock_timer): one timer per channel while
// someone waits without a reservation. A waiter holding a reservation is
// not starving and does not count.

#include "core/channel/channel.h"

namespace zar::core {
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

void DisarmDeadlockTimer(AsyncChannel* channel) { channel->deadlock.Stop(); }

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

}  // namespace zar::core
