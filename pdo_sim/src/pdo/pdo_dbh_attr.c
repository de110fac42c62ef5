/*
 * zend-async-ref pdo_sim: the PDO class's attributes and introspection
 * (php-src's ext/pdo/pdo_dbh.c, continued).
 *
 * Handle-level attributes (error mode, fetch mode, the pool's) live on the
 * handle, a pool's template included; driver attributes go to the running
 * coroutine's slot and, under a pool, are recorded so that every slot gets
 * them. Introspection (lastInsertId, errorCode, errorInfo) only peeks at
 * the coroutine's slot: it never takes one.
 */
#include <string.h>

#include "Zend/zend_async_API.h"
#include "pdo_pool.h"
#include "php_pdo_int.h"

/* ---- Attributes ---------------------------------------------------------- */

/* Why PDO::ATTR_ERRMODE or PDO::ATTR_DEFAULT_FETCH_MODE (`attr`) refuses
 * `mode` (the ValueError's text), or NULL when it takes it. */
static const char *mode_refusal(zend_long attr, zend_long mode) {
  if (attr == PDO_ATTR_ERRMODE) {
    return mode >= PDO_ERRMODE_SILENT && mode <= PDO_ERRMODE_EXCEPTION
               ? NULL
               : "Error mode must be one of the PDO::ERRMODE_* constants";
  }
  return mode != PDO_FETCH_USE_DEFAULT
             ? NULL
             : "Fetch mode must be a bitmask of PDO::FETCH_* constants";
}

/* `constructing`: a constructor option; under a pool, driver attributes
 * are only recorded (no slot is opened at construction). */
bool pdo_dbh_attribute_set(pdo_dbh_t *dbh, zend_long attr, zval *value,
                           uint32_t value_arg_num, bool constructing) {
  zend_long lval;
  bool bval;
  switch (attr) {
    case PDO_ATTR_ERRMODE:
    case PDO_ATTR_DEFAULT_FETCH_MODE: {
      if (!pdo_get_long_param(&lval, value)) return false;
      const char *refusal = mode_refusal(attr, lval);
      if (refusal != NULL) {
        zend_argument_value_error(value_arg_num, "%s", refusal);
        return false;
      }
      if (attr == PDO_ATTR_ERRMODE) {
        dbh->error_mode = (uint8_t)lval;
      } else {
        dbh->default_fetch_type = (uint16_t)lval;
      }
      return true;
    }
    case PDO_ATTR_STRINGIFY_FETCHES:
      if (!pdo_get_bool_param(&bval, value)) return false;
      dbh->stringify = bval;
      return true;
    case PDO_ATTR_POOL_ENABLED:
    case PDO_ATTR_POOL_MIN:
    case PDO_ATTR_POOL_MAX:
    case PDO_ATTR_POOL_HEALTHCHECK_INTERVAL:
    case PDO_ATTR_POOL_STMT_CACHE_SIZE:
      pdo_raise_impl_error(dbh, NULL, "IM001",
                           "the PDO::ATTR_POOL_* attributes are "
                           "construction-only and cannot be set at runtime");
      return false;
    default:
      break;
  }

  if (dbh->methods == NULL || dbh->methods->set_attribute == NULL) {
    pdo_raise_impl_error(dbh, NULL, "IM001",
                         "driver does not support setting attributes");
    return false;
  }
  if (dbh->pool != NULL && constructing) {
    pdo_pool_record_conn_attribute(dbh, attr, value);
    return true;
  }
  pdo_dbh_t *conn = pdo_pool_acquire_conn(dbh);
  if (conn == NULL) {
    pdo_raise_acquire_failure(dbh);
    return false;
  }
  memcpy(conn->error_code, PDO_ERR_NONE, sizeof(pdo_error_type));
  const bool ok = conn->methods->set_attribute(conn, attr, value);
  pdo_pool_sync_error(dbh, conn);
  if (ok) {
    /* Every slot, present and future, gets it. */
    pdo_pool_record_conn_attribute(dbh, attr, value);
  } else if (EG(exception) == NULL) {
    PDO_HANDLE_DBH_ERR();
  }
  pdo_pool_maybe_release(dbh);
  return ok;
}

PHP_METHOD(PDO, setAttribute) {
  zend_long attr;
  zval *value;
  ZEND_PARSE_PARAMETERS_START(2, 2)
  Z_PARAM_LONG(attr)
  Z_PARAM_ZVAL(value)
  ZEND_PARSE_PARAMETERS_END();
  pdo_dbh_t *dbh = Z_PDO_DBH_P(ZEND_THIS);
  PDO_CONSTRUCT_CHECK;
  pdo_dbh_clear_err(dbh);
  RETURN_BOOL(pdo_dbh_attribute_set(dbh, attr, value, 2, false));
}

PHP_METHOD(PDO, getAttribute) {
  zend_long attr;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_LONG(attr)
  ZEND_PARSE_PARAMETERS_END();
  pdo_dbh_t *dbh = Z_PDO_DBH_P(ZEND_THIS);
  PDO_CONSTRUCT_CHECK;
  pdo_dbh_clear_err(dbh);

  switch (attr) {
    case PDO_ATTR_PERSISTENT:
      RETURN_BOOL(dbh->is_persistent);
    case PDO_ATTR_ERRMODE:
      RETURN_LONG(dbh->error_mode);
    case PDO_ATTR_DRIVER_NAME:
      RETURN_STRINGL(dbh->driver->driver_name, dbh->driver->driver_name_len);
    case PDO_ATTR_DEFAULT_FETCH_MODE:
      RETURN_LONG(dbh->default_fetch_type);
    case PDO_ATTR_STRINGIFY_FETCHES:
      RETURN_BOOL(dbh->stringify);
    case PDO_ATTR_POOL_ENABLED:
      RETURN_BOOL(dbh->pool != NULL);
    case PDO_ATTR_POOL_MIN:
      if (dbh->pool == NULL) RETURN_FALSE;
      RETURN_LONG(dbh->pool->min_size);
    case PDO_ATTR_POOL_MAX:
      if (dbh->pool == NULL) RETURN_FALSE;
      RETURN_LONG(dbh->pool->max_size);
    case PDO_ATTR_POOL_STMT_CACHE_SIZE:
      if (dbh->pool == NULL) RETURN_FALSE;
      RETURN_LONG(dbh->pool_stmt_cache_size);
    case PDO_ATTR_POOL_HEALTHCHECK_INTERVAL:
      if (dbh->pool == NULL) RETURN_FALSE;
      pdo_raise_impl_error(dbh, NULL, "IM001",
                           "PDO::ATTR_POOL_HEALTHCHECK_INTERVAL is a "
                           "construction-only attribute and cannot be read "
                           "at runtime");
      RETURN_FALSE;
    default:
      break;
  }

  if (dbh->methods == NULL || dbh->methods->get_attribute == NULL) {
    pdo_raise_impl_error(dbh, NULL, "IM001",
                         "driver does not support getting attributes");
    RETURN_FALSE;
  }
  pdo_dbh_t *conn = pdo_pool_acquire_conn(dbh);
  if (conn == NULL) {
    pdo_raise_acquire_failure(dbh);
    RETURN_FALSE;
  }
  switch (conn->methods->get_attribute(conn, attr, return_value)) {
    case -1:
      pdo_pool_sync_error(dbh, conn);
      PDO_HANDLE_DBH_ERR();
      pdo_pool_maybe_release(dbh);
      RETURN_FALSE;
    case 0:
      pdo_pool_maybe_release(dbh);
      pdo_raise_impl_error(dbh, NULL, "IM001",
                           "driver does not support that attribute");
      RETURN_FALSE;
    default:
      pdo_pool_maybe_release(dbh);
      return;
  }
}

/* ---- Introspection ------------------------------------------------------- */

PHP_METHOD(PDO, lastInsertId) {
  zend_string *name = NULL;
  ZEND_PARSE_PARAMETERS_START(0, 1)
  Z_PARAM_OPTIONAL
  Z_PARAM_STR_OR_NULL(name)
  ZEND_PARSE_PARAMETERS_END();
  pdo_dbh_t *dbh = Z_PDO_DBH_P(ZEND_THIS);
  PDO_CONSTRUCT_CHECK;
  pdo_dbh_clear_err(dbh);
  if (dbh->methods->last_id == NULL) {
    pdo_raise_impl_error(dbh, NULL, "IM001",
                         "driver does not support lastInsertId()");
    RETURN_FALSE;
  }
  /* The slot that ran the INSERT is gone once it was given back. */
  pdo_dbh_t *conn = pdo_pool_peek_conn(dbh);
  if (conn == NULL) RETURN_FALSE;
  zend_string *id = conn->methods->last_id(conn, name);
  pdo_pool_sync_error(dbh, conn);
  if (id == NULL) {
    PDO_HANDLE_DBH_ERR();
    RETURN_FALSE;
  }
  RETURN_STR(id);
}

PHP_METHOD(PDO, errorCode) {
  ZEND_PARSE_PARAMETERS_NONE();
  pdo_dbh_t *dbh = Z_PDO_DBH_P(ZEND_THIS);
  PDO_CONSTRUCT_CHECK;
  pdo_stmt_t *query_stmt = pdo_dbh_get_last_failed_query_stmt(dbh);
  if (query_stmt != NULL) RETURN_STRING(query_stmt->error_code);
  const char *code = *pdo_dbh_error_code(dbh);
  if (code[0] == '\0') RETURN_NULL();
  RETURN_STRING(code);
}

PHP_METHOD(PDO, errorInfo) {
  ZEND_PARSE_PARAMETERS_NONE();
  pdo_dbh_t *dbh = Z_PDO_DBH_P(ZEND_THIS);
  PDO_CONSTRUCT_CHECK;
  array_init(return_value);
  pdo_stmt_t *query_stmt = pdo_dbh_get_last_failed_query_stmt(dbh);
  const char *code =
      query_stmt != NULL ? query_stmt->error_code : *pdo_dbh_error_code(dbh);
  add_next_index_string(return_value, code);
  if (strcmp(code, PDO_ERR_NONE) != 0 && code[0] != '\0' &&
      dbh->methods->fetch_err != NULL) {
    /* Through the slot the coroutine holds (never acquires). */
    pdo_dbh_t *conn = query_stmt != NULL ? pdo_stmt_conn(query_stmt)
                                         : pdo_pool_peek_conn(dbh);
    if (conn != NULL && conn->driver_data != NULL) {
      conn->methods->fetch_err(conn, query_stmt, return_value);
    }
  }
  while (zend_hash_num_elements(Z_ARRVAL_P(return_value)) < 3) {
    add_next_index_null(return_value);
  }
}

PHP_METHOD(PDO, getPool) {
  ZEND_PARSE_PARAMETERS_NONE();
  pdo_dbh_t *dbh = Z_PDO_DBH_P(ZEND_THIS);
  PDO_CONSTRUCT_CHECK;
  zend_object *pool = pdo_pool_get_wrapper(dbh);
  if (pool == NULL) RETURN_NULL();
  RETURN_OBJ_COPY(pool);
}
