// zend-async-ref core: filesystem watch events (zend_async_filesystem_event_t
// over uv_fs_event_t), the reactor's new_filesystem_event.
//
// While started, the event watches `path` (a directory: its entries; a
// file: the file itself). Each change libuv reports notifies the callbacks
// once, with result NULL, after setting
//   triggered_events    ZEND_ASYNC_FS_EVENT_RENAME (an entry appeared,
//                       vanished or was renamed) and/or
//                       ZEND_ASYNC_FS_EVENT_CHANGE (contents or attributes
//                       changed);
//   triggered_filename  the entry's name (a zend_string owned by the event,
//                       valid until the next notification or the event's
//                       end; a callback that keeps it adds a reference), or
//                       NULL when libuv names none.
// A failure libuv reports while watching notifies once with
// triggered_events 0, triggered_filename NULL and Async\InputOutputException
// "Filesystem monitoring error: <libuv message>"; the watch stays started.
// A filesystem event never closes itself.
//
// ZEND_ASYNC_FS_EVENT_RECURSIVE in `flags` also watches every subdirectory:
// Linux's inotify is not recursive, so each directory of the tree gets its
// own libuv watch (at most 8192 per event), all feeding this one event, and
// triggered_filename is the path relative to `path` ("sub/deep/a.txt").
// The tree is walked at the first start (symbolic links are not followed);
// a directory that appears later (created or moved in) is watched, with
// what is already inside it, when its parent reports it; one that vanishes
// loses its watch and everything under it, so the same path created again
// is watched afresh. A change inside a new directory before its watch is
// in place is not seen. A stop() keeps the set of watched directories and
// a later start() re-arms them (one gone meanwhile is dropped); it does
// not walk the tree again.
//
// Errors (message texts as upstream; the class is Async\AsyncException,
// upstream's async_throw_error):
//   start(), path cannot be watched (missing, no permission):
//     "Failed to start filesystem handle: <libuv message>", or with
//     RECURSIVE "Failed to start recursive filesystem watch on <path>";
//     start() returns false and the event stays stopped.
//   new_filesystem_event, libuv cannot make the handle:
//     "Failed to initialize filesystem handle: <libuv message>", NULL.
// A start() of a CLOSED event returns false without an exception, as for
// every reactor event.
//
// Ownership: New* returns the only reference (ref_count 1); the event
// keeps its own reference to `path`. The watches' memory goes once libuv
// has closed their handles (reactor_event.h, owed callbacks).
//
// Threading: the request's thread (the loop thread).

#ifndef ZAR_CORE_REACTOR_FILESYSTEM_EVENT_H_
#define ZAR_CORE_REACTOR_FILESYSTEM_EVENT_H_

#include <cstddef>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::reactor {

// new_filesystem_event. `path` is not checked here: start() reports a path
// that cannot be watched. REQUIRES: path != NULL.
zend_async_filesystem_event_t* NewFilesystemEvent(zend_string* path,
                                                  unsigned int flags,
                                                  size_t extra_size);

}  // namespace zar::core::reactor

#endif  // ZAR_CORE_REACTOR_FILESYSTEM_EVENT_H_
