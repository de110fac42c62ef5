// The load half of zval transfer (zval_transfer.h): a transferred graph
// copied into the current request's heap.

#include <algorithm>
#include <cstdint>

#include "core/thread_pool/transfer_ctx.h"
#include "core/thread_pool/zval_transfer.h"

extern "C" {
#include "Zend/zend_enum.h"
#include "php.h"
}

namespace zar::core::thread_pool {
namespace internal {
namespace {

// ---- Load: persistent memory -> request heap --------------------------------

void LoadInner(Ctx* ctx, zval* dst, const zval* src);

HashTable* LoadTable(Ctx* ctx, const HashTable* src) {
  DepthScope depth(ctx);
  if (!depth.entered()) return nullptr;
  if (HashTable* seen = XlatShared(ctx, src)) return seen;
  auto* dst = static_cast<HashTable*>(emalloc(sizeof(HashTable)));
  XlatRecord(ctx, src, dst);
  zend_hash_init(dst, zend_hash_num_elements(src), nullptr, ZVAL_PTR_DTOR,
                 false);
  CopyEntries(ctx, src, dst, LoadInner, CopyString<false>);
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

  zend_object* dst;
  if (ce->create_object != nullptr) {
    dst = ce->create_object(ce);
  } else {
    dst = zend_objects_new(ce);
    object_properties_init(dst, ce);
  }
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
  if (zend_object* seen = XlatShared(ctx, src)) return seen;
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
      ZVAL_STR(dst, CopyString<false>(ctx, Z_STR_P(src)));
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
}  // namespace internal

void LoadZval(zend_async_thread_transfer_ctx_t* ctx, zval* dst,
              const zval* src) {
  internal::LoadInner(ctx, dst, src);
}

void LoadZvalToplevel(zval* dst, const zval* src) {
  internal::Ctx ctx;
  internal::CtxInit(&ctx);
  internal::LoadInner(&ctx, dst, src);
  internal::CtxDestroy(&ctx);
}

}  // namespace zar::core::thread_pool
