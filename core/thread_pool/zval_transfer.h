// zend-async-ref core: the deep copy of zvals between threads, the thread
// pool group's transfer functions (php-async thread.c).
//
// Transfer copies a zval graph from the request's heap into persistent
// memory; load copies a transferred graph back into the current request's
// heap; release frees a transferred graph. Within one copy (one
// zend_async_thread_transfer_ctx_t) a value met twice is copied once
// (ctx->xlat maps old pointers to new ones), so identity and cycles
// survive.

#ifndef ZAR_CORE_THREAD_POOL_ZVAL_TRANSFER_H_
#define ZAR_CORE_THREAD_POOL_ZVAL_TRANSFER_H_

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::thread_pool {

void TransferZval(zend_async_thread_transfer_ctx_t* ctx, zval* dst,
                  const zval* src);
void LoadZval(zend_async_thread_transfer_ctx_t* ctx, zval* dst,
              const zval* src);
void TransferZvalToplevel(zval* dst, const zval* src);
void LoadZvalToplevel(zval* dst, const zval* src);
void ReleaseTransferredZval(zval* z);
void XlatPut(zend_async_thread_transfer_ctx_t* ctx, const void* src, void* dst);
void DeferRelease(zend_async_thread_transfer_ctx_t* ctx, zval* z);

}  // namespace zar::core::thread_pool

#endif  // ZAR_CORE_THREAD_POOL_ZVAL_TRANSFER_H_
