#include "core/scheduler/scope.h"

#include <vector>

#include "absl/cleanup/cleanup.h"
#include "core/scheduler/async_classes.h"
#include "core/scheduler/context.h"

namespace zar::core {
namespace {

// An Async\Scope object: a handle on a scope, which holds the object's
// first reference and releases it when the scope is disposed.
struct AsyncScopeObject {
  AsyncScope* scope;  // NULL once the scope is gone
  zend_object std;    // last, as zend_object_alloc requires
};

zend_object_handlers scope_handlers;
bool scope_handlers_ready = false;

void ScopeObjectFree(zend_object* object) {
  auto* self = reinterpret_cast<AsyncScopeObject*>(
      reinterpret_cast<char*>(object) - offsetof(AsyncScopeObject, std));
  if (self->scope != nullptr) {
    self->scope->scope.scope_object = nullptr;
    self->scope = nullptr;
  }
  zend_object_std_dtor(object);
}

zend_object* NewScopeObject(AsyncScope* scope) {
  zend_class_entry* ce = GetClassCe(ZEND_ASYNC_CLASS_SCOPE);
  auto* self = static_cast<AsyncScopeObject*>(
      zend_object_alloc(sizeof(AsyncScopeObject), ce));
  self->scope = scope;
  zend_object_std_init(&self->std, ce);
  return &self->std;
}

// Keeps a scope alive across a call that may release it (a notification,
// whose own self-reference would dispose a scope nobody else holds): one
// more reference now, dropped (without disposing) when the returned guard
// goes out of scope.
auto HoldScope(AsyncScope* scope) {
  scope->scope.event.ref_count++;
  return absl::Cleanup([scope] { scope->scope.event.ref_count--; });
}

bool IsCompleted(zend_async_scope_t* scope, bool with_zombies) {
  AsyncScope* self = AsyncScope::FromAbi(scope);
  if ((with_zombies ? self->member_count : self->active_count) != 0) {
    return false;
  }
  for (uint32_t i = 0; i < scope->scopes.length; i++) {
    if (!IsCompleted(scope->scopes.data[i], with_zombies)) return false;
  }
  return true;
}

// Frees the scope. Children are detached (they become roots, disposed by
// their own holders); members, which only a forced disposal can leave
// behind, lose their scope.
void Dispose(AsyncScope* self) {
  zend_async_scope_t* scope = &self->scope;
  ZEND_ASYNC_SCOPE_SET_DISPOSING(scope);

  for (uint32_t i = 0; i < scope->scopes.length; i++) {
    scope->scopes.data[i]->parent_scope = nullptr;
  }
  scope->scopes.length = 0;
  zend_async_scope_free_children(scope);

  for (uint32_t i = 0; i < self->member_count; i++) {
    self->members[i]->scope_member = false;
    self->members[i]->coroutine.scope = nullptr;
  }
  if (self->members != nullptr) efree(self->members);

  if (scope->parent_scope != nullptr) {
    zend_async_scope_remove_child(scope->parent_scope, scope);
  }
  if (scope->context != nullptr) {
    zend_async_context_t* context = scope->context;
    scope->context = nullptr;
    context->dispose(context);
  }
  zend_async_callbacks_free(&scope->event);
  if (scope->scope_object != nullptr) {
    zend_object* object = scope->scope_object;
    scope->scope_object = nullptr;
    reinterpret_cast<AsyncScopeObject*>(reinterpret_cast<char*>(object) -
                                        offsetof(AsyncScopeObject, std))
        ->scope = nullptr;
    OBJ_RELEASE(object);
  }
  efree(self);
}

bool BeforeCoroutineEnqueue(zend_coroutine_t* coroutine,
                            zend_async_scope_t* scope, zval* result) {
  (void)result;
  ScopeAddCoroutine(scope, AsyncCoroutine::FromAbi(coroutine));
  return true;
}

void AfterCoroutineEnqueue(zend_coroutine_t* coroutine,
                           zend_async_scope_t* scope) {
  (void)coroutine;
  (void)scope;
}

bool CanBeDisposed(zend_async_scope_t* scope, bool with_zombies,
                   bool check_zend_objects) {
  if (!IsCompleted(scope, with_zombies)) return false;
  if (check_zend_objects && scope->scope_object != nullptr &&
      GC_REFCOUNT(scope->scope_object) > 1 &&
      !ZEND_ASYNC_SCOPE_IS_CANCELLED(scope)) {
    return false;
  }
  return true;
}

bool TryToDispose(zend_async_scope_t* scope) {
  if (ZEND_ASYNC_SCOPE_IS_OWNER_PINNED(scope) ||
      ZEND_ASYNC_SCOPE_IS_DISPOSING(scope) || scope->event.ref_count > 1 ||
      !CanBeDisposed(scope, true, true)) {
    return false;
  }
  Dispose(AsyncScope::FromAbi(scope));
  return true;
}

// The listeners learn the scope completed; then it may go.
void OnMemberGone(AsyncScope* self) {
  zend_async_scope_t* scope = &self->scope;
  if (IsCompleted(scope, false)) {
    const auto hold = HoldScope(self);
    ZEND_ASYNC_CALLBACKS_NOTIFY(&scope->event, nullptr, nullptr);
  }
  TryToDispose(scope);
}

bool CatchOrCancel(zend_async_scope_t* scope, zend_coroutine_t* coroutine,
                   zend_async_scope_t* from_scope, zend_object* exception,
                   bool transfer_error, const bool is_safely,
                   const bool is_cancellation) {
  (void)from_scope;
  const bool owns_error = transfer_error && exception != nullptr;

  if (!is_cancellation) {
    // A member's unhandled exception travels up the tree; a cancellation
    // is a normal way for a coroutine to end.
    bool handled = exception == nullptr || IsCancellation(exception);
    if (!handled && scope->parent_scope != nullptr) {
      handled = scope->parent_scope->catch_or_cancel(
          scope->parent_scope, coroutine, scope, exception, false, is_safely,
          false);
    }
    if (owns_error) OBJ_RELEASE(exception);
    return handled;
  }

  if (ZEND_ASYNC_SCOPE_IS_CLOSED(scope)) {
    if (owns_error) OBJ_RELEASE(exception);
    return true;
  }
  ZEND_ASYNC_SCOPE_SET_CANCELLED(scope);
  ZEND_ASYNC_SCOPE_SET_CLOSED(scope);

  bool release_error = owns_error;
  if (exception == nullptr) {
    exception = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION,
                                         "Scope was cancelled");
    release_error = true;
  }

  AsyncScope* self = AsyncScope::FromAbi(scope);
  const auto hold = HoldScope(self);
  // Snapshots: cancelling may let members finish (and leave) at once.
  const std::vector<zend_async_scope_t*> children(
      scope->scopes.data, scope->scopes.data + scope->scopes.length);
  for (zend_async_scope_t* child : children) {
    child->catch_or_cancel(child, nullptr, scope, exception, false, is_safely,
                           true);
  }
  std::vector<zend_object*> members;
  members.reserve(self->member_count);
  for (uint32_t i = 0; i < self->member_count; i++) {
    zend_object* member = &self->members[i]->std;
    GC_ADDREF(member);
    members.push_back(member);
  }
  for (zend_object* member : members) {
    ZEND_ASYNC_CANCEL_EX(&AsyncCoroutine::FromObject(member)->coroutine,
                         exception, false, is_safely);
    OBJ_RELEASE(member);
  }
  ZEND_ASYNC_CALLBACKS_NOTIFY(&scope->event, nullptr, exception);
  if (release_error) OBJ_RELEASE(exception);
  return true;
}

bool ScopeAddCallback(zend_async_event_t* event,
                      zend_async_event_callback_t* callback) {
  return zend_async_callbacks_push(event, callback);
}

bool ScopeDelCallback(zend_async_event_t* event,
                      zend_async_event_callback_t* callback) {
  return zend_async_callbacks_remove(event, callback);
}

bool ScopeStartStop(zend_async_event_t* event) {
  (void)event;
  return true;
}

// A completed scope replays "completed, no result, no error".
bool ScopeReplay(zend_async_event_t* event,
                 zend_async_event_callback_t* callback, zval* result,
                 zend_object** exception) {
  zend_async_scope_t* scope = reinterpret_cast<zend_async_scope_t*>(event);
  if (!IsCompleted(scope, true)) return false;
  if (callback != nullptr) {
    callback->callback(event, callback, nullptr, nullptr);
    return true;
  }
  if (result != nullptr) ZVAL_NULL(result);
  if (exception != nullptr) *exception = nullptr;
  return true;
}

zend_string* ScopeInfo(zend_async_event_t* event) {
  zend_async_scope_t* scope = reinterpret_cast<zend_async_scope_t*>(event);
  const char* status = ZEND_ASYNC_SCOPE_IS_CLOSED(scope) ? "closed"
                       : IsCompleted(scope, true)        ? "finished"
                                                         : "running";
  return zend_strpprintf(0, "Scope %s with %u coroutines and %u child scopes",
                         status, AsyncScope::FromAbi(scope)->member_count,
                         scope->scopes.length);
}

// The last holder let go (ZEND_ASYNC_EVENT_RELEASE): free it now if it is
// empty, otherwise when its last member or child leaves.
bool ScopeEventDispose(zend_async_event_t* event) {
  TryToDispose(reinterpret_cast<zend_async_scope_t*>(event));
  return true;
}

}  // namespace

zend_async_scope_t* ScopeFromObject(zend_object* object) {
  auto* self = reinterpret_cast<AsyncScopeObject*>(
      reinterpret_cast<char*>(object) - offsetof(AsyncScopeObject, std));
  return self->scope != nullptr ? &self->scope->scope : nullptr;
}

const zend_object_handlers* ScopeObjectHandlers() {
  if (!scope_handlers_ready) {
    scope_handlers = std_object_handlers;
    scope_handlers.offset = offsetof(AsyncScopeObject, std);
    scope_handlers.free_obj = ScopeObjectFree;
    scope_handlers.clone_obj = nullptr;
    scope_handlers_ready = true;
  }
  return &scope_handlers;
}

zend_async_scope_t* NewScope(zend_async_scope_t* parent,
                             bool with_zend_object) {
  auto* self = static_cast<AsyncScope*>(ecalloc(1, sizeof(AsyncScope)));
  zend_async_scope_t* scope = &self->scope;
  zend_async_event_t* event = &scope->event;
  event->ref_count = 1;
  event->add_callback = ScopeAddCallback;
  event->del_callback = ScopeDelCallback;
  event->start = ScopeStartStop;
  event->stop = ScopeStartStop;
  event->replay = ScopeReplay;
  event->dispose = ScopeEventDispose;
  event->info = ScopeInfo;
  scope->before_coroutine_enqueue = BeforeCoroutineEnqueue;
  scope->after_coroutine_enqueue = AfterCoroutineEnqueue;
  scope->can_be_disposed = CanBeDisposed;
  scope->try_to_dispose = TryToDispose;
  scope->catch_or_cancel = CatchOrCancel;
  if (parent != nullptr) {
    zend_async_scope_add_child(parent, scope);
    scope->request_scope = parent->request_scope;
  }
  scope->context = NewScopeContext(scope);
  if (with_zend_object) scope->scope_object = NewScopeObject(self);
  return scope;
}

void ScopeAddCoroutine(zend_async_scope_t* scope, AsyncCoroutine* coroutine) {
  AsyncScope* self = AsyncScope::FromAbi(scope);
  if (self->member_count == self->member_capacity) {
    self->member_capacity =
        self->member_capacity == 0 ? 4 : self->member_capacity * 2;
    self->members = static_cast<AsyncCoroutine**>(safe_erealloc(
        self->members, self->member_capacity, sizeof(AsyncCoroutine*), 0));
  }
  coroutine->scope_index = self->member_count;
  coroutine->scope_member = true;
  coroutine->coroutine.scope = scope;
  self->members[self->member_count++] = coroutine;
  if (!ZEND_COROUTINE_IS_ZOMBIE(&coroutine->coroutine)) self->active_count++;
}

void ScopeRemoveCoroutine(AsyncCoroutine* coroutine) {
  if (!coroutine->scope_member) return;
  AsyncScope* self = AsyncScope::FromAbi(coroutine->coroutine.scope);
  const uint32_t index = coroutine->scope_index;
  AsyncCoroutine* last = self->members[--self->member_count];
  self->members[index] = last;
  last->scope_index = index;
  if (!ZEND_COROUTINE_IS_ZOMBIE(&coroutine->coroutine)) self->active_count--;
  coroutine->scope_member = false;
  coroutine->coroutine.scope = nullptr;
  OnMemberGone(self);
}

void ScopeMarkZombie(AsyncCoroutine* coroutine) {
  if (!coroutine->scope_member) return;
  AsyncScope* self = AsyncScope::FromAbi(coroutine->coroutine.scope);
  self->active_count--;
  if (IsCompleted(&self->scope, false)) {
    const auto hold = HoldScope(self);
    ZEND_ASYNC_CALLBACKS_NOTIFY(&self->scope.event, nullptr, nullptr);
  }
}

void DisposeOwnedScope(zend_async_scope_t* scope) {
  ZEND_ASYNC_SCOPE_CLR_OWNER_PINNED(scope);
  for (uint32_t i = 0; i < scope->scopes.length; i++) {
    scope->scopes.data[i]->parent_scope = nullptr;
  }
  scope->scopes.length = 0;
  TryToDispose(scope);
}

}  // namespace zar::core
