// zend-async-ref core: the channel's PHP classes (php-async's
// async_register_channel_ce):
//
//   enum Async\ChannelCloseReason: string   EXPLICIT = 'explicit',
//       DISPOSED = 'disposed', NO_PRODUCERS = 'no producers timeout',
//       NO_CONSUMERS = 'no consumers timeout', DEADLOCK = 'deadlock',
//       SCOPE_DISPOSED = 'scope disposed'
//   class Async\ChannelException extends Async\AsyncException
//       { public ChannelCloseReason $reason; }
//   final class Async\Channel implements Async\Awaitable, Countable
//       (object.h; upstream's \IteratorAggregate is not implemented: the
//       engine has no iterators, docs/channels.md)
//
// Threading: module startup and shutdown; the getters from the request's
// thread.

#ifndef ZAR_CORE_CHANNEL_CLASSES_H_
#define ZAR_CORE_CHANNEL_CLASSES_H_

#include "core/channel/channel.h"

extern "C" {
#include "php.h"
}

namespace zar::core {

// Async\Channel, implementing `awaitable` and Countable, with its methods,
// create_object and handlers (called by RegisterClasses for the Channel
// slot of the class table). NULL when the engine refuses it.
zend_class_entry* RegisterChannelClass(zend_class_entry* awaitable);

// Async\ChannelCloseReason and Async\ChannelException (after
// Async\AsyncException is registered). False when the engine refuses one.
bool RegisterChannelExceptionClasses();

void ForgetChannelClasses();

zend_class_entry* ChannelClass();
zend_class_entry* ChannelExceptionClass();
// The enum case of `reason` (borrowed), or NULL outside a request.
zend_object* ChannelCloseReasonCase(ChannelCloseReason reason);

}  // namespace zar::core

#endif  // ZAR_CORE_CHANNEL_CLASSES_H_
