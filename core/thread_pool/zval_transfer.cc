// The transfer and release halves of zval transfer (zval_transfer.h); the
// load half is zval_load.cc.

#include "core/thread_pool/zval_transfer.h"

#include <cstdint>
#include <cstring>

#include "absl/container/flat_hash_set.h"
#include "core/thread_pool/transfer_ctx.h"

extern "C" {
#include "php.h"
}

namespace zar::core::thread_pool {
namespace internal {
namespace {

constexpr char kDynamicPropertiesError[] =
    "Cannot transfer object with dynamic properties between threads";
constexpr char kResourceError[] = "Cannot transfer a resource between threads";
constexpr char kReferenceError[] =
    "Cannot transfer a reference between threads";
constexpr char kUnsupportedError[] =
    "Cannot transfer zval of unsupported type between threads";

// ---- Transfer: request heap -> persistent memory ----------------------------

void TransferInner(Ctx* ctx, zval* dst, const zval* src);

// Copies the entries in order (a refusal stops after the failing entry,
// whose partial copy is stored).
HashTable* TransferTable(Ctx* ctx, const HashTable* src) {
  DepthScope depth(ctx);
  if (!depth.entered()) return nullptr;
  if (HashTable* seen = XlatShared(ctx, src)) return seen;
  auto* dst = static_cast<HashTable*>(pemalloc(sizeof(HashTable), true));
  XlatRecord(ctx, src, dst);
  zend_hash_init(dst, zend_hash_num_elements(src), nullptr, nullptr, true);
  CopyEntries(ctx, src, dst, TransferInner, CopyString<true>);
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
  dst->ce =
      reinterpret_cast<zend_class_entry*>(CopyString<true>(ctx, ce->name));
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
  if (zend_object* seen = XlatShared(ctx, src)) return seen;
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
      ZVAL_STR(dst, CopyString<true>(ctx, Z_STR_P(src)));
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
  absl::flat_hash_set<const void*> seen_;
};

}  // namespace
}  // namespace internal

void TransferZval(zend_async_thread_transfer_ctx_t* ctx, zval* dst,
                  const zval* src) {
  internal::TransferInner(ctx, dst, src);
}

void TransferZvalToplevel(zval* dst, const zval* src) {
  internal::Ctx ctx;
  internal::CtxInit(&ctx);
  internal::TransferInner(&ctx, dst, src);
  const char* error = ctx.error;
  if (error != nullptr) {
    // Free the partial copy before throwing: nothing else can reach it.
    ReleaseTransferredZval(dst);
  }
  internal::CtxDestroy(&ctx);
  if (error != nullptr) zend_throw_error(nullptr, "%s", error);
}

void ReleaseTransferredZval(zval* z) {
  internal::Releaser().Zval(z);
  ZVAL_UNDEF(z);
}

void ReleaseTransferredZvals(zval** roots, size_t count) {
  internal::Releaser releaser;  // one visited set for every root
  for (size_t i = 0; i < count; i++) {
    releaser.Zval(roots[i]);
    ZVAL_UNDEF(roots[i]);
  }
}

void XlatPut(zend_async_thread_transfer_ctx_t* ctx, const void* src,
             void* dst) {
  internal::XlatRecord(ctx, src, dst);
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
