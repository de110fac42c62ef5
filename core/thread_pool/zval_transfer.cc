#include "core/thread_pool/zval_transfer.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <unordered_set>

extern "C" {
#include "Zend/zend_enum.h"
#include "php.h"
}

namespace zar::core::thread_pool {
namespace {

using Ctx = zend_async_thread_transfer_ctx_t;

// Upstream's THREAD_TRANSFER_MAX_DEPTH: arrays and objects nested deeper
// than this are refused (the walk is recursive).
constexpr uint32_t kMaxDepth = 512;

constexpr char kDepthError[] =
    "Maximum nesting depth exceeded during thread data transfer";
constexpr char kDynamicPropertiesError[] =
    "Cannot transfer object with dynamic properties between threads";
constexpr char kResourceError[] = "Cannot transfer a resource between threads";
constexpr char kReferenceError[] =
    "Cannot transfer a reference between threads";
constexpr char kUnsupportedError[] =
    "Cannot transfer zval of unsupported type between threads";

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

zend_ulong XlatKey(const void* ptr) {
  return static_cast<zend_ulong>(reinterpret_cast<uintptr_t>(ptr));
}

template <typename T>
T* XlatFind(const Ctx* ctx, const void* src) {
  return static_cast<T*>(zend_hash_index_find_ptr(&ctx->xlat, XlatKey(src)));
}

void XlatRecord(Ctx* ctx, const void* src, void* dst) {
  zend_hash_index_update_ptr(&ctx->xlat, XlatKey(src), dst);
}

void CtxInit(Ctx* ctx) {
  zend_hash_init(&ctx->xlat, 32, nullptr, nullptr, 0);
  ctx->depth = 0;
  ctx->defer_release = nullptr;
  ctx->error = nullptr;
}

void CtxDestroy(Ctx* ctx) {
  if (ctx->defer_release != nullptr) {
    zend_hash_destroy(ctx->defer_release);
    efree(ctx->defer_release);
    ctx->defer_release = nullptr;
  }
  zend_hash_destroy(&ctx->xlat);
}

// The fields of a transit shell (see the header).
zend_string* ShellClassName(const zend_object* shell) {
  return reinterpret_cast<zend_string*>(shell->ce);
}
uint32_t ShellSlotCount(const zend_object* shell) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(shell->handlers));
}

zend_class_entry* FindClass(const zend_string* name) {
  return zend_lookup_class(const_cast<zend_string*>(name));
}

zend_object_transfer_obj_t ClassTransferHandler(const zend_class_entry* ce) {
  if (ce == nullptr || ce->default_object_handlers == nullptr) return nullptr;
  return ce->default_object_handlers->transfer_obj;
}

// Copies null, booleans, integers, floats (and UNDEF) by value; false for
// every other type.
bool CopyScalar(zval* dst, const zval* src) {
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

// ---- Transfer: request heap -> persistent memory ----------------------------

void TransferInner(Ctx* ctx, zval* dst, const zval* src);

zend_string* TransferString(Ctx* ctx, const zend_string* src) {
  if (auto* seen = XlatFind<zend_string>(ctx, src)) {
    GC_ADDREF(seen);
    return seen;
  }
  zend_string* copy = zend_string_init(ZSTR_VAL(src), ZSTR_LEN(src), true);
  XlatRecord(ctx, src, copy);
  return copy;
}

// Copies the entries in order. On a refusal the failing entry's partial
// copy is still stored, so the table stays reachable and releasable.
HashTable* TransferTable(Ctx* ctx, const HashTable* src) {
  DepthScope depth(ctx);
  if (!depth.entered()) return nullptr;
  if (auto* seen = XlatFind<HashTable>(ctx, src)) {
    GC_ADDREF(seen);
    return seen;
  }
  auto* dst = static_cast<HashTable*>(pemalloc(sizeof(HashTable), true));
  XlatRecord(ctx, src, dst);
  zend_hash_init(dst, zend_hash_num_elements(src), nullptr, nullptr, true);

  zend_ulong index;
  zend_string* key;
  zval* value;
  ZEND_HASH_FOREACH_KEY_VAL(src, index, key, value) {
    zval copy;
    TransferInner(ctx, &copy, value);
    if (key != nullptr) {
      zend_string* persistent_key = TransferString(ctx, key);
      zend_hash_add(dst, persistent_key, &copy);
      zend_string_release(persistent_key);
    } else {
      zend_hash_index_add(dst, index, &copy);
    }
    if (ctx->error != nullptr) break;
  }
  ZEND_HASH_FOREACH_END();
  return dst;
}

// The default copy (also handed to transfer_obj handlers): a zeroed
// persistent block of `alloc_size` bytes (0: the handlers' offset, the
// object and its declared slots) holding a shell, entered in xlat before
// the slots are copied. On a refusal the failing slot keeps its partial
// copy and the later slots are UNDEF.
zend_object* TransferObjectDefault(const zend_object* src, Ctx* ctx,
                                   size_t alloc_size) {
  zend_class_entry* ce = src->ce;
  const uint32_t slots = static_cast<uint32_t>(ce->default_properties_count);
  const size_t offset = static_cast<size_t>(src->handlers->offset);
  const size_t object_size =
      sizeof(zend_object) + zend_object_properties_size(ce);
  if (alloc_size == 0) alloc_size = offset + object_size;

  char* base = static_cast<char*>(pecalloc(1, alloc_size, true));
  auto* dst = reinterpret_cast<zend_object*>(base + offset);
  std::memcpy(static_cast<void*>(dst), src, object_size);
  GC_SET_REFCOUNT(dst, 1);
  dst->extra_flags = static_cast<uint32_t>(offset);
  dst->ce = reinterpret_cast<zend_class_entry*>(TransferString(ctx, ce->name));
  dst->handlers = reinterpret_cast<const zend_object_handlers*>(
      static_cast<uintptr_t>(slots));
  dst->properties = nullptr;
  XlatRecord(ctx, src, dst);

  for (uint32_t i = 0; i < slots; i++) {
    zval* slot = &dst->properties_table[i];
    if (Z_TYPE(src->properties_table[i]) == IS_UNDEF) continue;
    TransferInner(ctx, slot, &src->properties_table[i]);
    if (ctx->error != nullptr) {
      for (uint32_t j = i + 1; j < slots; j++) {
        ZVAL_UNDEF(&dst->properties_table[j]);
      }
      break;
    }
  }
  return dst;
}

zend_object* TransferObject(Ctx* ctx, const zend_object* src) {
  DepthScope depth(ctx);
  if (!depth.entered()) return nullptr;
  if (auto* seen = XlatFind<zend_object>(ctx, src)) {
    GC_ADDREF(seen);
    return seen;
  }
  if (src->handlers->transfer_obj != nullptr) {
    zend_object* dst = src->handlers->transfer_obj(
        const_cast<zend_object*>(src), ctx, ZEND_OBJECT_TRANSFER,
        TransferObjectDefault);
    if (dst != nullptr) XlatRecord(ctx, src, dst);
    return dst;
  }
  // A properties table lists declared slots as IS_INDIRECT entries once it
  // has been built; anything else in it is a dynamic property.
  if (src->properties != nullptr) {
    zval* value;
    ZEND_HASH_FOREACH_VAL(src->properties, value) {
      if (Z_TYPE_P(value) != IS_INDIRECT) {
        ctx->error = kDynamicPropertiesError;
        return nullptr;
      }
    }
    ZEND_HASH_FOREACH_END();
  }
  return TransferObjectDefault(src, ctx, 0);
}

void TransferInner(Ctx* ctx, zval* dst, const zval* src) {
  if (CopyScalar(dst, src)) return;
  switch (Z_TYPE_P(src)) {
    case IS_STRING:
      ZVAL_STR(dst, TransferString(ctx, Z_STR_P(src)));
      return;
    case IS_ARRAY:
      if (HashTable* copy = TransferTable(ctx, Z_ARRVAL_P(src))) {
        ZVAL_ARR(dst, copy);
      } else {
        ZVAL_NULL(dst);
      }
      return;
    case IS_OBJECT:
      if (zend_object* copy = TransferObject(ctx, Z_OBJ_P(src))) {
        ZVAL_OBJ(dst, copy);
      } else {
        ZVAL_NULL(dst);
      }
      return;
    case IS_PTR:
      // Opaque: the caller keeps the pointee alive and frees it.
      ZVAL_PTR(dst, Z_PTR_P(src));
      return;
    case IS_RESOURCE:
      ctx->error = kResourceError;
      break;
    case IS_REFERENCE:
      ctx->error = kReferenceError;
      break;
    default:
      ctx->error = kUnsupportedError;
      break;
  }
  ZVAL_NULL(dst);
}

// ---- Release: free a transferred graph --------------------------------------

// Walks a transferred graph freeing each table and shell on its first visit
// (keyed by address, so a shared or cyclic node is freed once). Strings are
// counted: every occurrence in the graph holds one reference.
class Releaser {
 public:
  void Zval(zval* z) {
    switch (Z_TYPE_P(z)) {
      case IS_STRING:
        zend_string_release(Z_STR_P(z));
        break;
      case IS_ARRAY:
        Table(Z_ARRVAL_P(z));
        break;
      case IS_OBJECT:
        Shell(Z_OBJ_P(z));
        break;
      default:
        break;
    }
  }

 private:
  void Table(HashTable* ht) {
    if (!seen_.insert(ht).second) return;
    zval* value;
    ZEND_HASH_FOREACH_VAL(ht, value) { Zval(value); }
    ZEND_HASH_FOREACH_END();
    zend_hash_destroy(ht);
    pefree(ht, true);
  }

  void Shell(zend_object* shell) {
    if (!seen_.insert(shell).second) return;
    zend_string* class_name = ShellClassName(shell);
    if (zend_object_transfer_obj_t handler =
            ClassTransferHandler(FindClass(class_name))) {
      handler(shell, nullptr, ZEND_OBJECT_TRANSFER_RELEASE, nullptr);
    }
    const uint32_t slots = ShellSlotCount(shell);
    for (uint32_t i = 0; i < slots; i++) Zval(&shell->properties_table[i]);
    zend_string_release(class_name);
    pefree(reinterpret_cast<char*>(shell) - shell->extra_flags, true);
  }

  // Tables and shells already freed (compared by address only).
  std::unordered_set<const void*> seen_;
};

// ---- Load: persistent memory -> request heap --------------------------------

void LoadInner(Ctx* ctx, zval* dst, const zval* src);

zend_string* LoadString(Ctx* ctx, const zend_string* src) {
  if (auto* seen = XlatFind<zend_string>(ctx, src)) {
    return zend_string_copy(seen);
  }
  zend_string* copy = zend_string_init(ZSTR_VAL(src), ZSTR_LEN(src), false);
  XlatRecord(ctx, src, copy);
  return copy;
}

HashTable* LoadTable(Ctx* ctx, const HashTable* src) {
  DepthScope depth(ctx);
  if (!depth.entered()) return nullptr;
  if (auto* seen = XlatFind<HashTable>(ctx, src)) {
    GC_ADDREF(seen);
    return seen;
  }
  auto* dst = static_cast<HashTable*>(emalloc(sizeof(HashTable)));
  XlatRecord(ctx, src, dst);
  zend_hash_init(dst, zend_hash_num_elements(src), nullptr, ZVAL_PTR_DTOR,
                 false);

  zend_ulong index;
  zend_string* key;
  zval* value;
  ZEND_HASH_FOREACH_KEY_VAL(src, index, key, value) {
    zval copy;
    LoadInner(ctx, &copy, value);
    if (key != nullptr) {
      zend_string* request_key = LoadString(ctx, key);
      zend_hash_add(dst, request_key, &copy);
      zend_string_release(request_key);
    } else {
      zend_hash_index_add(dst, index, &copy);
    }
  }
  ZEND_HASH_FOREACH_END();
  return dst;
}

// What a shell loads as when its class cannot be resolved (an exception is
// in flight).
zend_object* LoadFallback() {
  return zend_objects_new(zend_standard_class_def);
}

// The default load (also handed to transfer_obj handlers; `alloc_size` is
// unused): the class resolved by name, then a new object of it (or the
// request's enum case), entered in xlat before its slots are loaded.
zend_object* LoadObjectDefault(const zend_object* src, Ctx* ctx,
                               size_t /*alloc_size*/) {
  const zend_string* class_name = ShellClassName(src);
  const uint32_t src_slots = ShellSlotCount(src);
  zend_class_entry* ce = FindClass(class_name);
  if (ce == nullptr) {
    if (EG(exception) == nullptr) {
      zend_throw_error(nullptr,
                       "Cannot load transferred object: class \"%s\" not found",
                       ZSTR_VAL(class_name));
    }
    return LoadFallback();
  }

  if (ce->ce_flags & ZEND_ACC_ENUM) {
    // Cases are singletons: slot 0 carries the case name.
    const zval* case_name = &src->properties_table[0];
    if (src_slots >= 1 && Z_TYPE_P(case_name) == IS_STRING) {
      zend_string* name =
          zend_string_init(Z_STRVAL_P(case_name), Z_STRLEN_P(case_name), false);
      zend_object* canonical = zend_enum_get_case(ce, name);
      zend_string_release(name);
      if (canonical != nullptr) {
        GC_ADDREF(canonical);
        XlatRecord(ctx, src, canonical);
        return canonical;
      }
    }
    zend_throw_error(nullptr, "Cannot resolve transferred enum case for \"%s\"",
                     ZSTR_VAL(class_name));
    return LoadFallback();
  }

  zend_object* dst = ce->create_object != nullptr ? ce->create_object(ce)
                                                  : zend_objects_new(ce);
  XlatRecord(ctx, src, dst);
  const uint32_t slots =
      std::min(src_slots, static_cast<uint32_t>(ce->default_properties_count));
  for (uint32_t i = 0; i < slots; i++) {
    const zval* value = &src->properties_table[i];
    if (Z_TYPE_P(value) == IS_UNDEF) continue;
    zval copy;
    LoadInner(ctx, &copy, value);
    zval_ptr_dtor(&dst->properties_table[i]);
    ZVAL_COPY_VALUE(&dst->properties_table[i], &copy);
  }
  return dst;
}

zend_object* LoadObject(Ctx* ctx, const zend_object* src) {
  DepthScope depth(ctx);
  if (!depth.entered()) return nullptr;
  if (auto* seen = XlatFind<zend_object>(ctx, src)) {
    GC_ADDREF(seen);
    return seen;
  }
  if (zend_object_transfer_obj_t handler =
          ClassTransferHandler(FindClass(ShellClassName(src)))) {
    zend_object* dst = handler(const_cast<zend_object*>(src), ctx,
                               ZEND_OBJECT_LOAD, LoadObjectDefault);
    if (dst != nullptr) XlatRecord(ctx, src, dst);
    return dst;
  }
  return LoadObjectDefault(src, ctx, 0);
}

void LoadInner(Ctx* ctx, zval* dst, const zval* src) {
  if (CopyScalar(dst, src)) return;
  switch (Z_TYPE_P(src)) {
    case IS_STRING:
      ZVAL_STR(dst, LoadString(ctx, Z_STR_P(src)));
      return;
    case IS_ARRAY:
      if (HashTable* copy = LoadTable(ctx, Z_ARRVAL_P(src))) {
        ZVAL_ARR(dst, copy);
        return;
      }
      break;
    case IS_OBJECT:
      if (zend_object* copy = LoadObject(ctx, Z_OBJ_P(src))) {
        ZVAL_OBJ(dst, copy);
        return;
      }
      break;
    default:
      // IS_PTR included, as upstream: it loads as null.
      break;
  }
  ZVAL_NULL(dst);
}

}  // namespace

void TransferZval(zend_async_thread_transfer_ctx_t* ctx, zval* dst,
                  const zval* src) {
  TransferInner(ctx, dst, src);
}

void LoadZval(zend_async_thread_transfer_ctx_t* ctx, zval* dst,
              const zval* src) {
  LoadInner(ctx, dst, src);
}

void TransferZvalToplevel(zval* dst, const zval* src) {
  Ctx ctx;
  CtxInit(&ctx);
  TransferInner(&ctx, dst, src);
  const char* error = ctx.error;
  if (error != nullptr) {
    // Free the partial copy before throwing: nothing else can reach it.
    ReleaseTransferredZval(dst);
  }
  CtxDestroy(&ctx);
  if (error != nullptr) zend_throw_error(nullptr, "%s", error);
}

void LoadZvalToplevel(zval* dst, const zval* src) {
  Ctx ctx;
  CtxInit(&ctx);
  LoadInner(&ctx, dst, src);
  CtxDestroy(&ctx);
}

void ReleaseTransferredZval(zval* z) {
  Releaser().Zval(z);
  ZVAL_UNDEF(z);
}

void XlatPut(zend_async_thread_transfer_ctx_t* ctx, const void* src,
             void* dst) {
  XlatRecord(ctx, src, dst);
}

void DeferRelease(zend_async_thread_transfer_ctx_t* ctx, zval* z) {
  if (ctx->defer_release == nullptr) {
    ctx->defer_release = static_cast<HashTable*>(emalloc(sizeof(HashTable)));
    zend_hash_init(ctx->defer_release, 8, nullptr, ZVAL_PTR_DTOR, 0);
  }
  zend_hash_next_index_insert(ctx->defer_release, z);
  ZVAL_UNDEF(z);
}

}  // namespace zar::core::thread_pool
