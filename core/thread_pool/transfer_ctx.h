// zend-async-ref core: what transfer, load and release share (zval
// transfer, zval_transfer.h): the ctx helpers (xlat, depth), the fields of
// a transit shell, and the scalar copy. Not for use outside
// core/thread_pool/.
//
// Threading: a ctx belongs to the thread using it.

#ifndef ZAR_CORE_THREAD_POOL_TRANSFER_CTX_H_
#define ZAR_CORE_THREAD_POOL_TRANSFER_CTX_H_

#include <cstdint>

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
}

namespace zar::core::thread_pool::internal {

using Ctx = zend_async_thread_transfer_ctx_t;

// Upstream's THREAD_TRANSFER_MAX_DEPTH: arrays and objects nested deeper
// than this are refused (the walk is recursive).
inline constexpr uint32_t kMaxDepth = 512;

inline constexpr char kDepthError[] =
    "Maximum nesting depth exceeded during thread data transfer";

// One level of array/object nesting. When the limit is reached the scope
// is not entered and ctx->error is set.
class DepthScope {
 public:
  explicit DepthScope(Ctx* ctx) : ctx_(ctx), entered_(ctx->depth < kMaxDepth) {
    if (entered_) {
      ctx_->depth++;
    } else {
      ctx_->error = kDepthError;
    }
  }
  ~DepthScope() {
    if (entered_) ctx_->depth--;
  }
  DepthScope(const DepthScope&) = delete;
  DepthScope& operator=(const DepthScope&) = delete;

  bool entered() const { return entered_; }

 private:
  Ctx* ctx_;
  bool entered_;
};

inline zend_ulong XlatKey(const void* ptr) {
  return static_cast<zend_ulong>(reinterpret_cast<uintptr_t>(ptr));
}

template <typename T>
inline T* XlatFind(const Ctx* ctx, const void* src) {
  return static_cast<T*>(zend_hash_index_find_ptr(&ctx->xlat, XlatKey(src)));
}

// The copy of the table or object `src` this graph already made, with one
// more reference (a graph that reaches it twice shares one copy), or
// nullptr.
template <typename T>
inline T* XlatShared(const Ctx* ctx, const T* src) {
  T* seen = XlatFind<T>(ctx, src);
  if (seen != nullptr) GC_ADDREF(seen);
  return seen;
}

inline void XlatRecord(Ctx* ctx, const void* src, void* dst) {
  zend_hash_index_update_ptr(&ctx->xlat, XlatKey(src), dst);
}

inline void CtxInit(Ctx* ctx) {
  zend_hash_init(&ctx->xlat, 32, nullptr, nullptr, 0);
  ctx->depth = 0;
  ctx->defer_release = nullptr;
  ctx->error = nullptr;
}

inline void CtxDestroy(Ctx* ctx) {
  if (ctx->defer_release != nullptr) {
    zend_hash_destroy(ctx->defer_release);
    efree(ctx->defer_release);
    ctx->defer_release = nullptr;
  }
  zend_hash_destroy(&ctx->xlat);
}

// The fields of a transit shell (see the header).
inline zend_string* ShellClassName(const zend_object* shell) {
  return reinterpret_cast<zend_string*>(shell->ce);
}
inline uint32_t ShellSlotCount(const zend_object* shell) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(shell->handlers));
}

inline zend_class_entry* FindClass(const zend_string* name) {
  return zend_lookup_class(const_cast<zend_string*>(name));
}

inline zend_object_transfer_obj_t ClassTransferHandler(
    const zend_class_entry* ce) {
  if (ce == nullptr || ce->default_object_handlers == nullptr) return nullptr;
  return ce->default_object_handlers->transfer_obj;
}

// Copies null, booleans, integers, floats (and UNDEF) by value; false for
// every other type.
inline bool CopyScalar(zval* dst, const zval* src) {
  switch (Z_TYPE_P(src)) {
    case IS_UNDEF:
    case IS_NULL:
    case IS_FALSE:
    case IS_TRUE:
    case IS_LONG:
    case IS_DOUBLE:
      ZVAL_COPY_VALUE(dst, src);
      return true;
    default:
      return false;
  }
}

// A string of the graph copied once per source string (persistent memory
// for a transfer, the request's heap for a load): a string met again is
// the first copy with one more reference. The copy is never interned.
template <bool kPersistent>
zend_string* CopyString(Ctx* ctx, const zend_string* src) {
  if (auto* seen = XlatFind<zend_string>(ctx, src)) {
    return zend_string_copy(seen);
  }
  zend_string* copy =
      zend_string_init(ZSTR_VAL(src), ZSTR_LEN(src), kPersistent);
  XlatRecord(ctx, src, copy);
  return copy;
}

// Copies the entries of `src` into `dst` in order: each value with
// copy_value(ctx, &copy, value), each string key with copy_key(ctx, key),
// which returns a reference that is dropped once `dst` holds its own.
// Stops after the entry during which ctx->error was set (that entry's
// partial copy is stored, so `dst` stays releasable).
template <typename CopyValue, typename CopyKey>
void CopyEntries(Ctx* ctx, const HashTable* src, HashTable* dst,
                 CopyValue copy_value, CopyKey copy_key) {
  zend_ulong index;
  zend_string* key;
  zval* value;
  ZEND_HASH_FOREACH_KEY_VAL(src, index, key, value) {
    zval copy;
    copy_value(ctx, &copy, value);
    if (key != nullptr) {
      zend_string* copied_key = copy_key(ctx, key);
      zend_hash_add(dst, copied_key, &copy);
      zend_string_release(copied_key);
    } else {
      zend_hash_index_add(dst, index, &copy);
    }
    if (ctx->error != nullptr) break;
  }
  ZEND_HASH_FOREACH_END();
}

}  // namespace zar::core::thread_pool::internal

#endif  // ZAR_CORE_THREAD_POOL_TRANSFER_CTX_H_
