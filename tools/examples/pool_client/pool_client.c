/*
 * pool_client: an example extension over the TrueAsync Zend Async ABI
 * (php_pool_client.h describes what it does and why).
 *
 * Nothing here knows which async extension is loaded: everything goes
 * through the ZEND_ASYNC_* macros of Zend/zend_async_API.h, so the same
 * code builds against php-src with TrueAsync.
 */
#include "ext/spl/spl_exceptions.h"
#include "php_pool_client.h"

/* ---- Module globals ------------------------------------------------------
 * Non-ZTS, as the engine: plain statics. */

#define POOL_CLIENT_DEFAULT_SETTINGS                               \
  {                                                                \
    .min_connections = 1, .max_connections = 4, .latency_ms = 5,   \
    .max_queries_per_connection = 0, .healthcheck_interval_ms = 0, \
    .acquire_timeout_ms = 0,                                       \
  }

/* What php.ini would set; pool_client_configure() changes it. */
static pool_client_settings settings = POOL_CLIENT_DEFAULT_SETTINGS;

/* Per request (reset in RINIT). */
static struct {
  zend_async_pool_t* pool; /* made on the first query; owned */
  uint32_t next_id;        /* of the next connection */
  uint32_t generation;     /* of the "server" (pool_client_restart_server) */
  pool_client_stats stats;
} request;

static pool_client_connection* connection_of(const zval* resource) {
  return (pool_client_connection*)Z_PTR_P(resource);
}

/* ---- The pool's callbacks ------------------------------------------------
 * A C pool hands every callback the resource as a zval. Ours are IS_PTR:
 * the pool copies them around and never dereferences or refcounts them. */

/* factory: opens a connection. Returning false (an exception may be
 * pending) fails the acquire that needed it. */
static bool connection_open(zend_async_pool_t* pool, zval* result) {
  (void)pool;
  pool_client_connection* connection = emalloc(sizeof(*connection));
  connection->id = ++request.next_id;
  connection->generation = request.generation;
  connection->queries = 0;
  connection->broken = false;
  request.stats.opened++;
  ZVAL_PTR(result, connection);
  return true;
}

/* destructor: closes it. The pool then drops its zval (nothing to do for
 * IS_PTR). */
static void connection_close(zend_async_pool_t* pool, zval* resource) {
  (void)pool;
  efree(connection_of(resource));
  request.stats.closed++;
}

static bool connection_is_current(const pool_client_connection* connection) {
  return connection->generation == request.generation;
}

/* healthcheck: runs on idle connections every healthcheck_interval_ms;
 * false closes the connection. */
static bool connection_healthy(zend_async_pool_t* pool, zval* resource) {
  (void)pool;
  if (connection_is_current(connection_of(resource))) return true;
  request.stats.unhealthy++;
  return false;
}

/* before_acquire: an idle connection about to be lent out; false closes it
 * and the pool tries the next one (or opens a new one). */
static bool connection_before_acquire(zend_async_pool_t* pool, zval* resource) {
  (void)pool;
  if (connection_is_current(connection_of(resource))) return true;
  request.stats.stale++;
  return false;
}

/* before_release: a connection coming back; false closes it instead of
 * keeping it idle. */
static bool connection_before_release(zend_async_pool_t* pool, zval* resource) {
  (void)pool;
  const pool_client_connection* connection = connection_of(resource);
  const bool worn_out =
      settings.max_queries_per_connection != 0 &&
      connection->queries >= settings.max_queries_per_connection;
  if (!connection->broken && !worn_out) return true;
  request.stats.retired++;
  return false;
}

/* The request's pool, made on first use with the current settings. NULL
 * with an exception when it cannot be made. */
static zend_async_pool_t* get_pool(void) {
  if (request.pool == NULL) {
    request.pool = ZEND_ASYNC_NEW_POOL(
        connection_open, connection_close, connection_healthy,
        connection_before_acquire, connection_before_release,
        settings.min_connections, settings.max_connections,
        settings.healthcheck_interval_ms);
  }
  return request.pool;
}

/* ---- Waiting through the ABI -------------------------------------------- */

/* Suspends the current coroutine until a one-shot timer of `ms` fires.
 * False with the exception in flight when the coroutine was cancelled
 * meanwhile (or the wait could not start). */
static bool sleep_ms(uint32_t ms) {
  zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
  if (self == NULL) {
    /* The main script before any coroutine exists: it becomes the main
     * coroutine. */
    if (!ZEND_ASYNC_SCHEDULER_LAUNCH()) return false;
    self = ZEND_ASYNC_CURRENT_COROUTINE;
  }
  if (ZEND_ASYNC_WAKER_NEW(self) == NULL) return false;
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(ms, false);
  if (timer == NULL) {
    zend_async_waker_clean(self);
    return false;
  }
  /* trans_event = true: the waker owns the timer from here on. */
  zend_async_resume_when(self, &timer->base, true,
                         zend_async_waker_callback_resolve, NULL);
  if (EG(exception) == NULL) ZEND_ASYNC_SUSPEND();
  zend_async_waker_clean(self);
  return EG(exception) == NULL;
}

/* ---- The public C API -----------------------------------------------------
 */

PHPAPI pool_client_settings pool_client_default_settings(void) {
  const pool_client_settings defaults = POOL_CLIENT_DEFAULT_SETTINGS;
  return defaults;
}

PHPAPI void pool_client_configure(const pool_client_settings* new_settings) {
  settings = *new_settings;
}

PHPAPI pool_client_stats pool_client_get_stats(void) { return request.stats; }

PHPAPI void pool_client_restart_server(void) { request.generation++; }

PHPAPI zend_async_pool_t* pool_client_pool(void) { return request.pool; }

PHPAPI zend_result pool_client_query(const char* sql, zval* result) {
  zend_async_pool_t* pool = get_pool();
  if (pool == NULL) return FAILURE;

  zval resource;
  if (!ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, settings.acquire_timeout_ms)) {
    return FAILURE;
  }
  pool_client_connection* connection = connection_of(&resource);
  if (++request.stats.in_use > request.stats.peak_in_use) {
    request.stats.peak_in_use = request.stats.in_use;
  }

  /* The "work": other coroutines run while this one waits. */
  bool ok = sleep_ms(settings.latency_ms);
  if (!ok) {
    /* Cancelled mid-query: the connection's state is unknown. */
    connection->broken = true;
  } else if (strcmp(sql, "FAIL") == 0) {
    connection->broken = true;
    zend_throw_exception(spl_ce_RuntimeException, "connection lost", 0);
    ok = false;
  } else {
    connection->queries++;
    request.stats.queries++;
    ZVAL_STR(result, zend_strpprintf(0, "conn#%u: %s", connection->id, sql));
  }

  /* Release even on failure; before_release retires a broken connection.
   * Any exception in flight (the query's) stays the current one. */
  request.stats.in_use--;
  ZEND_ASYNC_POOL_RELEASE(pool, &resource);
  return ok ? SUCCESS : FAILURE;
}

/* A query coroutine's arguments, in coroutine->extended_data. */
typedef struct {
  zend_string* sql;
} query_job;

/* The internal entry of a query coroutine: no arguments, so it finds its
 * job through the current coroutine. Its result is the coroutine's; an
 * exception left in flight becomes the coroutine's outcome. */
static void query_entry(void) {
  zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
  const query_job* job = self->extended_data;
  pool_client_query(ZSTR_VAL(job->sql), &self->result);
}

/* Frees the job when the coroutine itself is freed. */
static void query_job_dispose(zend_coroutine_t* coroutine) {
  query_job* job = coroutine->extended_data;
  coroutine->extended_data = NULL;
  zend_string_release(job->sql);
  efree(job);
}

PHPAPI zend_coroutine_t* pool_client_query_async(const char* sql) {
  zend_coroutine_t* coroutine = ZEND_ASYNC_SPAWN();
  if (coroutine == NULL) return NULL;
  query_job* job = emalloc(sizeof(*job));
  job->sql = zend_string_init(sql, strlen(sql), false);
  coroutine->extended_data = job;
  coroutine->extended_dispose = query_job_dispose;
  coroutine->internal_entry = query_entry;
  /* The scheduler owns the coroutine; this reference is the caller's. */
  ZEND_ASYNC_EVENT_ADD_REF(&coroutine->event);
  return coroutine;
}

PHPAPI zend_result pool_client_await(zend_coroutine_t* coroutine,
                                     zval* result) {
  zend_async_event_t* event = &coroutine->event;
  ZVAL_UNDEF(result);
  if (!ZEND_COROUTINE_IS_FINISHED(coroutine)) {
    zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
    if (self == NULL) {
      if (!ZEND_ASYNC_SCHEDULER_LAUNCH()) goto done;
      self = ZEND_ASYNC_CURRENT_COROUTINE;
    }
    if (ZEND_ASYNC_WAKER_NEW(self) == NULL) goto done;
    /* trans_event = false: our reference keeps the coroutine alive. */
    zend_async_resume_when(self, event, false,
                           zend_async_waker_callback_resolve, NULL);
    if (EG(exception) == NULL) ZEND_ASYNC_SUSPEND();
    zend_async_waker_clean(self);
    /* Woken by the coroutine's exception, or cancelled while waiting. */
    if (EG(exception) != NULL) goto done;
  }
  /* Finished: its outcome, replayed (a copy of the result; its exception,
   * if any, is thrown here). */
  ZEND_ASYNC_EVENT_EXTRACT_RESULT_OR_ERROR(event, result, NULL);
done:
  ZEND_ASYNC_EVENT_RELEASE(event);
  return EG(exception) == NULL ? SUCCESS : FAILURE;
}

/* ---- The PHP function -----------------------------------------------------
 */

/* pool_client_query(string $sql): string */
PHP_FUNCTION(pool_client_query) {
  zend_string* sql;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_STR(sql)
  ZEND_PARSE_PARAMETERS_END();

  if (pool_client_query(ZSTR_VAL(sql), return_value) == FAILURE) {
    RETURN_THROWS();
  }
}

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_pool_client_query, 0, 1,
                                        IS_STRING, 0)
ZEND_ARG_TYPE_INFO(0, sql, IS_STRING, 0)
ZEND_END_ARG_INFO()

static const zend_function_entry pool_client_functions[] = {
    PHP_FE(pool_client_query, arginfo_pool_client_query) PHP_FE_END};

/* ---- The module ------------------------------------------------------------
 */

/* Checks the settings, as PHP validates INI entries: the module refuses
 * to start with a pool that could never lend a connection. */
static PHP_MINIT_FUNCTION(pool_client) {
  (void)type;
  (void)module_number;
  if (settings.max_connections == 0 ||
      settings.min_connections > settings.max_connections) {
    zend_error(E_CORE_WARNING,
               "pool_client: need 0 < max_connections and min_connections "
               "<= max_connections");
    return FAILURE;
  }
  return SUCCESS;
}

static PHP_RINIT_FUNCTION(pool_client) {
  (void)type;
  (void)module_number;
  memset(&request, 0, sizeof(request));
  return SUCCESS;
}

/* Runs after the scheduler has drained the request (every coroutine has
 * finished, so every connection is back), before the async extension's
 * own RSHUTDOWN. Closing destroys the idle connections; releasing our
 * reference frees the pool. */
static PHP_RSHUTDOWN_FUNCTION(pool_client) {
  (void)type;
  (void)module_number;
  if (request.pool != NULL) {
    zend_async_pool_t* pool = request.pool;
    request.pool = NULL;
    ZEND_ASYNC_POOL_CLOSE(pool);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }
  return SUCCESS;
}

zend_module_entry pool_client_module_entry = {
    STANDARD_MODULE_HEADER,
    "pool_client",
    pool_client_functions,
    PHP_MINIT(pool_client),
    NULL, /* MSHUTDOWN */
    PHP_RINIT(pool_client),
    PHP_RSHUTDOWN(pool_client),
    NULL, /* MINFO */
    "0.1.0",
    STANDARD_MODULE_PROPERTIES,
};
