#include "core/thread_pool/zval_transfer.h"

extern "C" {
#include "php.h"
}

namespace zar::core::thread_pool {
namespace {

void NotYet() {
  zend_throw_error(nullptr, "Zval transfer is not supported by zend-async-ref");
}

}  // namespace

void TransferZval(zend_async_thread_transfer_ctx_t*, zval* dst, const zval*) {
  ZVAL_NULL(dst);
  NotYet();
}
void LoadZval(zend_async_thread_transfer_ctx_t*, zval* dst, const zval*) {
  ZVAL_NULL(dst);
  NotYet();
}
void TransferZvalToplevel(zval* dst, const zval*) {
  ZVAL_NULL(dst);
  NotYet();
}
void LoadZvalToplevel(zval* dst, const zval*) {
  ZVAL_NULL(dst);
  NotYet();
}
void ReleaseTransferredZval(zval*) {}
void XlatPut(zend_async_thread_transfer_ctx_t*, const void*, void*) {}
void DeferRelease(zend_async_thread_transfer_ctx_t*, zval*) {}

}  // namespace zar::core::thread_pool
