/*
 * zend-async-ref pdo_sim: a pooled template and its pool (pdo_pool.h):
 * creating and destroying the pool, and the callbacks the pool calls to
 * make, destroy, check and hand over slots.
 *
 * A slot is a pdo_dbh_t the driver connects from copies of the template's
 * DSN and credentials; it holds a reference on the pool until it is freed.
 * The hooks run driver code with any exception in flight parked (a slot
 * given back by a method that is already failing): that exception stays
 * the one in flight, and one the driver raises meanwhile becomes its
 * previous (ZEND_MOCK_PARKED_STAYS_CURRENT).
 */
#include <string.h>

#include "mock_zend/exception_park.h"
#include "pdo_pool_int.h"

/* ---- Slots: the pool's callbacks ----------------------------------------- */

static void free_conn(pdo_dbh_t *conn) {
  if (conn->methods != NULL && conn->methods->closer != NULL) {
    conn->methods->closer(conn);
  }
  if (conn->pool != NULL) {
    zend_async_pool_t *pool = conn->pool;
    conn->pool = NULL;
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }
  if (conn->data_source != NULL) efree((char *)conn->data_source);
  if (conn->username != NULL) efree(conn->username);
  if (conn->password != NULL) efree(conn->password);
  efree(conn);
}

/* Pushes the template's recorded attributes onto a slot (driver refusals
 * were reported when setAttribute() was called). */
static void apply_conn_attributes(const pdo_dbh_t *dbh, pdo_dbh_t *conn) {
  if (dbh == NULL || dbh->pool_conn_attributes == NULL ||
      conn->methods == NULL || conn->methods->set_attribute == NULL) {
    return;
  }
  zend_ulong attr;
  zval *value;
  ZEND_HASH_FOREACH_NUM_KEY_VAL(dbh->pool_conn_attributes, attr, value) {
    conn->methods->set_attribute(conn, (zend_long)attr, value);
  }
  ZEND_HASH_FOREACH_END();
}

static bool pool_factory(zend_async_pool_t *pool, zval *result) {
  pdo_dbh_t *dbh = (pdo_dbh_t *)pool->user_data;
  if (dbh == NULL || dbh->driver == NULL) return false;

  pdo_dbh_t *conn = ecalloc(1, sizeof(pdo_dbh_t));
  conn->pool_slot_id = ++dbh->pool_slot_id;
  conn->driver = dbh->driver;
  conn->auto_commit = dbh->auto_commit;
  conn->error_mode = dbh->error_mode;
  conn->default_fetch_type = dbh->default_fetch_type;
  memcpy(conn->error_code, PDO_ERR_NONE, sizeof(pdo_error_type));
  ZVAL_UNDEF(&conn->pool_driver_options);

  /* The driver may rewrite these (pgsql turns ';' into ' ', mysql fills
   * the user from the DSN, odbc rebuilds the DSN): it gets copies. */
  conn->data_source = estrdup(dbh->data_source);
  conn->data_source_len = dbh->data_source_len;
  conn->username = dbh->username != NULL ? estrdup(dbh->username) : NULL;
  conn->password = dbh->password != NULL ? estrdup(dbh->password) : NULL;

  /* The slot's pool: the driver finds the template through it. */
  conn->pool = pool;
  ZEND_ASYNC_EVENT_ADD_REF(&pool->event);

  zval *options = Z_TYPE(dbh->pool_driver_options) == IS_ARRAY
                      ? (zval *)&dbh->pool_driver_options
                      : NULL;
  if (!dbh->driver->db_handle_factory(conn, options)) {
    free_conn(conn);
    return false;
  }
  apply_conn_attributes(dbh, conn);

  efree((char *)conn->data_source);
  conn->data_source = NULL;
  if (conn->username != NULL) {
    efree(conn->username);
    conn->username = NULL;
  }
  if (conn->password != NULL) {
    efree(conn->password);
    conn->password = NULL;
  }
  ZVAL_PTR(result, conn);
  return true;
}

static void pool_destructor(zend_async_pool_t *pool, zval *resource) {
  (void)pool;
  pdo_dbh_t *conn = Z_PTR_P(resource);
  if (conn == NULL) return;
  pdo_pool_detach_conn(conn);
  zend_mock_parked_exception parked = zend_mock_exception_park();
  free_conn(conn);
  zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_STAYS_CURRENT);
}

static bool pool_healthcheck(zend_async_pool_t *pool, zval *resource) {
  (void)pool;
  pdo_dbh_t *conn = Z_PTR_P(resource);
  if (conn == NULL || conn->methods == NULL) return false;
  if (conn->methods->check_liveness == NULL) return true;
  return conn->methods->check_liveness(conn) == SUCCESS;
}

static bool pool_before_acquire(zend_async_pool_t *pool, zval *resource) {
  pdo_dbh_t *conn = Z_PTR_P(resource);
  if (conn == NULL || conn->methods == NULL) return false;
  zend_mock_parked_exception parked = zend_mock_exception_park();
  bool keep = true;
  if (conn->methods->pool_before_acquire != NULL &&
      !conn->methods->pool_before_acquire(conn)) {
    keep = false;
  } else {
    /* The slot may predate setAttribute() calls on the template. */
    apply_conn_attributes((const pdo_dbh_t *)pool->user_data, conn);
  }
  zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_STAYS_CURRENT);
  return keep;
}

static bool pool_before_release(zend_async_pool_t *pool, zval *resource) {
  (void)pool;
  pdo_dbh_t *conn = Z_PTR_P(resource);
  if (conn == NULL || conn->conn_broken) return false;
  zend_mock_parked_exception parked = zend_mock_exception_park();
  bool keep = true;
  if (conn->methods != NULL) {
    /* Ask the driver, not in_txn: a transaction opened with raw SQL must
     * not reach the next coroutine. */
    if (pdo_pool_conn_in_transaction(conn) && conn->methods->rollback != NULL) {
      conn->methods->rollback(conn);
    }
    conn->in_txn = false;
  }
  if (conn->methods != NULL && conn->methods->pool_before_release != NULL) {
    keep = conn->methods->pool_before_release(conn);
  } else if (conn->pool_session_dirty &&
             (conn->methods == NULL ||
              conn->methods->pool_before_acquire == NULL)) {
    /* Nobody can reset the session: the slot must not be reused. */
    keep = false;
  }
  /* A dirty slot kept stays marked: the driver clears the mark when it
   * resets the session, here or when the slot is next acquired
   * (pdo_mysql's way). */
  if (conn->conn_broken) keep = false;
  if (keep) memcpy(conn->error_code, PDO_ERR_NONE, sizeof(pdo_error_type));
  zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_STAYS_CURRENT);
  return keep;
}

/* ---- Template lifetime --------------------------------------------------- */

static zend_long clamp_u32(zend_long value) {
  if (value < 0) return 0;
  if (value > (zend_long)UINT32_MAX) return (zend_long)UINT32_MAX;
  return value;
}

bool pdo_pool_create(pdo_dbh_t *dbh, zval *options) {
  if (!pdo_attr_lval(options, PDO_ATTR_POOL_ENABLED, 0)) return false;

  zend_long min_size = pdo_attr_lval(options, PDO_ATTR_POOL_MIN, 0);
  zend_long max_size = pdo_attr_lval(options, PDO_ATTR_POOL_MAX, 10);
  zend_long interval =
      pdo_attr_lval(options, PDO_ATTR_POOL_HEALTHCHECK_INTERVAL, 0);
  zend_long cache_size =
      pdo_attr_lval(options, PDO_ATTR_POOL_STMT_CACHE_SIZE, 0);
  min_size = clamp_u32(min_size);
  if (max_size < 1) max_size = 1;
  max_size = clamp_u32(max_size);
  if (max_size < min_size) max_size = min_size;
  interval = clamp_u32(interval);
  dbh->pool_stmt_cache_size = (uint32_t)clamp_u32(cache_size);
  memcpy(dbh->error_code, PDO_ERR_NONE, sizeof(pdo_error_type));

  dbh->pool = ZEND_ASYNC_NEW_POOL(pool_factory, pool_destructor,
                                  pool_healthcheck, pool_before_acquire,
                                  pool_before_release, (uint32_t)min_size,
                                  (uint32_t)max_size, (uint32_t)interval);
  if (dbh->pool == NULL) return false;
  dbh->pool->user_data = dbh;
  if (options != NULL && Z_TYPE_P(options) == IS_ARRAY) {
    ZVAL_COPY(&dbh->pool_driver_options, options);
  }
  dbh->pool_bindings = emalloc(sizeof(HashTable));
  zend_hash_init(dbh->pool_bindings, 8, NULL, NULL, 0);

  /* The pool's own pre-warm ran before user_data was set (the factory had
   * no template and made nothing): warm up now, holding every slot so that
   * each try makes a new one, then give them all back. */
  if (min_size > 0) {
    zval *warm = safe_emalloc((size_t)min_size, sizeof(zval), 0);
    zend_long warmed = 0;
    while (warmed < min_size &&
           ZEND_ASYNC_POOL_TRY_ACQUIRE(dbh->pool, &warm[warmed])) {
      warmed++;
    }
    while (warmed-- > 0) ZEND_ASYNC_POOL_RELEASE(dbh->pool, &warm[warmed]);
    efree(warm);
  }
  return true;
}

/* What a binding held when the pool was destroyed. */
typedef struct {
  pdo_dbh_t *release_now; /* a slot no statement borrows, or NULL */
  zend_object *query_stmt_obj;
} held_by_binding;

void pdo_pool_destroy(pdo_dbh_t *dbh) {
  /* First detach everything without suspending: bindings with a coroutine
   * callback are invalidated (the callback becomes a no-op and the
   * coroutine frees them), the others freed. Only then give slots back
   * (which may suspend, while other coroutines run). */
  held_by_binding *held = NULL;
  uint32_t held_count = 0;
  if (dbh->pool_bindings != NULL) {
    HashTable *bindings = dbh->pool_bindings;
    dbh->pool_bindings = NULL;
    held = safe_emalloc(zend_hash_num_elements(bindings) + 1,
                        sizeof(held_by_binding), 0);
    pdo_pool_binding_t *binding;
    ZEND_HASH_FOREACH_PTR(bindings, binding) {
      held_by_binding *item = &held[held_count++];
      /* Detached, a slot is pinned only by statements still borrowing it,
       * and the last of them gives it back (this failed query()'s
       * statement may be that one). Decided now: once detached, only its
       * statements can reach it. */
      pdo_dbh_t *conn = binding->conn;
      item->release_now = NULL;
      if (conn != NULL) {
        pdo_pool_detach_conn(conn);
        if (pdo_pool_conn_pin(conn) == PDO_POOL_NOT_PINNED) {
          item->release_now = conn;
        }
      }
      item->query_stmt_obj = binding->last_failed_query_stmt_obj;
      binding->last_failed_query_stmt_obj = NULL;
      binding->last_failed_query_stmt = NULL;
      if (binding->has_coro_callback) {
        binding->dbh = NULL;
      } else {
        efree(binding);
      }
    }
    ZEND_HASH_FOREACH_END();
    zend_hash_destroy(bindings);
    efree(bindings);
  }
  for (uint32_t i = 0; i < held_count; i++) {
    if (held[i].release_now != NULL) pdo_pool_release_conn(held[i].release_now);
    if (held[i].query_stmt_obj != NULL) OBJ_RELEASE(held[i].query_stmt_obj);
  }
  if (held != NULL) efree(held);

  if (dbh->pool_wrapper != NULL) {
    zend_object *wrapper = dbh->pool_wrapper;
    dbh->pool_wrapper = NULL;
    OBJ_RELEASE(wrapper);
  }
  if (dbh->pool != NULL) {
    zend_async_pool_t *pool = dbh->pool;
    dbh->pool = NULL;
    pool->user_data = NULL; /* no template for the factory any more */
    ZEND_ASYNC_POOL_CLOSE(pool);
    ZEND_ASYNC_EVENT_RELEASE(&pool->event);
  }
  zval_ptr_dtor(&dbh->pool_driver_options);
  ZVAL_UNDEF(&dbh->pool_driver_options);
  if (dbh->pool_conn_attributes != NULL) {
    zend_hash_destroy(dbh->pool_conn_attributes);
    efree(dbh->pool_conn_attributes);
    dbh->pool_conn_attributes = NULL;
  }
}

zend_object *pdo_pool_get_wrapper(pdo_dbh_t *dbh) {
  if (dbh->pool == NULL) return NULL;
  if (dbh->pool_wrapper == NULL) {
    dbh->pool_wrapper = ZEND_ASYNC_NEW_POOL_OBJ(dbh->pool);
  }
  return dbh->pool_wrapper;
}

void pdo_pool_record_conn_attribute(pdo_dbh_t *dbh, zend_long attr,
                                    zval *value) {
  if (dbh->pool == NULL) return;
  if (dbh->pool_conn_attributes == NULL) {
    dbh->pool_conn_attributes = emalloc(sizeof(HashTable));
    zend_hash_init(dbh->pool_conn_attributes, 8, NULL, ZVAL_PTR_DTOR, 0);
  }
  zval copy;
  ZVAL_COPY(&copy, value);
  zend_hash_index_update(dbh->pool_conn_attributes, (zend_ulong)attr, &copy);
}
