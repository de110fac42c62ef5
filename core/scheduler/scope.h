// zend-async-ref core: scopes, the tree that owns coroutines.
//
// An AsyncScope embeds the ABI's zend_async_scope_t first. It lists its
// member coroutines (a coroutine joins in before_coroutine_enqueue, i.e.
// when it is queued, and leaves when it finishes) and its child scopes
// (zend_async_scope_add_child / remove_child). Every scope has a context
// (context.h) created with it, whose parent lookup goes up the scope tree.
//
// Operations (through the ABI structure):
//   catch_or_cancel(is_cancellation = true)  ZEND_ASYNC_SCOPE_CLOSE/CANCEL:
//       marks the scope CANCELLED and CLOSED (no new coroutines), cancels
//       every child scope and every member coroutine (with the given error,
//       or Async\AsyncCancellation "Scope was cancelled"), notifies the
//       scope's listeners with that error. Returns true.
//   catch_or_cancel(is_cancellation = false) ZEND_ASYNC_SCOPE_CATCH: a
//       member's unhandled exception. A cancellation is absorbed (true);
//       anything else is handed to the parent scope; a root scope returns
//       false (nobody handled it: the scheduler makes it the exit
//       exception).
//   can_be_disposed(with_zombies, check_zend_objects): no member
//       coroutines (zombies count only when with_zombies), every child can
//       be disposed, and (check_zend_objects) no one but the scope holds
//       its Async\Scope object.
//   try_to_dispose: disposes the scope when nobody holds an extra
//       reference (event refcount <= 1), it is not OWNER_PINNED and it can
//       be disposed (with zombies and objects).
// When its last member leaves, a scope notifies its listeners (NULL, NULL)
// and offers itself (and then its parent) for disposal.
//
// Lifetime: created with event refcount 1, held by its creator. Disposal
// (try_to_dispose, or ZEND_ASYNC_EVENT_RELEASE of the last reference)
// detaches the scope from its parent, frees its context, releases its
// Async\Scope object and frees it. A scope released while it still has
// members or children is freed when the last of them leaves. The scheduler
// pins the main scope and its own scope (OWNER_PINNED) and disposes them
// when the request's scheduler ends.
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
// reference. NULL with an exception on failure.
zend_async_scope_t* NewScope(zend_async_scope_t* parent, bool with_zend_object);

// The scope's member list (called by before_coroutine_enqueue and when a
// coroutine finishes or is freed unfinished).
void ScopeAddCoroutine(zend_async_scope_t* scope, AsyncCoroutine* coroutine);
void ScopeRemoveCoroutine(AsyncCoroutine* coroutine);
// A member became a zombie (cancel is_safely): it no longer counts as
// active.
void ScopeMarkZombie(AsyncCoroutine* coroutine);

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
