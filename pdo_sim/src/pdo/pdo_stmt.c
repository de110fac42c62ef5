/*
 * zend-async-ref pdo_sim: the PDOStatement class (php-src's
 * ext/pdo/pdo_stmt.c).
 *
 * A pooled statement borrows its slot (stmt->pooled_conn, counted in the
 * slot's pool_slot_refcount) from prepare()/query() until it is freed; the
 * last statement to let go gives the slot back (pdo_pool_release_stmt_conn)
 * through the slot's own pool reference, so this works after the PDO
 * object is gone and in another coroutine than the one that prepared it.
 */
#include <string.h>

#include "pdo_pool.h"
#include "php_pdo_int.h"

static zend_object_handlers pdo_dbstmt_object_handlers_storage;

void php_pdo_stmt_set_column_count(pdo_stmt_t *stmt, int new_count) {
  if (stmt->columns != NULL) {
    for (int i = 0; i < stmt->column_count; i++) {
      if (stmt->columns[i].name != NULL) {
        zend_string_release(stmt->columns[i].name);
      }
    }
    efree(stmt->columns);
    stmt->columns = NULL;
  }
  stmt->column_count = new_count;
}

bool php_pdo_stmt_valid_db_obj_handle(const pdo_stmt_t *stmt) {
  return stmt->database_object_handle != NULL &&
         !(GC_FLAGS(stmt->database_object_handle) & IS_OBJ_FREE_CALLED);
}

/* Asks the driver for the column names once per result shape. */
static bool describe_columns(pdo_stmt_t *stmt) {
  if (stmt->columns != NULL || stmt->column_count <= 0) return true;
  stmt->columns =
      ecalloc((size_t)stmt->column_count, sizeof(struct pdo_column_data));
  for (int i = 0; i < stmt->column_count; i++) {
    if (!stmt->methods->describer(stmt, i)) return false;
  }
  return true;
}

/* ---- Fetching ------------------------------------------------------------ */

static void fetch_value(pdo_stmt_t *stmt, int colno, zval *dest) {
  ZVAL_NULL(dest);
  enum pdo_param_type type = PDO_PARAM_STR;
  stmt->methods->get_col(stmt, colno, dest, &type);
  if (stmt->dbh->stringify &&
      (Z_TYPE_P(dest) == IS_LONG || Z_TYPE_P(dest) == IS_DOUBLE)) {
    zend_string *str = zval_get_string(dest);
    zval_ptr_dtor(dest);
    ZVAL_STR(dest, str);
  }
}

/* The next row in `return_value` by `mode`; false when there is none (an
 * error is reported by the handle's error mode). */
static bool do_fetch(pdo_stmt_t *stmt, zval *return_value, zend_long mode) {
  memcpy(stmt->error_code, PDO_ERR_NONE, sizeof(pdo_error_type));
  if (!stmt->executed || !stmt->methods->fetcher(stmt, PDO_FETCH_ORI_NEXT, 0)) {
    PDO_HANDLE_STMT_ERR();
    return false;
  }
  if (!describe_columns(stmt)) {
    PDO_HANDLE_STMT_ERR();
    return false;
  }
  if (mode == PDO_FETCH_USE_DEFAULT) mode = stmt->default_fetch_type;
  if (mode == PDO_FETCH_COLUMN) {
    fetch_value(stmt, 0, return_value);
    return true;
  }
  array_init(return_value);
  for (int i = 0; i < stmt->column_count; i++) {
    zval value;
    fetch_value(stmt, i, &value);
    if (mode == PDO_FETCH_ASSOC || mode == PDO_FETCH_BOTH) {
      zend_string *name = stmt->columns[i].name;
      if (mode == PDO_FETCH_BOTH) Z_TRY_ADDREF(value);
      add_assoc_zval_ex(return_value, ZSTR_VAL(name), ZSTR_LEN(name), &value);
    }
    if (mode == PDO_FETCH_NUM || mode == PDO_FETCH_BOTH) {
      add_next_index_zval(return_value, &value);
    }
  }
  return true;
}

static bool valid_fetch_mode(zend_long mode) {
  switch (mode) {
    case PDO_FETCH_USE_DEFAULT:
    case PDO_FETCH_ASSOC:
    case PDO_FETCH_NUM:
    case PDO_FETCH_BOTH:
    case PDO_FETCH_COLUMN:
      return true;
    default:
      zend_argument_value_error(1,
                                "must be one of PDO::FETCH_ASSOC, "
                                "PDO::FETCH_NUM, PDO::FETCH_BOTH or "
                                "PDO::FETCH_COLUMN in pdo_sim");
      return false;
  }
}

/* The $mode argument of fetch() and fetchAll() (PDO::FETCH_DEFAULT when
 * not given), checked; false when it is refused (the error thrown). */
static bool parse_fetch_mode(zend_execute_data *execute_data, zend_long *mode) {
  *mode = PDO_FETCH_USE_DEFAULT;
  ZEND_PARSE_PARAMETERS_START(0, 1)
  Z_PARAM_OPTIONAL
  Z_PARAM_LONG(*mode)
  ZEND_PARSE_PARAMETERS_END_EX(return false);
  return valid_fetch_mode(*mode);
}

PHP_METHOD(PDOStatement, fetch) {
  zend_long mode;
  if (!parse_fetch_mode(execute_data, &mode)) RETURN_THROWS();
  pdo_stmt_t *stmt = Z_PDO_STMT_P(ZEND_THIS);
  if (!do_fetch(stmt, return_value, mode)) RETURN_FALSE;
}

PHP_METHOD(PDOStatement, fetchAll) {
  zend_long mode;
  if (!parse_fetch_mode(execute_data, &mode)) RETURN_THROWS();
  pdo_stmt_t *stmt = Z_PDO_STMT_P(ZEND_THIS);
  array_init(return_value);
  zval row;
  while (do_fetch(stmt, &row, mode)) add_next_index_zval(return_value, &row);
}

PHP_METHOD(PDOStatement, fetchColumn) {
  zend_long column = 0;
  ZEND_PARSE_PARAMETERS_START(0, 1)
  Z_PARAM_OPTIONAL
  Z_PARAM_LONG(column)
  ZEND_PARSE_PARAMETERS_END();
  pdo_stmt_t *stmt = Z_PDO_STMT_P(ZEND_THIS);
  if (column < 0) {
    zend_argument_value_error(1, "must be greater than or equal to 0");
    RETURN_THROWS();
  }
  memcpy(stmt->error_code, PDO_ERR_NONE, sizeof(pdo_error_type));
  if (!stmt->executed || !stmt->methods->fetcher(stmt, PDO_FETCH_ORI_NEXT, 0)) {
    PDO_HANDLE_STMT_ERR();
    RETURN_FALSE;
  }
  if (column >= stmt->column_count) {
    zend_value_error("Invalid column index");
    RETURN_THROWS();
  }
  fetch_value(stmt, (int)column, return_value);
}

/* ---- Execution ----------------------------------------------------------- */

PHP_METHOD(PDOStatement, execute) {
  HashTable *params = NULL;
  ZEND_PARSE_PARAMETERS_START(0, 1)
  Z_PARAM_OPTIONAL
  Z_PARAM_ARRAY_HT_OR_NULL(params)
  ZEND_PARSE_PARAMETERS_END();
  pdo_stmt_t *stmt = Z_PDO_STMT_P(ZEND_THIS);
  memcpy(stmt->error_code, PDO_ERR_NONE, sizeof(pdo_error_type));
  pdo_pool_note_statement(stmt->pooled_conn, stmt->query_string);
  stmt->bound_params = params;
  if (!php_mock_pdo_check_params(stmt)) {
    /* Raised already; the driver never sees the statement. */
    stmt->bound_params = NULL;
    RETURN_FALSE;
  }
  const int ok = stmt->methods->executer(stmt);
  stmt->bound_params = NULL;
  if (ok) {
    stmt->executed = 1;
    RETURN_TRUE;
  }
  PDO_HANDLE_STMT_ERR();
  RETURN_FALSE;
}

PHP_METHOD(PDOStatement, rowCount) {
  ZEND_PARSE_PARAMETERS_NONE();
  RETURN_LONG(Z_PDO_STMT_P(ZEND_THIS)->row_count);
}

PHP_METHOD(PDOStatement, columnCount) {
  ZEND_PARSE_PARAMETERS_NONE();
  RETURN_LONG(Z_PDO_STMT_P(ZEND_THIS)->column_count);
}

PHP_METHOD(PDOStatement, errorCode) {
  ZEND_PARSE_PARAMETERS_NONE();
  pdo_stmt_t *stmt = Z_PDO_STMT_P(ZEND_THIS);
  if (stmt->error_code[0] == '\0') RETURN_NULL();
  RETURN_STRING(stmt->error_code);
}

PHP_METHOD(PDOStatement, errorInfo) {
  ZEND_PARSE_PARAMETERS_NONE();
  pdo_stmt_t *stmt = Z_PDO_STMT_P(ZEND_THIS);
  array_init(return_value);
  add_next_index_string(return_value, stmt->error_code);
  pdo_dbh_t *conn = pdo_stmt_conn(stmt);
  if (strcmp(stmt->error_code, PDO_ERR_NONE) != 0 &&
      conn->driver_data != NULL && conn->methods->fetch_err != NULL) {
    conn->methods->fetch_err(conn, stmt, return_value);
  }
  while (zend_hash_num_elements(Z_ARRVAL_P(return_value)) < 3) {
    add_next_index_null(return_value);
  }
}

/* ---- Object -------------------------------------------------------------- */

zend_object *pdo_dbstmt_new(zend_class_entry *ce) {
  pdo_stmt_t *stmt = zend_object_alloc(sizeof(pdo_stmt_t), ce);
  zend_object_std_init(&stmt->std, ce);
  object_properties_init(&stmt->std, ce);
  stmt->std.handlers = pdo_dbstmt_object_handlers();
  memcpy(stmt->error_code, PDO_ERR_NONE, sizeof(pdo_error_type));
  return &stmt->std;
}

static void pdo_dbstmt_free_storage(zend_object *std) {
  pdo_stmt_t *stmt = php_pdo_stmt_fetch_object(std);
  /* The driver's statement first, while its connection is alive. A
   * non-pooled statement whose PDO object was collected first has no
   * connection left: the driver must not touch it (it checks
   * php_pdo_stmt_valid_db_obj_handle). */
  if (stmt->methods != NULL && stmt->methods->dtor != NULL) {
    stmt->methods->dtor(stmt);
  }
  stmt->methods = NULL;
  stmt->driver_data = NULL;
  php_pdo_stmt_set_column_count(stmt, 0);
  if (stmt->query_string != NULL) {
    zend_string_release(stmt->query_string);
    stmt->query_string = NULL;
  }
  if (stmt->pooled_conn != NULL) {
    pdo_dbh_t *conn = stmt->pooled_conn;
    stmt->pooled_conn = NULL;
    if (--conn->pool_slot_refcount == 0) pdo_pool_release_stmt_conn(conn);
  }
  if (stmt->database_object_handle != NULL) {
    zend_object *dbh_obj = stmt->database_object_handle;
    stmt->database_object_handle = NULL;
    OBJ_RELEASE(dbh_obj);
  }
  zend_object_std_dtor(std);
}

/* The PDO object is part of the statement's graph (cycles through it are
 * collectable). */
static HashTable *pdo_dbstmt_get_gc(zend_object *object, zval **table, int *n) {
  pdo_stmt_t *stmt = php_pdo_stmt_fetch_object(object);
  zend_get_gc_buffer *buffer = zend_get_gc_buffer_create();
  if (stmt->database_object_handle != NULL) {
    zend_get_gc_buffer_add_obj(buffer, stmt->database_object_handle);
  }
  for (int i = 0; i < object->ce->default_properties_count; i++) {
    zend_get_gc_buffer_add_zval(buffer, &object->properties_table[i]);
  }
  zend_get_gc_buffer_use(buffer, table, n);
  return object->properties;
}

const zend_object_handlers *pdo_dbstmt_object_handlers(void) {
  if (pdo_dbstmt_object_handlers_storage.free_obj == NULL) {
    pdo_dbstmt_object_handlers_storage = std_object_handlers;
    pdo_dbstmt_object_handlers_storage.offset =
        (int)XtOffsetOf(pdo_stmt_t, std);
    pdo_dbstmt_object_handlers_storage.free_obj = pdo_dbstmt_free_storage;
    pdo_dbstmt_object_handlers_storage.clone_obj = NULL;
    pdo_dbstmt_object_handlers_storage.get_gc = pdo_dbstmt_get_gc;
  }
  return &pdo_dbstmt_object_handlers_storage;
}

/* ---- Method table -------------------------------------------------------- */

ZEND_BEGIN_ARG_INFO_EX(arginfo_execute, 0, 0, 0)
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, params, IS_ARRAY, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_fetch, 0, 0, 0)
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, mode, IS_LONG, 0, "PDO::FETCH_DEFAULT")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_fetch_column, 0, 0, 0)
ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, column, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_none, 0, 0, 0)
ZEND_END_ARG_INFO()

// clang-format off
static const zend_function_entry pdo_dbstmt_functions[] = {
    PHP_ME(PDOStatement, execute, arginfo_execute, ZEND_ACC_PUBLIC)
    PHP_ME(PDOStatement, fetch, arginfo_fetch, ZEND_ACC_PUBLIC)
    PHP_ME(PDOStatement, fetchAll, arginfo_fetch, ZEND_ACC_PUBLIC)
    PHP_ME(PDOStatement, fetchColumn, arginfo_fetch_column, ZEND_ACC_PUBLIC)
    PHP_ME(PDOStatement, rowCount, arginfo_none, ZEND_ACC_PUBLIC)
    PHP_ME(PDOStatement, columnCount, arginfo_none, ZEND_ACC_PUBLIC)
    PHP_ME(PDOStatement, errorCode, arginfo_none, ZEND_ACC_PUBLIC)
    PHP_ME(PDOStatement, errorInfo, arginfo_none, ZEND_ACC_PUBLIC)
    PHP_FE_END};
// clang-format on

const zend_function_entry *pdo_dbstmt_method_table(void) {
  return pdo_dbstmt_functions;
}
