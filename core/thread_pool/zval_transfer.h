// zend-async-ref core: the deep copy of zvals between threads, the thread
// pool group's transfer functions (php-async thread.c, "Zval transfer").
//
// Transfer copies a zval graph from the request's heap into persistent
// memory (a "transferred graph"); load copies a transferred graph into the
// current request's heap; release frees a transferred graph. Within one
// copy (one zend_async_thread_transfer_ctx_t) a value met twice is copied
// once: ctx->xlat maps each source pointer to its copy, and a node enters
// xlat before its children are copied, so identity and cycles survive.
//
// What is copied: null, bool, int and float by value; strings into new
// persistent strings (interned ones too) and back into request strings;
// arrays into persistent tables (keys and order kept); objects either by
// their handlers' transfer_obj, or by default: the declared property slots,
// with the class carried by name and resolved again on load (enum cases
// resolve to the loading request's case). IS_PTR is passed through on
// transfer (the pointer is neither copied nor freed) and loads as null.
// Refused, with the partial copy left well formed: resources, references,
// objects with dynamic properties, other types, and nesting deeper than
// 512 arrays/objects.
//
// A transferred object is a "transit shell", not a live object: its `ce`
// holds the class name (a persistent zend_string), its `handlers` the
// number of property slots, its `extra_flags` the handlers' offset (where
// the allocation starts) and it is in no object store. Only load and
// release may read a shell.
//
// Threading: a transferred graph is immutable once built and may be read
// (loaded) from any thread, by one loader at a time or by several, as load
// never writes to it. Transfer runs on the thread that owns the source
// heap, load on the thread that owns the destination heap; release on any
// thread, once, after the last load. A ctx belongs to one thread.
//
// Ownership: the transferred graph belongs to the caller, who frees it
// exactly once with ReleaseTransferredZval (shared and cyclic parts are
// freed once), or, for several roots of one ctx, with
// ReleaseTransferredZvals. A loaded value is an ordinary request value owned by
// `dst`.

#ifndef ZAR_CORE_THREAD_POOL_ZVAL_TRANSFER_H_
#define ZAR_CORE_THREAD_POOL_ZVAL_TRANSFER_H_

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::thread_pool {

// Copies `src` into persistent memory at `dst` within `ctx` (for
// transfer_obj handlers copying their children). On a refusal sets
// ctx->error (upstream's message) and leaves in `dst` the partial copy,
// every slot of it initialised, which belongs to the enclosing graph.
// REQUIRES: ctx->error is NULL.
void TransferZval(zend_async_thread_transfer_ctx_t* ctx, zval* dst,
                  const zval* src);

// Copies the transferred `src` into the request's heap at `dst` within
// `ctx`. A class missing on load throws Error ("Cannot load transferred
// object: class "X" not found") and loads a stdClass in its place.
void LoadZval(zend_async_thread_transfer_ctx_t* ctx, zval* dst,
              const zval* src);

// TransferZval with a fresh ctx. On a refusal frees the partial copy,
// leaves `dst` UNDEF and throws Error with ctx->error's message.
void TransferZvalToplevel(zval* dst, const zval* src);

// LoadZval with a fresh ctx; values deferred with DeferRelease during the
// load are released when it ends.
void LoadZvalToplevel(zval* dst, const zval* src);

// Frees the transferred graph at `z` (every string, table and shell once)
// and leaves `z` UNDEF. Shells whose class has transfer_obj get a
// ZEND_OBJECT_TRANSFER_RELEASE call first.
void ReleaseTransferredZval(zval* z);

// Frees the transferred graphs at roots[0..count) under one visited set
// (ZEND_ASYNC_THREAD_RELEASE_TRANSFERRED_ZVALS, ABI v0.24): the roots of one
// transfer (one ctx) may share tables and shells, which are freed once;
// releasing them one by one would free a shared node twice. Leaves every
// root UNDEF.
void ReleaseTransferredZvals(zval** roots, size_t count);

// Records that `src` was copied to `dst` in `ctx` (for transfer_obj
// handlers that build their copy themselves).
void XlatPut(zend_async_thread_transfer_ctx_t* ctx, const void* src, void* dst);

// Moves `z` into `ctx`, to be released when the toplevel call that made
// `ctx` ends; leaves `z` UNDEF.
void DeferRelease(zend_async_thread_transfer_ctx_t* ctx, zval* z);

}  // namespace zar::core::thread_pool

#endif  // ZAR_CORE_THREAD_POOL_ZVAL_TRANSFER_H_
