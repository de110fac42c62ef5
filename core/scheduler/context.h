// zend-async-ref core: contexts, key/value stores attached to scopes and
// coroutines.
//
// An AsyncContext embeds the ABI's zend_async_context_t first. Keys are
// strings or objects (an object key is its identity: the context holds a
// reference to it so its handle stays unique); values are zvals, copied in
// (one reference added) and copied out.
//
//   find(context, key, result, include_parent)
//       looks the key up here, then (include_parent) in the contexts of the
//       enclosing scopes, innermost first; copies the value into `result`
//       (when not NULL). Returns whether it was found.
//   set(context, key, value)  replaces or adds.
//   unset(context, key)       returns whether the key was there.
//   dispose(context)          releases keys and values, frees the context.
// A key that is neither a string nor an object throws TypeError "Context
// key must be a string or an object" (find/unset return false, set does
// nothing).
//
// Binding: a scope's context (NewScopeContext) looks up through the parent
// scope's context. A context from new_context_fn (what
// ZEND_ASYNC_GET_COROUTINE_CONTEXT uses) is bound to the current
// coroutine's scope, looks up through that scope's context, and holds a
// reference to the scope until it is disposed.
//
// Contexts are not objects: `offset` is 0 and `flags` 0.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_SCHEDULER_CONTEXT_H_
#define ZAR_CORE_SCHEDULER_CONTEXT_H_

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core {

// new_context_fn (see the file comment). The caller owns the context and
// disposes it (context->dispose).
zend_async_context_t* NewContext();

// The context of a new scope, owned by the scope.
zend_async_context_t* NewScopeContext(zend_async_scope_t* scope);

}  // namespace zar::core

#endif  // ZAR_CORE_SCHEDULER_CONTEXT_H_
