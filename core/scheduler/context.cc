#include "core/scheduler/context.h"

#include <cstddef>
#include <type_traits>

namespace zar::core {
namespace {

struct AsyncContext {
  zend_async_context_t context;  // ABI structure (must be first)
  // String keys -> values.
  HashTable by_string;
  // Object handle -> value, and handle -> the key object (one reference,
  // so the handle is not reused while the entry exists).
  HashTable by_object;
  HashTable object_keys;
  // Where parent lookup starts (see context.h): a scope context searches
  // from scope->parent_scope, a free context from `scope` itself.
  zend_async_scope_t* scope;
  // Owned by `scope` (its own context): holds no reference to it.
  bool of_scope;
};

static_assert(std::is_standard_layout_v<AsyncContext>);
static_assert(offsetof(AsyncContext, context) == 0);

AsyncContext* FromAbi(zend_async_context_t* context) {
  return reinterpret_cast<AsyncContext*>(context);
}

enum class KeyKind { kString, kObject, kInvalid };

KeyKind KindOf(const zval* key) {
  if (Z_TYPE_P(key) == IS_STRING) return KeyKind::kString;
  if (Z_TYPE_P(key) == IS_OBJECT) return KeyKind::kObject;
  zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                   "Context key must be a string or an object");
  return KeyKind::kInvalid;
}

zval* FindHere(AsyncContext* self, zval* key, KeyKind kind) {
  return kind == KeyKind::kString
             ? zend_hash_find(&self->by_string, Z_STR_P(key))
             : zend_hash_index_find(&self->by_object, Z_OBJ_P(key)->handle);
}

bool ContextFind(zend_async_context_t* context, zval* key, zval* result,
                 bool include_parent) {
  AsyncContext* self = FromAbi(context);
  const KeyKind kind = KindOf(key);
  if (kind == KeyKind::kInvalid) return false;

  zval* found = FindHere(self, key, kind);
  if (found == nullptr && include_parent && self->scope != nullptr) {
    zend_async_scope_t* scope =
        self->of_scope ? self->scope->parent_scope : self->scope;
    for (; scope != nullptr && found == nullptr; scope = scope->parent_scope) {
      if (scope->context != nullptr && scope->context != context) {
        found = FindHere(FromAbi(scope->context), key, kind);
      }
    }
  }
  if (found == nullptr) return false;
  if (result != nullptr) ZVAL_COPY(result, found);
  return true;
}

void ContextSet(zend_async_context_t* context, zval* key, zval* value) {
  AsyncContext* self = FromAbi(context);
  const KeyKind kind = KindOf(key);
  if (kind == KeyKind::kInvalid) return;

  zval copy;
  ZVAL_COPY(&copy, value);
  if (kind == KeyKind::kString) {
    zend_hash_update(&self->by_string, Z_STR_P(key), &copy);
    return;
  }
  zend_object* object = Z_OBJ_P(key);
  zend_hash_index_update(&self->by_object, object->handle, &copy);
  if (zend_hash_index_find(&self->object_keys, object->handle) == nullptr) {
    zval key_copy;
    ZVAL_OBJ_COPY(&key_copy, object);
    zend_hash_index_add(&self->object_keys, object->handle, &key_copy);
  }
}

bool ContextUnset(zend_async_context_t* context, zval* key) {
  AsyncContext* self = FromAbi(context);
  const KeyKind kind = KindOf(key);
  if (kind == KeyKind::kInvalid) return false;
  if (kind == KeyKind::kString) {
    return zend_hash_del(&self->by_string, Z_STR_P(key)) == SUCCESS;
  }
  const uint32_t handle = Z_OBJ_P(key)->handle;
  if (zend_hash_index_del(&self->by_object, handle) != SUCCESS) return false;
  zend_hash_index_del(&self->object_keys, handle);
  return true;
}

void ContextDispose(zend_async_context_t* context) {
  AsyncContext* self = FromAbi(context);
  zend_hash_destroy(&self->by_string);
  zend_hash_destroy(&self->by_object);
  zend_hash_destroy(&self->object_keys);
  zend_async_scope_t* scope = self->scope;
  const bool of_scope = self->of_scope;
  efree(self);
  if (scope != nullptr && !of_scope) ZEND_ASYNC_SCOPE_RELEASE(scope);
}

AsyncContext* Allocate(zend_async_scope_t* scope, bool of_scope) {
  auto* self = static_cast<AsyncContext*>(ecalloc(1, sizeof(AsyncContext)));
  self->context.find = ContextFind;
  self->context.set = ContextSet;
  self->context.unset = ContextUnset;
  self->context.dispose = ContextDispose;
  zend_hash_init(&self->by_string, 8, nullptr, ZVAL_PTR_DTOR, 0);
  zend_hash_init(&self->by_object, 8, nullptr, ZVAL_PTR_DTOR, 0);
  zend_hash_init(&self->object_keys, 8, nullptr, ZVAL_PTR_DTOR, 0);
  self->scope = scope;
  self->of_scope = of_scope;
  return self;
}

}  // namespace

zend_async_context_t* NewContext() {
  zend_async_scope_t* scope = ZEND_ASYNC_CURRENT_SCOPE;
  if (scope != nullptr) ZEND_ASYNC_EVENT_ADD_REF(&scope->event);
  return &Allocate(scope, false)->context;
}

zend_async_context_t* NewScopeContext(zend_async_scope_t* scope) {
  return &Allocate(scope, true)->context;
}

}  // namespace zar::core
