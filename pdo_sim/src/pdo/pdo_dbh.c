/*
 * zend-async-ref pdo_sim: the PDO class (php-src's ext/pdo/pdo_dbh.c).
 *
 * Every method that talks to the database asks pdo_pool_acquire_conn()
 * for the connection to use (the handle itself when not pooled, else the
 * running coroutine's slot), and the ones that may leave the slot unpinned
 * end with pdo_pool_maybe_release(). Read-only introspection (inTransaction,
 * lastInsertId, errorCode, errorInfo) only peeks: it never takes a slot.
 * An error is reported (pdo_handle_error) while the slot is still held, so
 * the driver's native code and message are available, and the slot is
 * given back afterwards.
 *
 * This file: construction, statements, transactions, the object.
 * pdo_dbh_attr.c: attributes and introspection.
 */
#include <string.h>

#include "pdo_pool.h"
#include "php_pdo_int.h"

static zend_object_handlers pdo_dbh_object_handlers_storage;

void pdo_dbh_clear_err(pdo_dbh_t *dbh) {
  memcpy(*pdo_dbh_error_code(dbh), PDO_ERR_NONE, sizeof(pdo_error_type));
  pdo_dbh_release_last_failed_query_stmt(dbh);
}

void pdo_raise_acquire_failure(pdo_dbh_t *dbh) {
  /* A cancellation of the waiting coroutine stays what it is: wrapped in a
   * PDOException it would no longer end the coroutine as cancelled. */
  if (EG(exception) != NULL &&
      instanceof_function(EG(exception)->ce, zend_ce_cancellation)) {
    memcpy(*pdo_dbh_error_code(dbh), "HY000", sizeof(pdo_error_type));
    return;
  }
  pdo_raise_impl_error(dbh, NULL, "HY000",
                       "Failed to acquire connection from pool");
}

/* ---- Construction -------------------------------------------------------- */

static bool is_pool_attribute(zend_ulong attr) {
  return attr >= PDO_ATTR_POOL_ENABLED && attr <= PDO_ATTR_POOL_STMT_CACHE_SIZE;
}

PHP_METHOD(PDO, __construct) {
  (void)return_value;
  zend_string *dsn;
  zend_string *username = NULL;
  zend_string *password = NULL;
  HashTable *options_ht = NULL;
  ZEND_PARSE_PARAMETERS_START(1, 4)
  Z_PARAM_STR(dsn)
  Z_PARAM_OPTIONAL
  Z_PARAM_STR_OR_NULL(username)
  Z_PARAM_STR_OR_NULL(password)
  Z_PARAM_ARRAY_HT_OR_NULL(options_ht)
  ZEND_PARSE_PARAMETERS_END();

  pdo_dbh_t *dbh = Z_PDO_DBH_P(ZEND_THIS);
  if (dbh->driver != NULL) {
    zend_throw_error(NULL, "PDO object is already initialized");
    RETURN_THROWS();
  }
  zval options_zv;
  zval *options = NULL;
  if (options_ht != NULL) {
    ZVAL_ARR(&options_zv, options_ht); /* borrowed */
    options = &options_zv;
  }

  const char *colon = strchr(ZSTR_VAL(dsn), ':');
  if (colon == NULL) {
    zend_argument_error(pdo_exception_ce, 1,
                        "must be a valid data source name");
    RETURN_THROWS();
  }
  pdo_driver_t *driver =
      pdo_find_driver(ZSTR_VAL(dsn), (size_t)(colon - ZSTR_VAL(dsn)));
  if (driver == NULL) {
    /* The DSN may hold a password: not in the message. */
    zend_throw_exception_ex(pdo_exception_ce, 0, "could not find driver");
    RETURN_THROWS();
  }

  const bool is_persistent = pdo_attr_lval(options, PDO_ATTR_PERSISTENT, 0);
  const bool pooled = pdo_attr_lval(options, PDO_ATTR_POOL_ENABLED, 0);
  if (is_persistent && pooled) {
    zend_throw_exception_ex(
        pdo_exception_ce, 0,
        "PDO::ATTR_POOL_ENABLED cannot be used with PDO::ATTR_PERSISTENT");
    RETURN_THROWS();
  }

  dbh->is_persistent = is_persistent;
  dbh->data_source_len = strlen(colon + 1);
  dbh->data_source = estrdup(colon + 1);
  dbh->username = username != NULL ? estrdup(ZSTR_VAL(username)) : NULL;
  dbh->password = password != NULL ? estrdup(ZSTR_VAL(password)) : NULL;
  dbh->default_fetch_type = PDO_FETCH_BOTH;
  dbh->auto_commit = pdo_attr_lval(options, PDO_ATTR_AUTOCOMMIT, 1);
  dbh->error_mode =
      (uint8_t)pdo_attr_lval(options, PDO_ATTR_ERRMODE, PDO_ERRMODE_EXCEPTION);

  if (pooled && driver->db_handle_init_methods != NULL) {
    /* A template: it never connects (driver_data stays NULL). */
    bool supports_pool = false;
    driver->db_handle_init_methods(dbh, &supports_pool);
    if (EG(exception) != NULL) {
      dbh->methods = NULL;
      RETURN_THROWS();
    }
    if (!supports_pool) {
      dbh->methods = NULL;
      zend_throw_exception_ex(
          pdo_exception_ce, 0,
          "Driver \"%s\" does not support PDO::ATTR_POOL_ENABLED",
          driver->driver_name);
      RETURN_THROWS();
    }
    dbh->driver = driver;
    /* Before the other attributes: driver attributes are recorded for the
     * slots. A pre-warm failure leaves its exception in flight. */
    pdo_pool_create(dbh, options);
    if (EG(exception) != NULL) RETURN_THROWS();
  } else {
    if (!driver->db_handle_factory(dbh, options)) {
      if (EG(exception) == NULL) {
        zend_throw_exception(pdo_exception_ce, "Constructor failed", 0);
      }
      RETURN_THROWS();
    }
    dbh->driver = driver;
  }

  if (options_ht != NULL) {
    zend_ulong key;
    zend_string *str_key;
    zval *value;
    ZEND_HASH_FOREACH_KEY_VAL(options_ht, key, str_key, value) {
      if (str_key != NULL || is_pool_attribute(key) ||
          key == PDO_ATTR_PERSISTENT) {
        continue;
      }
      pdo_dbh_attribute_set(dbh, (zend_long)key, value, 4, true);
      if (EG(exception) != NULL) RETURN_THROWS();
    }
    ZEND_HASH_FOREACH_END();
  }
  /* A driver without a template mode: the pool comes after the options. */
  if (pooled && dbh->pool == NULL && !is_persistent) {
    pdo_pool_create(dbh, options);
  }
}

/* ---- Statements ---------------------------------------------------------- */

/* A new statement object of `dbh` in `return_value`, borrowing `conn` when
 * pooled. */
static pdo_stmt_t *new_statement(zval *return_value, zval *this_zv,
                                 pdo_dbh_t *dbh, pdo_dbh_t *conn,
                                 zend_string *sql) {
  object_init_ex(return_value, dbh->def_stmt_ce);
  pdo_stmt_t *stmt = Z_PDO_STMT_P(return_value);
  stmt->query_string = zend_string_copy(sql);
  stmt->default_fetch_type = (enum pdo_fetch_type)dbh->default_fetch_type;
  stmt->dbh = dbh;
  GC_ADDREF(Z_OBJ_P(this_zv));
  stmt->database_object_handle = Z_OBJ_P(this_zv);
  if (dbh->pool != NULL) {
    stmt->pooled_conn = conn;
    conn->pool_slot_refcount++;
  }
  return stmt;
}

/* The start of prepare(), query() and exec(): the SQL must not be empty
 * (ValueError), the handle's last error is cleared and the connection to
 * run it on is acquired. NULL when one of them fails: the error is raised
 * and `return_value` holds what the method returns then (false after a
 * failed acquire). */
static pdo_dbh_t *acquire_for_statement(pdo_dbh_t *dbh, zend_string *sql,
                                        zval *return_value) {
  if (ZSTR_LEN(sql) == 0) {
    zend_argument_value_error(1, "must not be empty");
    return NULL;
  }
  pdo_dbh_clear_err(dbh);
  pdo_dbh_t *conn = pdo_pool_acquire_conn(dbh);
  if (conn == NULL) {
    pdo_raise_acquire_failure(dbh);
    ZVAL_FALSE(return_value);
  }
  return conn;
}

/* prepare() and query(): a new statement of `sql` in `return_value`, on
 * the connection acquired for it (`*conn`), prepared by the driver with
 * `options` (or NULL). NULL when that fails: the error is reported, the
 * statement is freed (giving the slot back) and `return_value` holds
 * false, or the method's exception is in flight. */
static pdo_stmt_t *prepare_statement(zval *return_value, zval *this_zv,
                                     pdo_dbh_t *dbh, zend_string *sql,
                                     zval *options, pdo_dbh_t **conn) {
  *conn = acquire_for_statement(dbh, sql, return_value);
  if (*conn == NULL) return NULL;
  pdo_stmt_t *stmt = new_statement(return_value, this_zv, dbh, *conn, sql);
  if ((*conn)->methods->preparer(*conn, sql, stmt, options)) return stmt;
  pdo_pool_sync_error(dbh, *conn);
  PDO_HANDLE_DBH_ERR();
  zval_ptr_dtor(return_value);
  ZVAL_FALSE(return_value);
  return NULL;
}

PHP_METHOD(PDO, prepare) {
  zend_string *statement;
  HashTable *options_ht = NULL;
  ZEND_PARSE_PARAMETERS_START(1, 2)
  Z_PARAM_STR(statement)
  Z_PARAM_OPTIONAL
  Z_PARAM_ARRAY_HT(options_ht)
  ZEND_PARSE_PARAMETERS_END();
  pdo_dbh_t *dbh = Z_PDO_DBH_P(ZEND_THIS);
  PDO_CONSTRUCT_CHECK;
  zval options_zv;
  zval *options = NULL;
  if (options_ht != NULL) {
    ZVAL_ARR(&options_zv, options_ht);
    options = &options_zv;
  }
  pdo_dbh_t *conn;
  if (prepare_statement(return_value, ZEND_THIS, dbh, statement, options,
                        &conn) != NULL) {
    pdo_pool_sync_error(dbh, conn);
  }
}

PHP_METHOD(PDO, query) {
  zend_string *statement;
  zend_long fetch_mode = 0;
  bool fetch_mode_is_null = true;
  ZEND_PARSE_PARAMETERS_START(1, 2)
  Z_PARAM_STR(statement)
  Z_PARAM_OPTIONAL
  Z_PARAM_LONG_OR_NULL(fetch_mode, fetch_mode_is_null)
  ZEND_PARSE_PARAMETERS_END();
  pdo_dbh_t *dbh = Z_PDO_DBH_P(ZEND_THIS);
  PDO_CONSTRUCT_CHECK;
  pdo_dbh_t *conn;
  pdo_stmt_t *stmt =
      prepare_statement(return_value, ZEND_THIS, dbh, statement, NULL, &conn);
  if (stmt == NULL) return;
  if (!fetch_mode_is_null) {
    stmt->default_fetch_type = (enum pdo_fetch_type)fetch_mode;
  }
  memcpy(stmt->error_code, PDO_ERR_NONE, sizeof(pdo_error_type));
  pdo_pool_note_statement(stmt->pooled_conn, statement);
  if (stmt->methods->executer(stmt)) {
    stmt->executed = 1;
    pdo_pool_sync_error(dbh, conn);
    return;
  }
  /* Kept for errorCode()/errorInfo(): the handle owns the statement (which
   * gives up its reference to the PDO object: no cycle). */
  OBJ_RELEASE(stmt->database_object_handle);
  stmt->database_object_handle = NULL;
  pdo_pool_sync_error(dbh, conn);
  PDO_HANDLE_STMT_ERR();
  pdo_dbh_set_last_failed_query_stmt(dbh, stmt, Z_OBJ_P(return_value));
  ZVAL_FALSE(return_value);
}

PHP_METHOD(PDO, exec) {
  zend_string *statement;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_STR(statement)
  ZEND_PARSE_PARAMETERS_END();
  pdo_dbh_t *dbh = Z_PDO_DBH_P(ZEND_THIS);
  PDO_CONSTRUCT_CHECK;
  pdo_dbh_t *conn = acquire_for_statement(dbh, statement, return_value);
  if (conn == NULL) return;
  pdo_pool_note_statement(conn, statement);
  const zend_long ret = conn->methods->doer(conn, statement);
  pdo_pool_sync_error(dbh, conn);
  if (ret == -1) {
    PDO_HANDLE_DBH_ERR();
    pdo_pool_maybe_release(dbh);
    RETURN_FALSE;
  }
  pdo_pool_maybe_release(dbh);
  RETURN_LONG(ret);
}

/* ---- Transactions -------------------------------------------------------- */

/* The server's view: a transaction opened with raw SQL, or implicitly with
 * autocommit off, counts (the driver's in_transaction, else in_txn). */
static bool pdo_is_in_transaction(pdo_dbh_t *conn) {
  if (conn->methods != NULL && conn->methods->in_transaction != NULL) {
    return conn->methods->in_transaction(conn);
  }
  return conn->in_txn;
}

PHP_METHOD(PDO, beginTransaction) {
  ZEND_PARSE_PARAMETERS_NONE();
  pdo_dbh_t *dbh = Z_PDO_DBH_P(ZEND_THIS);
  PDO_CONSTRUCT_CHECK;
  pdo_dbh_t *held = pdo_pool_peek_conn(dbh);
  if (held != NULL && pdo_is_in_transaction(held)) {
    zend_throw_exception_ex(pdo_exception_ce, 0,
                            "There is already an active transaction");
    RETURN_THROWS();
  }
  if (dbh->methods->begin == NULL) {
    zend_throw_exception_ex(pdo_exception_ce, 0,
                            "This driver doesn't support transactions");
    RETURN_THROWS();
  }
  pdo_dbh_t *conn = pdo_pool_acquire_conn(dbh);
  if (conn == NULL) {
    pdo_raise_acquire_failure(dbh);
    RETURN_FALSE;
  }
  if (conn->methods->begin(conn)) {
    conn->in_txn = true;
    pdo_pool_sync_error(dbh, conn);
    RETURN_TRUE;
  }
  pdo_pool_sync_error(dbh, conn);
  PDO_HANDLE_DBH_ERR();
  pdo_pool_maybe_release(dbh);
  RETURN_FALSE;
}

/* commit() and rollBack(): the running coroutine's transaction only. */
static void end_transaction(INTERNAL_FUNCTION_PARAMETERS, bool commit) {
  ZEND_PARSE_PARAMETERS_NONE();
  pdo_dbh_t *dbh = Z_PDO_DBH_P(ZEND_THIS);
  PDO_CONSTRUCT_CHECK;
  pdo_dbh_t *conn = pdo_pool_peek_conn(dbh);
  if (conn == NULL || !pdo_is_in_transaction(conn)) {
    zend_throw_exception_ex(pdo_exception_ce, 0,
                            "There is no active transaction");
    RETURN_THROWS();
  }
  const bool ok =
      commit ? conn->methods->commit(conn) : conn->methods->rollback(conn);
  /* A transaction that died with its connection is over too: the error
   * (the driver's, such as HY000 2006) says so, and the broken slot is
   * then free to go (docs/pdo_pool.md, "Pinning"). */
  if (ok || conn->conn_broken) conn->in_txn = false;
  pdo_pool_sync_error(dbh, conn);
  if (!ok) PDO_HANDLE_DBH_ERR();
  pdo_pool_maybe_release(dbh);
  RETURN_BOOL(ok);
}

PHP_METHOD(PDO, commit) {
  end_transaction(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

PHP_METHOD(PDO, rollBack) {
  end_transaction(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

PHP_METHOD(PDO, inTransaction) {
  ZEND_PARSE_PARAMETERS_NONE();
  pdo_dbh_t *dbh = Z_PDO_DBH_P(ZEND_THIS);
  PDO_CONSTRUCT_CHECK;
  pdo_dbh_t *conn = pdo_pool_peek_conn(dbh);
  RETURN_BOOL(conn != NULL && pdo_is_in_transaction(conn));
}

/* ---- Object -------------------------------------------------------------- */

zend_object *pdo_dbh_new(zend_class_entry *ce) {
  pdo_dbh_object_t *object = zend_object_alloc(sizeof(pdo_dbh_object_t), ce);
  object->inner = ecalloc(1, sizeof(pdo_dbh_t));
  object->inner->def_stmt_ce = pdo_dbstmt_ce;
  object->inner->default_fetch_type = PDO_FETCH_BOTH;
  ZVAL_UNDEF(&object->inner->pool_driver_options);
  zend_object_std_init(&object->std, ce);
  object_properties_init(&object->std, ce);
  object->std.handlers = pdo_dbh_object_handlers();
  return &object->std;
}

static void pdo_dbh_free_storage(zend_object *std) {
  pdo_dbh_t *dbh = php_pdo_dbh_fetch_inner(std);
  zend_object_std_dtor(std);
  if (dbh->pool == NULL) {
    pdo_dbh_release_last_failed_query_stmt(dbh);
    if (dbh->in_txn && dbh->methods != NULL && dbh->methods->rollback != NULL) {
      dbh->methods->rollback(dbh);
      dbh->in_txn = false;
    }
  } else {
    pdo_pool_destroy(dbh);
  }
  if (dbh->methods != NULL && dbh->methods->closer != NULL) {
    dbh->methods->closer(dbh);
  }
  zval_ptr_dtor(&dbh->pool_driver_options);
  if (dbh->data_source != NULL) efree((char *)dbh->data_source);
  if (dbh->username != NULL) efree(dbh->username);
  if (dbh->password != NULL) efree(dbh->password);
  efree(dbh);
}

const zend_object_handlers *pdo_dbh_object_handlers(void) {
  if (pdo_dbh_object_handlers_storage.free_obj == NULL) {
    pdo_dbh_object_handlers_storage = std_object_handlers;
    pdo_dbh_object_handlers_storage.offset =
        (int)XtOffsetOf(pdo_dbh_object_t, std);
    pdo_dbh_object_handlers_storage.free_obj = pdo_dbh_free_storage;
    pdo_dbh_object_handlers_storage.clone_obj = NULL;
  }
  return &pdo_dbh_object_handlers_storage;
}

/* ---- Method table -------------------------------------------------------- */

ZEND_BEGIN_ARG_INFO_EX(arginfo_construct, 0, 0, 1)
ZEND_ARG_TYPE_INFO(0, dsn, IS_STRING, 0)
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, username, IS_STRING, 1, "null")
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, password, IS_STRING, 1, "null")
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_statement, 0, 0, 1)
ZEND_ARG_TYPE_INFO(0, statement, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_prepare, 0, 0, 1)
ZEND_ARG_TYPE_INFO(0, query, IS_STRING, 0)
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_query, 0, 0, 1)
ZEND_ARG_TYPE_INFO(0, query, IS_STRING, 0)
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, fetchMode, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_set_attribute, 0, 0, 2)
ZEND_ARG_TYPE_INFO(0, attribute, IS_LONG, 0)
ZEND_ARG_TYPE_INFO(0, value, IS_MIXED, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_get_attribute, 0, 0, 1)
ZEND_ARG_TYPE_INFO(0, attribute, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_last_insert_id, 0, 0, 0)
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, name, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_none, 0, 0, 0)
ZEND_END_ARG_INFO()

// clang-format off
static const zend_function_entry pdo_dbh_functions[] = {
    PHP_ME(PDO, __construct, arginfo_construct, ZEND_ACC_PUBLIC)
    PHP_ME(PDO, prepare, arginfo_prepare, ZEND_ACC_PUBLIC)
    PHP_ME(PDO, query, arginfo_query, ZEND_ACC_PUBLIC)
    PHP_ME(PDO, exec, arginfo_statement, ZEND_ACC_PUBLIC)
    PHP_ME(PDO, beginTransaction, arginfo_none, ZEND_ACC_PUBLIC)
    PHP_ME(PDO, commit, arginfo_none, ZEND_ACC_PUBLIC)
    PHP_ME(PDO, rollBack, arginfo_none, ZEND_ACC_PUBLIC)
    PHP_ME(PDO, inTransaction, arginfo_none, ZEND_ACC_PUBLIC)
    PHP_ME(PDO, setAttribute, arginfo_set_attribute, ZEND_ACC_PUBLIC)
    PHP_ME(PDO, getAttribute, arginfo_get_attribute, ZEND_ACC_PUBLIC)
    PHP_ME(PDO, lastInsertId, arginfo_last_insert_id, ZEND_ACC_PUBLIC)
    PHP_ME(PDO, errorCode, arginfo_none, ZEND_ACC_PUBLIC)
    PHP_ME(PDO, errorInfo, arginfo_none, ZEND_ACC_PUBLIC)
    PHP_ME(PDO, getPool, arginfo_none, ZEND_ACC_PUBLIC)
    PHP_FE_END};
// clang-format on

const zend_function_entry *pdo_dbh_method_table(void) {
  return pdo_dbh_functions;
}
