/*
 * zend-async-ref pdo_sim: the PDO connection pool (ext/pdo/pdo_pool.h,
 * TrueAsync's newest design: pool_bindings, owner_binding, session-dirty
 * pinning). docs/pdo_pool.md tells the whole story; in short:
 *
 *   A pooled PDO object is a *template*: it never connects. Its
 *   zend_async_pool_t (ZEND_ASYNC_NEW_POOL with the pool's C callbacks,
 *   user_data = the template) makes *slots*: pdo_dbh_t's connected by the
 *   driver from copies of the template's DSN and credentials.
 *
 *   Each coroutine (the main flow under key 0) gets a *binding* in
 *   template->pool_bindings the first time it needs a connection. The
 *   binding holds the slot while the slot is *pinned* - by a transaction
 *   (as the driver reports it), by live statements (pool_slot_refcount) or
 *   by session state (pool_session_dirty) - and gives it back to the pool
 *   as soon as nothing pins it: after exec(), commit(), rollBack(), the
 *   last statement's destruction, and when the coroutine ends (a callback
 *   on the coroutine's event; the pool's before_release rolls back).
 *
 * This header is the seam between PDO's core and its pool: the rest of
 * pdo_sim calls only what it declares, and the functions it declares are
 * all defined by the pool's sources (src/pdo/pdo_pool*.c, or a pdo_pool.c
 * of your own given to CMake as ZAR_PDO_POOL_SOURCE; docs/pdo_pool.md).
 * Whatever a pool keeps private (the binding's layout, the coroutine key,
 * its callbacks) stays in its own sources, with internal linkage or its
 * own header.
 *
 * Everything reaches the pool through the ABI macros only.
 *
 * Threading: the engine's thread. Every function may suspend the running
 * coroutine (acquire waits for a slot; release and the drivers' hooks may
 * do I/O) unless it says otherwise.
 */
#ifndef PDO_POOL_H
#define PDO_POOL_H

#include "php_pdo.h"
#include "php_pdo_driver.h"

BEGIN_EXTERN_C()

/* ---- The module ---------------------------------------------------------- */

/* Called from PDO's MINIT and MSHUTDOWN (before the drivers register, after
 * they unregistered). Never suspend. */
void pdo_pool_init(void);
void pdo_pool_shutdown(void);

/* ---- Template lifetime --------------------------------------------------- */

/* Creates the pool of a template if `options` enable it: reads and clamps
 * PDO::ATTR_POOL_MIN (< 0 -> 0), _MAX (< 1 -> 1, < MIN -> MIN),
 * _HEALTHCHECK_INTERVAL (< 0 -> 0, milliseconds), _STMT_CACHE_SIZE; keeps
 * a copy of `options` for the factory; then pre-warms MIN slots (all held,
 * then all released). Returns false when pooling is off or the pool could
 * not be made; an exception may be pending either way (a pre-warm factory
 * failure). */
bool pdo_pool_create(pdo_dbh_t *dbh, zval *options);

/* Tears the pool of a template down: every binding lets its slot go (or
 * just detaches when statements still borrow it) and is freed, or, when
 * its coroutine callback is registered, invalidated (the callback becomes
 * a no-op and the coroutine frees it); the getPool() object is released;
 * the pool is closed and the template's reference dropped. Slots still
 * borrowed are destroyed when their last statement lets go. */
void pdo_pool_destroy(pdo_dbh_t *dbh);

/* ---- Connections --------------------------------------------------------- */

/* The connection the running coroutine works on: `dbh` itself when not
 * pooled; else the binding's slot (a broken one is given back first), or
 * a slot acquired from the pool (waiting without limit). NULL with an
 * exception pending when the pool could not give one. */
pdo_dbh_t *pdo_pool_acquire_conn(pdo_dbh_t *dbh);

/* The connection the running coroutine holds: `dbh` when not pooled, the
 * bound slot, or NULL. Never acquires, never suspends. */
PDO_API pdo_dbh_t *pdo_pool_peek_conn(pdo_dbh_t *dbh);

/* Gives the running coroutine's slot back unless it is pinned (statements,
 * a transaction the driver reports, session state). The binding stays. */
void pdo_pool_maybe_release(pdo_dbh_t *dbh);

/* Called when the last statement borrowing `conn` lets go (its
 * pool_slot_refcount reached 0): gives the slot back unless its binding
 * still owns it and it is in a transaction or session-dirty. Works through
 * conn->pool, so after the PDO object is gone too. */
void pdo_pool_release_stmt_conn(pdo_dbh_t *conn);

/* The Async\Pool object of a pooled template (made on first use, cached;
 * borrowed), NULL when not pooled. */
zend_object *pdo_pool_get_wrapper(pdo_dbh_t *dbh);

/* Remembers a driver attribute set on a template, so that every slot,
 * present and future, gets it. Never suspends. */
void pdo_pool_record_conn_attribute(pdo_dbh_t *dbh, zend_long attr,
                                    zval *value);

/* Marks `conn` session-dirty when `sql` leaves session state behind: any
 * '@' (user variables), a leading SET, USE, LOCK, UNLOCK, FLUSH, HANDLER,
 * PREPARE, DEALLOCATE or XA, CREATE ... TEMPORARY, or GET_LOCK anywhere;
 * case-insensitive; leading whitespace and comments are skipped and every
 * ';'-separated statement is looked at. No-op for an unpooled handle.
 * Never suspends. */
void pdo_pool_note_statement(pdo_dbh_t *conn, const zend_string *sql);

/* ---- Per-coroutine error state (never suspend) --------------------------- */

/* Where `dbh`'s error code lives for the running coroutine: its binding's
 * ("00000" on a fresh binding), else the handle's own. */
PDO_API pdo_error_type *pdo_dbh_error_code(pdo_dbh_t *dbh);
/* The running coroutine's failed query() statement, or NULL. */
PDO_API pdo_stmt_t *pdo_dbh_get_last_failed_query_stmt(pdo_dbh_t *dbh);
/* Keeps `stmt` (its object reference `obj` is taken over) as the running
 * coroutine's failed query() statement, releasing the previous one. */
PDO_API void pdo_dbh_set_last_failed_query_stmt(pdo_dbh_t *dbh,
                                                pdo_stmt_t *stmt,
                                                zend_object *obj);
/* Releases the running coroutine's failed query() statement. May suspend
 * (releasing the statement may give its slot back). */
PDO_API void pdo_dbh_release_last_failed_query_stmt(pdo_dbh_t *dbh);

/* ---- Per-connection prepared-statement cache ----------------------------- */

/* An LRU of prepared statements keyed by normalized SQL, owned by a
 * driver's connection. lookup moves an entry to the most recently used
 * end; insert evicts the least recently used entry when full (handed to
 * the caller, who frees it); take removes an entry (a statement checks it
 * out while it runs). A capacity of 0 makes no cache (create returns NULL;
 * every function accepts NULL). Never suspend. */
typedef struct _pdo_pool_stmt_cache pdo_pool_stmt_cache_t;

typedef struct _pdo_pool_stmt_cache_entry {
  zend_string *nsql;      /* the key (one reference) */
  char *server_stmt_name; /* emalloc'd or NULL */
  void *driver_data;      /* the driver's prepared statement */
  void (*driver_data_dtor)(void *driver_data);
} pdo_pool_stmt_cache_entry_t;

PDO_API pdo_pool_stmt_cache_t *pdo_pool_stmt_cache_create(uint32_t capacity);
/* Frees the cache and every entry. */
PDO_API void pdo_pool_stmt_cache_destroy(pdo_pool_stmt_cache_t *cache);
/* The entry for `nsql` (moved to MRU, still cached), or NULL. */
PDO_API pdo_pool_stmt_cache_entry_t *pdo_pool_stmt_cache_lookup(
    pdo_pool_stmt_cache_t *cache, zend_string *nsql);
/* A new entry for `nsql` (REQUIRES: not cached) at the MRU end, to be
 * filled by the caller; *evicted_out receives the evicted LRU entry or
 * NULL. NULL when `cache` is NULL. */
PDO_API pdo_pool_stmt_cache_entry_t *pdo_pool_stmt_cache_insert(
    pdo_pool_stmt_cache_t *cache, zend_string *nsql,
    pdo_pool_stmt_cache_entry_t **evicted_out);
/* Removes the entry for `nsql` and returns it (the caller owns it), or
 * NULL. */
PDO_API pdo_pool_stmt_cache_entry_t *pdo_pool_stmt_cache_take(
    pdo_pool_stmt_cache_t *cache, zend_string *nsql);
PDO_API uint32_t pdo_pool_stmt_cache_size(const pdo_pool_stmt_cache_t *cache);
PDO_API uint32_t
pdo_pool_stmt_cache_capacity(const pdo_pool_stmt_cache_t *cache);
/* Frees an entry (its driver data through driver_data_dtor). */
PDO_API void pdo_pool_stmt_cache_entry_free(pdo_pool_stmt_cache_entry_t *entry);

/* ---- Inline -------------------------------------------------------------- */

/* Copies a slot's error code to the running coroutine's error state (no-op
 * when `conn` is `dbh`: not pooled). Never suspends. */
static inline void pdo_pool_sync_error(pdo_dbh_t *dbh, const pdo_dbh_t *conn) {
  if (conn != dbh) {
    memcpy(*pdo_dbh_error_code(dbh), conn->error_code, sizeof(pdo_error_type));
  }
}

END_EXTERN_C()

#endif /* PDO_POOL_H */
