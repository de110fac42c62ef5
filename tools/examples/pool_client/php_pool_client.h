/*
 * pool_client: an example PHP extension written against the TrueAsync
 * Zend Async ABI. It keeps a pool of fake "client connections" (think of a
 * database or cache client) in an Async\Pool made with ZEND_ASYNC_NEW_POOL
 * and C callbacks, and runs "queries" on them inside coroutines.
 *
 * What it shows (pool_client.c, in this order):
 *   - a connection is a C struct made by the pool's factory; the pool holds
 *     it as an opaque IS_PTR zval and never touches it;
 *   - the five pool callbacks: factory, destructor, healthcheck,
 *     before_acquire (reject stale connections), before_release (retire
 *     broken or worn-out ones);
 *   - a query acquires a connection (waiting, in arrival order, while all
 *     are in use), does its "work" by suspending the calling coroutine on a
 *     reactor timer, and releases the connection;
 *   - coroutines spawned from C with ZEND_ASYNC_SPAWN and an internal entry
 *     that reads its arguments from coroutine->extended_data;
 *   - the module entry: MINIT (settings), RINIT (per-request state),
 *     RSHUTDOWN (closes the request's pool), and a PHP function
 *     pool_client_query(string $sql): string.
 *
 * Load it after the async extension (which makes the ABI READY in its
 * RINIT); the pool is made on the first query of each request.
 *
 * Threading: the request's thread (non-ZTS, like the engine).
 */
#ifndef PHP_POOL_CLIENT_H
#define PHP_POOL_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include "Zend/zend_async_API.h"
#include "php.h"

BEGIN_EXTERN_C()

extern zend_module_entry pool_client_module_entry;
#define phpext_pool_client_ptr &pool_client_module_entry

/* What php.ini would hold. MINIT checks it; each request's pool is made
 * with the settings of the moment. */
typedef struct {
  uint32_t min_connections; /* opened when the pool is made (default 1) */
  uint32_t max_connections; /* open at the same time, at most (default 4) */
  uint32_t latency_ms;      /* how long a query "works" (default 5) */
  /* A connection that served this many queries is retired when it is
   * released (default 0: never). */
  uint32_t max_queries_per_connection;
  uint32_t healthcheck_interval_ms; /* 0 (default): no healthcheck */
  zend_long acquire_timeout_ms;     /* 0 (default): wait for ever */
} pool_client_settings;

/* The defaults above. */
PHPAPI pool_client_settings pool_client_default_settings(void);
/* Replaces the settings (as php.ini or ini_set would); they apply from
 * the next pool made, normally the next request's. */
PHPAPI void pool_client_configure(const pool_client_settings* settings);

/* A client connection: made by the pool's factory (emalloc), freed by its
 * destructor. */
typedef struct _pool_client_connection {
  uint32_t id;         /* 1, 2, ... in opening order, per request */
  uint32_t generation; /* the server generation it was opened in */
  uint32_t queries;    /* queries served */
  bool broken;         /* a query failed on it: it is retired on release */
} pool_client_connection;

/* What the request's pool did so far. */
typedef struct {
  uint32_t opened;    /* factory calls that made a connection */
  uint32_t closed;    /* destructor calls */
  uint32_t queries;   /* queries that succeeded */
  uint32_t stale;     /* rejected by before_acquire */
  uint32_t retired;   /* rejected by before_release */
  uint32_t unhealthy; /* rejected by the healthcheck */
  uint32_t in_use;    /* acquired now */
  uint32_t peak_in_use;
} pool_client_stats;

PHPAPI pool_client_stats pool_client_get_stats(void);

/* Runs `sql` on a pooled connection and writes the answer, a new string
 * "conn#<id>: <sql>", to `result`. Acquires a connection (waiting while
 * max_connections are in use; waiters are served in arrival order),
 * suspends the calling coroutine for latency_ms on a reactor timer (other
 * coroutines run meanwhile), then releases the connection. Called outside
 * a coroutine, it launches the scheduler first (the main script becomes
 * the main coroutine).
 *
 * The query "FAIL" fails on the server: RuntimeException "connection
 * lost", and its connection is retired.
 *
 * Returns SUCCESS, or FAILURE with the exception in flight:
 *   Async\PoolException          the pool could not be made or is closed
 *   Async\TimeoutException       no connection within acquire_timeout_ms
 *   RuntimeException             "connection lost"
 *   a cancellation of the calling coroutine (its connection is retired).
 * REQUIRES: a request is running. */
PHPAPI zend_result pool_client_query(const char* sql, zval* result);

/* Spawns a coroutine that runs pool_client_query(sql); its result (or
 * exception) becomes the coroutine's. Returns the coroutine with one
 * reference the caller owns (pool_client_await() releases it), or NULL with
 * an exception in flight. Await it before it can fail: an exception that
 * finds no awaiter is unhandled, which by default shuts the request down
 * gracefully. */
PHPAPI zend_coroutine_t* pool_client_query_async(const char* sql);

/* Waits (suspending the calling coroutine) until `coroutine` has finished,
 * then writes its result to `result` (SUCCESS) or puts its exception in
 * flight (FAILURE). Releases the caller's reference to `coroutine`. */
PHPAPI zend_result pool_client_await(zend_coroutine_t* coroutine, zval* result);

/* Simulates a server restart: every connection opened so far is stale and
 * is rejected by before_acquire and by the healthcheck. */
PHPAPI void pool_client_restart_server(void);

/* The request's pool (NULL before the first query), for inspection. */
PHPAPI zend_async_pool_t* pool_client_pool(void);

END_EXTERN_C()

#endif /* PHP_POOL_CLIENT_H */
