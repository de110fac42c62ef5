/*
 * zend-async-ref pdo_sim: reporting errors by a handle's error mode, and
 * the SQLSTATE descriptions (php_pdo_driver.h).
 *
 *   SILENT     the SQLSTATE is recorded (errorCode()/errorInfo());
 *   WARNING    E_WARNING "PDO::exec(): SQLSTATE[42S02]: <description>:
 *              <native code> <native message>" (the running method names
 *              itself);
 *   EXCEPTION  PDOException with that message, code = the SQLSTATE
 *              (a string) and errorInfo = [SQLSTATE, native code, native
 *              message].
 *
 * Under a pool the handle's error state is the running coroutine's
 * (pdo_dbh_error_code) and the native details come from the slot that
 * produced them (the statement's, else the coroutine's bound slot).
 */
#include <string.h>

#include "pdo_pool.h"
#include "php_pdo_driver.h"

typedef struct {
  const char state[6];
  const char *desc;
} pdo_sqlstate_info;

/* php-src's descriptions (ext/pdo/pdo_sqlstate.c) of the states this
 * stand-in and its drivers use. */
static const pdo_sqlstate_info kSqlstates[] = {
    {"00000", "No error"},
    {"01000", "Warning"},
    {"01002", "Disconnect error"},
    {"08001", "Client unable to establish connection"},
    {"08003", "Connection does not exist"},
    {"08004", "Server rejected the connection"},
    {"08006", "Connection failure"},
    {"08S01", "Communication link failure"},
    {"0A000", "Feature not supported"},
    {"21S01", "Insert value list does not match column list"},
    {"22001", "String data, right truncated"},
    {"22012", "Division by zero"},
    {"23000", "Integrity constraint violation"},
    {"25000", "Invalid transaction state"},
    {"28000", "Invalid authorization specification"},
    {"40001", "Serialization failure"},
    {"42000", "Syntax error or access violation"},
    {"42S01", "Base table or view already exists"},
    {"42S02", "Base table or view not found"},
    {"42S22", "Column not found"},
    {"HY000", "General error"},
    {"HY093", "Invalid parameter number"},
    {"HYC00", "Optional feature not implemented"},
    {"HYT00", "Timeout expired"},
    {"IM001", "Driver does not support this function"},
};

const char *pdo_sqlstate_state_to_description(const char *state) {
  for (size_t i = 0; i < sizeof(kSqlstates) / sizeof(kSqlstates[0]); i++) {
    if (strncmp(kSqlstates[i].state, state, 5) == 0) return kSqlstates[i].desc;
  }
  return NULL;
}

static void set_state(pdo_error_type *dest, const char *state) {
  memcpy(*dest, state, 5);
  (*dest)[5] = '\0';
}

/* new PDOException(message) with code = `code` (the SQLSTATE as a string,
 * or a driver's native number) and errorInfo = `info` (both borrowed; info
 * UNDEF for none), thrown. */
static void throw_pdo_exception_with_code(zend_string *message, zval *code,
                                          zval *info) {
  zend_class_entry *pdo_ex = php_pdo_get_exception();
  zval ex;
  object_init_ex(&ex, pdo_ex);
  zval value;
  ZVAL_STR_COPY(&value, message);
  zend_update_property(zend_ce_exception, Z_OBJ(ex), ZEND_STRL("message"),
                       &value);
  zval_ptr_dtor(&value);
  zend_update_property(zend_ce_exception, Z_OBJ(ex), ZEND_STRL("code"), code);
  if (info != NULL && !Z_ISUNDEF_P(info)) {
    zend_update_property(pdo_ex, Z_OBJ(ex), ZEND_STRL("errorInfo"), info);
  }
  zend_throw_exception_object(&ex);
}

/* The same with code = `state`. */
static void throw_pdo_exception(zend_string *message, const char *state,
                                zval *info) {
  zval code;
  ZVAL_STRING(&code, state);
  throw_pdo_exception_with_code(message, &code, info);
  zval_ptr_dtor(&code);
}

void pdo_raise_impl_error(pdo_dbh_t *dbh, pdo_stmt_t *stmt,
                          const char *sqlstate, const char *supp) {
  pdo_error_type *pdo_err =
      stmt != NULL ? &stmt->error_code : pdo_dbh_error_code(dbh);
  set_state(pdo_err, sqlstate);
  const char *msg = pdo_sqlstate_state_to_description(*pdo_err);
  if (msg == NULL) msg = "<<Unknown error>>";
  zend_string *message =
      supp != NULL
          ? zend_strpprintf(0, "SQLSTATE[%s]: %s: %s", *pdo_err, msg, supp)
          : zend_strpprintf(0, "SQLSTATE[%s]: %s", *pdo_err, msg);
  if (dbh->error_mode != PDO_ERRMODE_EXCEPTION) {
    php_error_docref(NULL, E_WARNING, "%s", ZSTR_VAL(message));
  } else {
    zval info;
    array_init(&info);
    add_next_index_string(&info, *pdo_err);
    add_next_index_long(&info, 0);
    throw_pdo_exception(message, *pdo_err, &info);
    zval_ptr_dtor(&info);
  }
  zend_string_release(message);
}

void pdo_handle_error(pdo_dbh_t *dbh, pdo_stmt_t *stmt) {
  if (dbh->error_mode == PDO_ERRMODE_SILENT) return;
  pdo_error_type *pdo_err =
      stmt != NULL ? &stmt->error_code : pdo_dbh_error_code(dbh);
  const char *msg = pdo_sqlstate_state_to_description(*pdo_err);
  if (msg == NULL) msg = "<<Unknown error>>";

  zend_long native_code = 0;
  zend_string *supp = NULL;
  zval info;
  ZVAL_UNDEF(&info);
  if (dbh->methods != NULL && dbh->methods->fetch_err != NULL) {
    array_init(&info);
    add_next_index_string(&info, *pdo_err);
    /* Ask the connection that produced the error; never the template. */
    pdo_dbh_t *err_dbh =
        stmt != NULL ? pdo_stmt_conn(stmt) : pdo_pool_peek_conn(dbh);
    if (err_dbh != NULL && err_dbh->driver_data != NULL &&
        err_dbh->methods != NULL && err_dbh->methods->fetch_err != NULL) {
      err_dbh->methods->fetch_err(err_dbh, stmt, &info);
    }
    zval *item = zend_hash_index_find(Z_ARRVAL(info), 1);
    if (item != NULL && Z_TYPE_P(item) == IS_LONG) native_code = Z_LVAL_P(item);
    item = zend_hash_index_find(Z_ARRVAL(info), 2);
    if (item != NULL && Z_TYPE_P(item) == IS_STRING) {
      supp = zend_string_copy(Z_STR_P(item));
    }
  }

  zend_string *message;
  if (native_code != 0 && supp != NULL) {
    message = zend_strpprintf(0, "SQLSTATE[%s]: %s: " ZEND_LONG_FMT " %s",
                              *pdo_err, msg, native_code, ZSTR_VAL(supp));
  } else if (supp != NULL) {
    message = zend_strpprintf(0, "SQLSTATE[%s]: %s: %s", *pdo_err, msg,
                              ZSTR_VAL(supp));
  } else {
    message = zend_strpprintf(0, "SQLSTATE[%s]: %s", *pdo_err, msg);
  }

  if (dbh->error_mode == PDO_ERRMODE_WARNING) {
    php_error_docref(NULL, E_WARNING, "%s", ZSTR_VAL(message));
  } else if (EG(exception) == NULL) {
    throw_pdo_exception(message, *pdo_err, &info);
  }
  zval_ptr_dtor(&info);
  zend_string_release(message);
  if (supp != NULL) zend_string_release(supp);
}

void pdo_throw_exception(unsigned int driver_errcode, const char *driver_errmsg,
                         pdo_error_type *pdo_error) {
  zval info;
  array_init(&info);
  add_next_index_string(&info, *pdo_error);
  add_next_index_long(&info, driver_errcode);
  add_next_index_string(&info, driver_errmsg);
  zend_string *message = zend_strpprintf(0, "SQLSTATE[%s] [%u] %s", *pdo_error,
                                         driver_errcode, driver_errmsg);
  zval code;
  ZVAL_LONG(&code, driver_errcode);
  throw_pdo_exception_with_code(message, &code, &info);
  zend_string_release(message);
  zval_ptr_dtor(&info);
}
