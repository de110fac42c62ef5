/*
 * zend-async-ref pdo_sim: what the pool's files share (pdo_pool.c: the
 * bindings; pdo_pool_template.c: the template, its pool and the pool's
 * callbacks that make and check slots).
 */
#ifndef PDO_POOL_INT_H
#define PDO_POOL_INT_H

#include "Zend/zend_async_API.h"
#include "pdo_pool.h"

BEGIN_EXTERN_C()

/* A coroutine's hold on a pooled handle: template->pool_bindings[key]. It
 * is the callback registered on the coroutine's event, which frees it
 * (dispose) after the coroutine finished. */
struct _pdo_pool_binding {
  zend_async_event_callback_t event; /* must be first (callback cast) */
  pdo_dbh_t *dbh;         /* the template; NULL once the pool is destroyed */
  pdo_dbh_t *conn;        /* the slot held, NULL when released */
  zend_ulong coro_key;    /* the key in dbh->pool_bindings */
  bool has_coro_callback; /* registered on the coroutine's event */

  /* The coroutine's failed query() statement (owned reference). */
  pdo_stmt_t *last_failed_query_stmt;
  zend_object *last_failed_query_stmt_obj;

  pdo_error_type error_code; /* the coroutine's error state */
};

/* The key of the running coroutine in pool_bindings: 0 for no coroutine
 * and for the main coroutine (stable across the scheduler's launch), the
 * object handle of a coroutine object, else its address >> alignment.
 * Never suspends. */
zend_ulong pdo_pool_current_key(void);

/* The server's view: a transaction opened with raw SQL, or implicitly with
 * autocommit off, counts (the driver's in_transaction, else in_txn). */
bool pdo_pool_conn_in_transaction(pdo_dbh_t *conn);

/* Why a lent slot must not go back to the pool yet. */
typedef enum {
  PDO_POOL_NOT_PINNED = 0,
  PDO_POOL_PINNED_BY_STATEMENT,   /* live statements borrow it */
  PDO_POOL_PINNED_BY_SESSION,     /* session state set on it */
  PDO_POOL_PINNED_BY_TRANSACTION, /* a transaction open on the server */
} pdo_pool_pin_reason;

/* The pool's one rule for "may this slot go back?", asked wherever a
 * holder lets go (an operation ends, the last statement is freed, the
 * coroutine ends, a broken slot is replaced, the pool is destroyed):
 *
 *   - live statements (pool_slot_refcount > 0) pin the slot, whoever
 *     holds it;
 *   - session state (pool_session_dirty), then an open transaction
 *     (pdo_pool_conn_in_transaction), pin it only while a coroutine owns
 *     it (owner_binding): they are that coroutine's, and end with it (the
 *     pool's before_release rolls back, resets the session or drops the
 *     slot). A caller letting go for the coroutine detaches first.
 *
 * The first reason that holds, in that order. Asks the driver only when
 * the slot is owned, unborrowed and clean. Never suspends. */
pdo_pool_pin_reason pdo_pool_conn_pin(pdo_dbh_t *conn);

/* "statement", "session", "transaction" (the trace's words), "none". */
const char *pdo_pool_pin_name(pdo_pool_pin_reason reason);

/* Gives `conn` back (pdo_pool_release_conn) unless pdo_pool_conn_pin()
 * pins it; a pinned slot stays, traced as "pdo pin conn#N (<reason>)".
 * Returns whether it was given back. May suspend. */
bool pdo_pool_release_unless_pinned(pdo_dbh_t *conn);

/* Breaks the link between a slot and its owning binding (both ways). */
void pdo_pool_detach_conn(pdo_dbh_t *conn);

/* Gives a lent slot back to its pool, exactly once: detaches it first, and
 * holds a pool reference for the call (giving back into a closed pool
 * destroys the slot, which drops the slot's own reference). May suspend. */
void pdo_pool_release_conn(pdo_dbh_t *conn);

END_EXTERN_C()

#endif /* PDO_POOL_INT_H */
