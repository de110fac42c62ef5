// zend-async-ref core: scopes, the tree that owns coroutines.
//
// An AsyncScope embeds the ABI's zend_async_scope_t first. It lists its
// member coroutines (a coroutine joins in before_coroutine_enqueue, i.e.
// when it is queued, and leaves when it finishes) and its child scopes
// (zend_async_scope_add_child / remove_child). Every scope has a context
// (context.h) created with it, whose parent lookup goes up the scope tree.
//
// Operations (through the ABI structure), as upstream's
// scope_catch_or_cancel:
//   catch_or_cancel(is_cancellation = true)  ZEND_ASYNC_SCOPE_CLOSE/CANCEL:
//       a CLOSED scope: nothing (true). A scope with no member left
//       (zombies included) in its tree: CLOSED now (true). Otherwise the
//       scope is marked CANCELLED (it stays open: it closes when its last
//       member leaves), every child scope and every member coroutine is
//       cancelled with the given error (or Async\AsyncCancellation "Scope
//       was cancelled"), and the listeners are notified with that error.
//       Returns whether a listener handled it (EXCEPTION_HANDLED).
//   catch_or_cancel(is_cancellation = false) ZEND_ASYNC_SCOPE_CATCH: a
//       member's unhandled error (the scheduler passes no cancellation).
//       The scope is cancelled the same way, except that children and
//       members get cancellations of their own ("Scope was cancelled",
//       "Coroutine cancelled"); the listeners are notified with the error.
//       Handled by a listener: true; otherwise the parent scope catches
//       it; a root scope returns false (the scheduler makes it the exit
//       exception). Upstream first offers the error to the PHP Scope's
//       exception handlers, which this implementation's Async\Scope does
//       not have.
//   can_be_disposed(with_zombies, check_zend_objects): no member
//       coroutines (zombies count only when with_zombies), every child can
//       be disposed, and (check_zend_objects) it has no Async\Scope object
//       left or is cancelled.
//   try_to_dispose: disposes the scope when nobody holds an extra
//       reference (event refcount <= 1), it is not OWNER_PINNED and it can
//       be disposed (with zombies and objects).
// When its last member leaves, a scope notifies its listeners (NULL, NULL)
// and offers itself (and then its parent) for disposal.
//
// Lifetime: created with event refcount 1, held by its creator; a scope
// made with an object is held through the object instead, whose reference
// is the creator's (as upstream's): freeing the object disposes the scope,
// or cancels it ("Scope is being disposed due to object destruction") while
// members still run. Disposal (try_to_dispose, or ZEND_ASYNC_EVENT_RELEASE
// of the last reference) detaches the scope from its parent, frees its
// context, detaches its Async\Scope object and frees it. A scope released while
// it still has members or children is freed when the last of them leaves. The
// scheduler pins the main scope and its own scope (OWNER_PINNED) and disposes
// them when the request's scheduler ends.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_SCHEDULER_SCOPE_H_
#define ZAR_CORE_SCHEDULER_SCOPE_H_

#include <cstddef>
#include <type_traits>

#include "core/scheduler/coroutine.h"

namespace zar::core {

struct AsyncScope {
  zend_async_scope_t scope;  // ABI structure (must be first)
  // Member coroutines; members[i]->scope_index == i. emalloc'd.
  AsyncCoroutine** members;
  uint32_t member_count;
  uint32_t member_capacity;
  // Members that are not zombies.
  uint32_t active_count;

  static AsyncScope* FromAbi(zend_async_scope_t* scope) {
    return reinterpret_cast<AsyncScope*>(scope);
  }
};

static_assert(std::is_standard_layout_v<AsyncScope>);
static_assert(offsetof(AsyncScope, scope) == 0);

// new_scope_fn: a scope under `parent` (NULL: a root scope), with an
// Async\Scope object when with_zend_object. The caller holds the one
// reference: the scope's, or with an object the object's (release the
// object, not the scope). NULL with an exception on failure.
zend_async_scope_t* NewScope(zend_async_scope_t* parent, bool with_zend_object);

// The scope's member list (called by before_coroutine_enqueue and when a
// coroutine finishes or is freed unfinished).
void ScopeAddCoroutine(zend_async_scope_t* scope, AsyncCoroutine* coroutine);
void ScopeRemoveCoroutine(AsyncCoroutine* coroutine);
// A member became a zombie (cancel is_safely): it no longer counts as
// active.
void ScopeMarkZombie(AsyncCoroutine* coroutine);

// scope_await_after_cancellation_fn (ZEND_ASYNC_SCOPE_AWAIT_AFTER_
// CANCELLATION), as upstream's async_scope_await_after_cancellation:
// suspends `awaiter` until no member of `scope` is left, zombies included.
// Returns at once for a NULL awaiter or scope, a CLOSED scope, or a scope
// without members or children. An awaiter inside the scope's tree throws
// Async\AsyncException "Cannot await completion of scope from a coroutine
// that belongs to the same scope or its children". A member's error that
// reaches the scope's listeners while it waits (catch mode) is given to
// `error_fci` (error, Async\Scope object or null; the caller's, used only
// during the wait) and the wait goes on, or, without a handler, ends the
// wait with that error (the error counts as handled). An error the handler
// throws ends the wait with it. `cancellation`, when given, ends the wait
// through zend_async_waker_callback_cancel.
void ScopeAwaitAfterCancellation(zend_async_scope_t* scope,
                                 zend_coroutine_t* awaiter,
                                 zend_fcall_info* error_fci,
                                 zend_fcall_info_cache* error_fci_cache,
                                 zend_async_event_t* cancellation);

// Disposes a scope the scheduler owns (main or scheduler scope) at the end
// of the request's scheduler: unpins it, detaches any remaining children
// and disposes it when nothing else holds it.
void DisposeOwnedScope(zend_async_scope_t* scope);

// The scope behind an Async\Scope object; NULL once the scope is gone.
zend_async_scope_t* ScopeFromObject(zend_object* object);

// The handlers of Async\Scope objects.
const zend_object_handlers* ScopeObjectHandlers();

}  // namespace zar::core

#endif  // ZAR_CORE_SCHEDULER_SCOPE_H_
