// The channel's trace lines (trace.h).

#include "core/channel/trace.h"

#include <cinttypes>
#include <cstdio>

#include "core/internal/trace_text.h"

namespace zar::core {
namespace {

using internal::Waiter;

// "(count=1 receivers=0 senders=2 reserved=0/1)".
struct Stats {
  char text[112];
  explicit Stats(const AsyncChannel* channel) {
    snprintf(text, sizeof(text),
             "(count=%" PRIu32 " receivers=%" PRIu32 " senders=%" PRIu32
             " reserved=%" PRIu32 "/%" PRIu32 ")",
             channel->count(), channel->receivers.size(),
             channel->senders.size() + (channel->delivering != nullptr ? 1 : 0),
             channel->reserved_receivers, channel->reserved_senders);
  }
};

// "Channel#<id>".
struct Token : internal::TokenText {
  explicit Token(const AsyncChannel* channel)
      : TokenText("Channel", channel->id) {}
};

using Value = internal::ValueText<>;
using Exception = internal::ExceptionText<>;
using CoroutineName = internal::CoroutineText;

}  // namespace

void TraceChannelCreate(const AsyncChannel* channel) {
  zend_async_ref_trace("channel create %s (capacity=%" PRIu32 ")",
                       Token(channel).text, channel->capacity);
}

void TraceChannelSend(const AsyncChannel* channel, const zval* value,
                      const char* outcome) {
  zend_async_ref_trace("channel send %s %s -> %s %s", Token(channel).text,
                       Value(value).text, outcome, Stats(channel).text);
}

void TraceChannelFail(const AsyncChannel* channel, const char* operation) {
  zend_async_ref_trace("channel %s %s -> fail %s %s", operation,
                       Token(channel).text, Exception(EG(exception)).text,
                       Stats(channel).text);
}

void TraceChannelReceive(const AsyncChannel* channel, const zval* value) {
  if (value == nullptr) {
    zend_async_ref_trace("channel recv %s -> wait %s", Token(channel).text,
                         Stats(channel).text);
  } else {
    zend_async_ref_trace("channel recv %s -> %s %s", Token(channel).text,
                         Value(value).text, Stats(channel).text);
  }
}

void TraceChannelReserve(const AsyncChannel* channel, const Waiter* waiter,
                         const char* what) {
  zend_async_ref_trace("channel reserve %s %s for %s %s", Token(channel).text,
                       what, CoroutineName(waiter->callback.coroutine).text,
                       Stats(channel).text);
}

void TraceChannelDelivered(const AsyncChannel* channel, const Waiter* waiter) {
  zend_async_ref_trace("channel delivered %s to %s %s", Token(channel).text,
                       CoroutineName(waiter->callback.coroutine).text,
                       Stats(channel).text);
}

void TraceChannelHandOn(const AsyncChannel* channel) {
  internal::TraceHandOn("channel", Token(channel).text, Stats(channel).text);
}

void TraceChannelWake(const AsyncChannel* channel, const Waiter* waiter,
                      zend_object* error) {
  internal::TraceWake("channel", Token(channel).text,
                      waiter->callback.coroutine, error);
}

void TraceChannelClose(const AsyncChannel* channel) {
  zend_async_ref_trace("channel close %s %s %s", Token(channel).text,
                       TextOf(channel->close_reason).value,
                       Stats(channel).text);
}

void TraceChannelDispose(const AsyncChannel* channel) {
  zend_async_ref_trace("channel dispose %s", Token(channel).text);
}

}  // namespace zar::core
