// zend-async-ref core: Async\Channel objects, the PHP face of a channel.
//
// final class Async\Channel implements Async\Awaitable, Countable. An
// object made by `new Async\Channel(...)` creates its channel in
// __construct and owns it; ZEND_ASYNC_NEW_CHANNEL_OBJ(channel) makes a new
// object for an existing channel (each call a new one) that holds one more
// reference to it.
//
// The object is an event reference (ZEND_ASYNC_EVENT_REF_FIELDS):
// ZEND_ASYNC_OBJECT_TO_EVENT(object) is the channel's event (NULL before
// construction), so awaiting the object waits for the channel to close.
//
// Methods (upstream's channel.stub.php): __construct(int $capacity = 0,
// int $noProducerTimeout = 0, int $noConsumerTimeout = 0, bool
// $hardTimeouts = false), send(mixed $value, ?Completable $token = null),
// sendAsync(mixed $value): bool, recv(?Completable $token = null): mixed,
// recvAsync(): Future, close(), isClosed(), capacity(), count(),
// isEmpty(), isFull(). Not here: getIterator() (the engine has no
// iterators). recvAsync() returns an Async\Future (ChannelReceiveAsync)
// (docs/channels.md).
//
// Lifetime: the object holds one channel event reference from construction
// until free_obj. When the object is destroyed while it holds the
// channel's last reference, dtor_obj closes the channel ("Channel
// disposed", reason DISPOSED), as upstream's dtor_obj does. get_gc reports
// the buffered values only when the object is the channel's sole owner.
//
// An object whose __construct did not run has no channel: every method but
// isClosed() (true) throws Async\AsyncException "Async\Channel is not
// initialized" (upstream's object has its channel from create_object).
//
// Not cloneable. Threading: the request's thread.

#ifndef ZAR_CORE_CHANNEL_OBJECT_H_
#define ZAR_CORE_CHANNEL_OBJECT_H_

#include "core/channel/channel.h"
#include "core/internal/php_object.h"

namespace zar::core {

// new_channel_obj_fn: a new Async\Channel object for `channel` (one channel
// reference taken). The caller owns the returned reference. NULL
// (Async\AsyncException thrown) for a NULL channel or before the classes are
// registered.
zend_object* NewChannelObject(zend_async_channel_t* channel);

// Class set-up for classes.cc: the method table and handlers of
// Async\Channel (its create_object is internal::CreateEventWrapper).
const zend_function_entry* ChannelMethods();
const zend_object_handlers* ChannelObjectHandlers();

}  // namespace zar::core

#endif  // ZAR_CORE_CHANNEL_OBJECT_H_
