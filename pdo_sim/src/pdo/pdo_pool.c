/*
 * zend-async-ref pdo_sim: the PDO connection pool (pdo_pool.h).
 *
 *   template --pool_bindings--> binding (one per coroutine key)
 *                                 |  conn (NULL when released)
 *                                 v
 *                               slot <--owner_binding--
 *
 * A slot is in exactly one of three places: idle in the pool; lent and
 * owned by a binding (slot->owner_binding == binding, binding->conn ==
 * slot); lent and orphaned (no owner: its binding let go while statements
 * still borrow it; the last statement gives it back).
 * pdo_pool_detach_conn() breaks the link both ways before either side is
 * freed or handed on, and every give-back goes through
 * pdo_pool_release_conn(), which detaches first: a slot is given back
 * exactly once.
 *
 * Slots hold a reference on the pool (taken by the factory, dropped when
 * the slot is freed), so a statement can give its slot back after the PDO
 * object, and the template's pool reference, are gone.
 *
 * This file: bindings, the running coroutine's connection and error state.
 * pdo_pool_template.c: the template, its pool, the pool's callbacks.
 */
#include <string.h>

#include "pdo_pool_int.h"
#include "zend_async_ref/trace.h"

/* ---- Trace lines (docs/tracing.md) ---------------------------------------
 *
 *   pdo bind key=3 -> conn#1      the coroutine (key) now holds the slot
 *   pdo pin conn#1 (transaction)  a holder let go but the slot stays:
 *                                 a live statement, session state or a
 *                                 transaction pins it (pdo_pool_conn_pin)
 *   pdo release conn#1            the slot goes back to the pool */

static ZEND_COLD void trace_bind(zend_ulong key, const pdo_dbh_t *conn) {
  zend_async_ref_trace("pdo bind key=" ZEND_ULONG_FMT " -> conn#%u", key,
                       conn->pool_slot_id);
}

static ZEND_COLD void trace_pin(const pdo_dbh_t *conn,
                                pdo_pool_pin_reason reason) {
  zend_async_ref_trace("pdo pin conn#%u (%s)", conn->pool_slot_id,
                       pdo_pool_pin_name(reason));
}

/* Nothing process-wide: every pool belongs to its template. */
void pdo_pool_init(void) {}
void pdo_pool_shutdown(void) {}

zend_ulong pdo_pool_current_key(void) {
  zend_coroutine_t *coro = ZEND_ASYNC_CURRENT_COROUTINE;
  if (coro == NULL || ZEND_COROUTINE_IS_MAIN(coro)) return 0;
  if (ZEND_ASYNC_EVENT_IS_ZEND_OBJ(&coro->event)) {
    return (zend_ulong)ZEND_ASYNC_EVENT_TO_OBJECT(&coro->event)->handle;
  }
  return ((uintptr_t)coro) >> ZEND_MM_ALIGNMENT_LOG2;
}

bool pdo_pool_conn_in_transaction(pdo_dbh_t *conn) {
  if (conn->methods != NULL && conn->methods->in_transaction != NULL) {
    return conn->methods->in_transaction(conn);
  }
  return conn->in_txn;
}

pdo_pool_pin_reason pdo_pool_conn_pin(pdo_dbh_t *conn) {
  if (conn->pool_slot_refcount > 0) return PDO_POOL_PINNED_BY_STATEMENT;
  if (conn->owner_binding == NULL) return PDO_POOL_NOT_PINNED;
  if (conn->pool_session_dirty) return PDO_POOL_PINNED_BY_SESSION;
  if (pdo_pool_conn_in_transaction(conn)) {
    return PDO_POOL_PINNED_BY_TRANSACTION;
  }
  return PDO_POOL_NOT_PINNED;
}

const char *pdo_pool_pin_name(pdo_pool_pin_reason reason) {
  switch (reason) {
    case PDO_POOL_PINNED_BY_STATEMENT:
      return "statement";
    case PDO_POOL_PINNED_BY_SESSION:
      return "session";
    case PDO_POOL_PINNED_BY_TRANSACTION:
      return "transaction";
    case PDO_POOL_NOT_PINNED:
      break;
  }
  return "none";
}

bool pdo_pool_release_unless_pinned(pdo_dbh_t *conn) {
  const pdo_pool_pin_reason reason = pdo_pool_conn_pin(conn);
  if (reason != PDO_POOL_NOT_PINNED) {
    if (ZEND_ASYNC_REF_TRACING()) trace_pin(conn, reason);
    return false;
  }
  pdo_pool_release_conn(conn);
  return true;
}

void pdo_pool_detach_conn(pdo_dbh_t *conn) {
  if (conn->owner_binding != NULL) {
    conn->owner_binding->conn = NULL;
    conn->owner_binding = NULL;
  }
}

void pdo_pool_release_conn(pdo_dbh_t *conn) {
  zend_async_pool_t *pool = conn->pool;
  if (ZEND_ASYNC_REF_TRACING()) {
    zend_async_ref_trace("pdo release conn#%u", conn->pool_slot_id);
  }
  ZEND_ASYNC_EVENT_ADD_REF(&pool->event);
  pdo_pool_detach_conn(conn);
  zval resource;
  ZVAL_PTR(&resource, conn);
  ZEND_ASYNC_POOL_RELEASE(pool, &resource);
  ZEND_ASYNC_EVENT_RELEASE(&pool->event);
}

static pdo_pool_binding_t *current_binding(pdo_dbh_t *dbh) {
  if (dbh->pool == NULL || dbh->pool_bindings == NULL) return NULL;
  return zend_hash_index_find_ptr(dbh->pool_bindings, pdo_pool_current_key());
}

/* Releases the binding's failed query() statement (may give its slot
 * back, and so suspend). */
static void binding_release_query_stmt(pdo_pool_binding_t *binding) {
  zend_object *obj = binding->last_failed_query_stmt_obj;
  if (obj == NULL) return;
  binding->last_failed_query_stmt_obj = NULL;
  binding->last_failed_query_stmt = NULL;
  OBJ_RELEASE(obj);
}

/* ---- Bindings ------------------------------------------------------------ */

static void binding_dispose(zend_async_event_callback_t *callback,
                            zend_async_event_t *event) {
  (void)event;
  efree(callback);
}

/* The binding's coroutine finished: its transaction and session end with
 * it, so once detached only statements still borrowing the slot pin it
 * (the last of them gives it back); otherwise it goes back now (rolled
 * back by before_release). Then the binding is forgotten; the coroutine's
 * event frees it (dispose) right after. */
static void binding_on_coroutine_finish(zend_async_event_t *event,
                                        zend_async_event_callback_t *callback,
                                        void *result, zend_object *exception) {
  (void)event;
  (void)result;
  (void)exception;
  pdo_pool_binding_t *binding = (pdo_pool_binding_t *)callback;
  if (binding->dbh == NULL) return; /* the pool is gone */

  binding_release_query_stmt(binding);
  pdo_dbh_t *conn = binding->conn;
  if (conn != NULL) {
    pdo_pool_detach_conn(conn);
    pdo_pool_release_unless_pinned(conn);
  }
  /* A give-back may have suspended, and the PDO object died meanwhile. */
  if (binding->dbh == NULL) return;
  if (binding->dbh->pool_bindings != NULL) {
    zend_hash_index_del(binding->dbh->pool_bindings, binding->coro_key);
  }
}

static void binding_attach_callback(pdo_pool_binding_t *binding) {
  zend_coroutine_t *coro = ZEND_ASYNC_CURRENT_COROUTINE;
  if (binding->has_coro_callback || coro == NULL) return;
  coro->event.add_callback(&coro->event, &binding->event);
  binding->has_coro_callback = true;
}

pdo_dbh_t *pdo_pool_acquire_conn(pdo_dbh_t *dbh) {
  if (dbh->pool == NULL) return dbh;
  const zend_ulong key = pdo_pool_current_key();
  zval resource;

  pdo_pool_binding_t *binding =
      zend_hash_index_find_ptr(dbh->pool_bindings, key);
  if (binding != NULL) {
    /* Made before the scheduler launched: the main coroutine exists now. */
    binding_attach_callback(binding);
    if (EXPECTED(binding->conn != NULL)) {
      if (EXPECTED(!binding->conn->conn_broken)) return binding->conn;
      /* Broken: let it go (now, or with its last statement) and take a
       * fresh one. */
      pdo_dbh_t *old_conn = binding->conn;
      pdo_pool_detach_conn(old_conn);
      pdo_pool_release_unless_pinned(old_conn);
    }
    binding_release_query_stmt(binding);
    memcpy(binding->error_code, PDO_ERR_NONE, sizeof(pdo_error_type));
    if (!ZEND_ASYNC_POOL_ACQUIRE(dbh->pool, &resource, 0)) return NULL;
    binding->conn = Z_PTR(resource);
    binding->conn->owner_binding = binding;
    if (ZEND_ASYNC_REF_TRACING()) trace_bind(key, binding->conn);
    return binding->conn;
  }

  if (!ZEND_ASYNC_POOL_ACQUIRE(dbh->pool, &resource, 0)) return NULL;
  binding = ecalloc(1, sizeof(pdo_pool_binding_t));
  binding->event.ref_count = 1;
  binding->event.callback = binding_on_coroutine_finish;
  binding->event.dispose = binding_dispose;
  binding->dbh = dbh;
  binding->conn = Z_PTR(resource);
  binding->conn->owner_binding = binding;
  binding->coro_key = key;
  memcpy(binding->error_code, PDO_ERR_NONE, sizeof(pdo_error_type));
  zend_hash_index_update_ptr(dbh->pool_bindings, key, binding);
  if (ZEND_ASYNC_REF_TRACING()) trace_bind(key, binding->conn);
  /* Read after the acquire: waiting may have launched the scheduler. Once
   * registered, never removed. */
  binding_attach_callback(binding);
  return binding->conn;
}

pdo_dbh_t *pdo_pool_peek_conn(pdo_dbh_t *dbh) {
  if (dbh->pool == NULL) return dbh;
  const pdo_pool_binding_t *binding = current_binding(dbh);
  return binding != NULL ? binding->conn : NULL;
}

void pdo_pool_maybe_release(pdo_dbh_t *dbh) {
  pdo_pool_binding_t *binding = current_binding(dbh);
  if (binding == NULL || binding->conn == NULL) return;
  /* Owned by the binding: statements, session and transaction all pin. */
  pdo_pool_release_unless_pinned(binding->conn);
}

void pdo_pool_release_stmt_conn(pdo_dbh_t *conn) {
  /* No statement borrows it any more: a binding that still owns it gives
   * it back when its transaction or session ends; otherwise this was the
   * last holder. */
  pdo_pool_release_unless_pinned(conn);
}

/* ---- Per-coroutine error state ------------------------------------------- */

pdo_error_type *pdo_dbh_error_code(pdo_dbh_t *dbh) {
  pdo_pool_binding_t *binding = current_binding(dbh);
  return binding != NULL ? &binding->error_code : &dbh->error_code;
}

pdo_stmt_t *pdo_dbh_get_last_failed_query_stmt(pdo_dbh_t *dbh) {
  if (dbh->pool == NULL) return dbh->last_failed_query_stmt;
  pdo_pool_binding_t *binding = current_binding(dbh);
  return binding != NULL ? binding->last_failed_query_stmt : NULL;
}

void pdo_dbh_set_last_failed_query_stmt(pdo_dbh_t *dbh, pdo_stmt_t *stmt,
                                        zend_object *obj) {
  pdo_stmt_t **stmt_slot = &dbh->last_failed_query_stmt;
  zend_object **obj_slot = &dbh->last_failed_query_stmt_obj;
  if (dbh->pool != NULL) {
    pdo_pool_binding_t *binding = current_binding(dbh);
    if (binding == NULL) {
      OBJ_RELEASE(obj);
      return;
    }
    stmt_slot = &binding->last_failed_query_stmt;
    obj_slot = &binding->last_failed_query_stmt_obj;
  }
  zend_object *previous = *obj_slot;
  *stmt_slot = stmt;
  *obj_slot = obj;
  if (previous != NULL) OBJ_RELEASE(previous);
}

void pdo_dbh_release_last_failed_query_stmt(pdo_dbh_t *dbh) {
  if (dbh->pool == NULL) {
    zend_object *obj = dbh->last_failed_query_stmt_obj;
    if (obj == NULL) return;
    dbh->last_failed_query_stmt_obj = NULL;
    dbh->last_failed_query_stmt = NULL;
    OBJ_RELEASE(obj);
    return;
  }
  pdo_pool_binding_t *binding = current_binding(dbh);
  if (binding != NULL) binding_release_query_stmt(binding);
}
