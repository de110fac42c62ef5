#include "core/scheduler/scope.h"

#include <vector>

#include "absl/cleanup/cleanup.h"
#include "core/internal/event_vtable.h"
#include "core/internal/php_object.h"
#include "core/scheduler/async_classes.h"
#include "core/scheduler/context.h"

extern "C" {
#include "zend_async_ref/park.h"
}

namespace zar::core {
namespace {

// An Async\Scope object: the handle on a scope made with an object, as
// upstream's (php-async scope.c async_new_scope, scope_object_free). The
// object's first reference is its creator's (ZEND_ASYNC_NEW_SCOPE_WITH_OBJECT
// hands it over with the scope); the scope does not hold the object, and
// while the object lives the scope is not disposed unless cancelled
// (CanBeDisposed). Freeing the object disposes its scope, or, while members
// still run, cancels it. A scope disposed first only detaches its object.
struct AsyncScopeObject {
  AsyncScope* scope;  // NULL once the scope is gone
  zend_object std;    // last, as zend_object_alloc requires
};

void ScopeObjectFree(zend_object* object) {
  auto* self = reinterpret_cast<AsyncScopeObject*>(
      reinterpret_cast<char*>(object) - offsetof(AsyncScopeObject, std));
  zend_async_scope_t* scope =
      self->scope != nullptr ? &self->scope->scope : nullptr;
  self->scope = nullptr;
  zend_object_std_dtor(object);
  if (scope == nullptr) return;
  scope->scope_object = nullptr;
  if (!scope->try_to_dispose(scope)) {
    zend_object* exception = zend_async_new_exception(
        ZEND_ASYNC_EXCEPTION_CANCELLATION,
        "Scope is being disposed due to object destruction");
    ZEND_ASYNC_SCOPE_CANCEL(scope, exception, true,
                            ZEND_ASYNC_SCOPE_IS_DISPOSE_SAFELY(scope));
  }
}

zend_object* NewScopeObject(AsyncScope* scope) {
  zend_class_entry* ce = GetClassCe(ZEND_ASYNC_CLASS_SCOPE);
  auto* self = internal::AllocObject<AsyncScopeObject>(ce);
  self->scope = scope;
  zend_object_std_init(&self->std, ce);
  object_properties_init(&self->std, ce);
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
  if (scope->scope_object != nullptr) {  // the object stays its owner's
    zend_object* object = scope->scope_object;
    scope->scope_object = nullptr;
    reinterpret_cast<AsyncScopeObject*>(reinterpret_cast<char*>(object) -
                                        offsetof(AsyncScopeObject, std))
        ->scope = nullptr;
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

// The listeners learn the scope completed; then it may go. A cancelled
// scope whose last member (zombies included) left becomes CLOSED.
void OnMemberGone(AsyncScope* self) {
  zend_async_scope_t* scope = &self->scope;
  if (ZEND_ASYNC_SCOPE_IS_CANCELLED(scope) && IsCompleted(scope, true)) {
    ZEND_ASYNC_SCOPE_SET_CLOSED(scope);
  }
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
  bool owns_error = transfer_error && exception != nullptr;

  if (is_cancellation) {
    if (ZEND_ASYNC_SCOPE_IS_CLOSED(scope)) {
      if (owns_error) OBJ_RELEASE(exception);
      return true;
    }
    // Nothing left to cancel: the scope closes now.
    if (IsCompleted(scope, true)) {
      ZEND_ASYNC_SCOPE_SET_CLOSED(scope);
      if (owns_error) OBJ_RELEASE(exception);
      return true;
    }
    if (exception == nullptr) {
      exception = zend_async_new_exception(ZEND_ASYNC_EXCEPTION_CANCELLATION,
                                           "Scope was cancelled");
      owns_error = true;
    }
  }
  if (exception == nullptr) return true;

  // Both modes cancel the scope (it stays open until its last member
  // leaves, OnMemberGone): children and members get the cancellation, or,
  // when a member's error is being caught, a cancellation of their own.
  ZEND_ASYNC_SCOPE_SET_CANCELLED(scope);
  AsyncScope* self = AsyncScope::FromAbi(scope);
  const auto hold = HoldScope(self);
  zend_object* passed_on = is_cancellation ? exception : nullptr;
  // Snapshots: cancelling may let members finish (and leave) at once.
  const std::vector<zend_async_scope_t*> children(
      scope->scopes.data, scope->scopes.data + scope->scopes.length);
  for (zend_async_scope_t* child : children) {
    child->catch_or_cancel(child, coroutine, scope, passed_on, false, is_safely,
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
                         passed_on, false, is_safely);
    OBJ_RELEASE(member);
  }

  // The listeners learn the error (a waiter may take it: EXCEPTION_HANDLED).
  ZEND_ASYNC_CALLBACKS_NOTIFY(&scope->event, nullptr, exception);
  bool handled = ZEND_ASYNC_EVENT_IS_EXCEPTION_HANDLED(&scope->event);
  if (!handled && !is_cancellation && scope->parent_scope != nullptr) {
    // A member's error travels up the tree, which takes over our reference.
    return scope->parent_scope->catch_or_cancel(scope->parent_scope, coroutine,
                                                scope, exception, owns_error,
                                                is_safely, false);
  }
  if (owns_error) OBJ_RELEASE(exception);
  return handled;
}

// Whether `coroutine` is a member of `scope` or of one of its descendants
// (at most kMaxContainmentDepth levels down; deeper throws, as upstream).
constexpr uint32_t kMaxContainmentDepth = 64;

bool ContainsCoroutine(zend_async_scope_t* scope, zend_coroutine_t* coroutine,
                       uint32_t depth) {
  if (UNEXPECTED(depth > kMaxContainmentDepth)) {
    zend_async_throw(
        ZEND_ASYNC_EXCEPTION_DEFAULT,
        "Maximum recursion depth exceeded while checking coroutine "
        "containment");
    return false;
  }
  AsyncScope* self = AsyncScope::FromAbi(scope);
  for (uint32_t i = 0; i < self->member_count; i++) {
    if (&self->members[i]->coroutine == coroutine) return true;
  }
  for (uint32_t i = 0; i < scope->scopes.length; i++) {
    if (ContainsCoroutine(scope->scopes.data[i], coroutine, depth + 1)) {
      return true;
    }
    if (EG(exception) != nullptr) return false;
  }
  return false;
}

// The awaiter's listener on the scope in ScopeAwaitAfterCancellation.
struct AfterCancellationCallback {
  zend_coroutine_event_callback_t callback;  // first: the ABI's view
  zend_fcall_info* error_fci;                // the caller's, or NULL
  zend_fcall_info_cache* error_fci_cache;
};

// A member's error (catch mode) goes to the error handler, or ends the
// wait with it; otherwise the wait ends once no member, zombies included,
// is left.
void OnScopeAfterCancellation(zend_async_event_t* event,
                              zend_async_event_callback_t* callback,
                              void* result, zend_object* exception) {
  (void)result;
  auto* self = reinterpret_cast<AfterCancellationCallback*>(callback);
  zend_coroutine_t* awaiter = self->callback.coroutine;
  auto* scope = reinterpret_cast<zend_async_scope_t*>(event);

  if (exception != nullptr) {
    ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
    if (self->error_fci == nullptr) {
      ZEND_ASYNC_RESUME_WITH_ERROR(awaiter, exception, false);
      return;
    }
    // handler(Throwable $error, ?Scope $scope)
    zval params[2];
    zval retval;
    ZVAL_OBJ(&params[0], exception);
    if (scope->scope_object != nullptr) {
      ZVAL_OBJ(&params[1], scope->scope_object);
    } else {
      ZVAL_NULL(&params[1]);
    }
    ZVAL_UNDEF(&retval);
    self->error_fci->param_count = 2;
    self->error_fci->params = params;
    self->error_fci->retval = &retval;
    const zend_result called =
        zend_call_function(self->error_fci, self->error_fci_cache);
    self->error_fci->param_count = 0;
    self->error_fci->params = nullptr;
    self->error_fci->retval = nullptr;
    zval_ptr_dtor(&retval);
    if (UNEXPECTED(EG(exception) != nullptr)) {
      zend_object* thrown = EG(exception);
      GC_ADDREF(thrown);
      zend_clear_exception();
      ZEND_ASYNC_RESUME_WITH_ERROR(awaiter, thrown, true);
      return;
    }
    if (UNEXPECTED(called == FAILURE)) {
      ZEND_ASYNC_RESUME_WITH_ERROR(
          awaiter,
          zend_async_new_exception(
              ZEND_ASYNC_EXCEPTION_DEFAULT,
              "Failed to call error handler in scope completion"),
          true);
      return;
    }
  }
  if (IsCompleted(scope, true)) ZEND_ASYNC_RESUME(awaiter);
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
  static const zend_object_handlers handlers =
      internal::MakeObjectHandlers<AsyncScopeObject>(
          {.free_obj = ScopeObjectFree});
  return &handlers;
}

zend_async_scope_t* NewScope(zend_async_scope_t* parent,
                             bool with_zend_object) {
  auto* self = static_cast<AsyncScope*>(ecalloc(1, sizeof(AsyncScope)));
  zend_async_scope_t* scope = &self->scope;
  zend_async_event_t* event = &scope->event;
  event->ref_count = 1;
  internal::SetUnarmedVtable(
      event,
      {.replay = ScopeReplay, .dispose = ScopeEventDispose, .info = ScopeInfo});
  scope->before_coroutine_enqueue = BeforeCoroutineEnqueue;
  scope->after_coroutine_enqueue = AfterCoroutineEnqueue;
  scope->can_be_disposed = CanBeDisposed;
  scope->try_to_dispose = TryToDispose;
  scope->catch_or_cancel = CatchOrCancel;
  if (parent != nullptr) {
    zend_async_scope_add_child(parent, scope);
    scope->request_scope = parent->request_scope;
  }
  // Disposed safely (members become zombies instead of being cancelled when
  // the scope catches an error or is disposed): a root scope without an
  // object (the main scope) and every scope made inside a safe one, as
  // upstream's async_new_scope (php-async scope.c) decides; a scope with an
  // object starts unsafe (Scope::allowZombies() opts in).
  if (parent != nullptr ? ZEND_ASYNC_SCOPE_IS_DISPOSE_SAFELY(parent)
                        : !with_zend_object) {
    ZEND_ASYNC_SCOPE_SET_DISPOSE_SAFELY(scope);
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

void ScopeAwaitAfterCancellation(zend_async_scope_t* scope,
                                 zend_coroutine_t* awaiter,
                                 zend_fcall_info* error_fci,
                                 zend_fcall_info_cache* error_fci_cache,
                                 zend_async_event_t* cancellation) {
  if (UNEXPECTED(awaiter == nullptr || scope == nullptr ||
                 ZEND_ASYNC_SCOPE_IS_CLOSED(scope))) {
    return;
  }
  if (ContainsCoroutine(scope, awaiter, 0)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Cannot await completion of scope from a coroutine that "
                     "belongs to the same scope or its children");
    return;
  }
  if (UNEXPECTED(EG(exception) != nullptr)) return;
  AsyncScope* self = AsyncScope::FromAbi(scope);
  if (self->member_count == 0 && scope->scopes.length == 0) return;

  // Nobody holds the listener yet (ref_count 0): the park takes it over.
  auto* listener = reinterpret_cast<AfterCancellationCallback*>(
      zend_async_coroutine_callback_new(awaiter, OnScopeAfterCancellation,
                                        sizeof(AfterCancellationCallback)));
  if (UNEXPECTED(listener == nullptr)) return;
  const bool with_handler = error_fci != nullptr && error_fci->size != 0;
  listener->error_fci = with_handler ? error_fci : nullptr;
  listener->error_fci_cache = with_handler ? error_fci_cache : nullptr;
  zend_async_ref_park_t park = {};
  park.events[0] = {&scope->event, nullptr, &listener->callback, false};
  park.events[1] = {cancellation, zend_async_waker_callback_cancel, nullptr,
                    false};
  zend_async_ref_park(awaiter, &park);
}

}  // namespace zar::core
