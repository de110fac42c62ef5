/*
 * zend-async-ref pdo_sim: the PDO driver interface, under php-src's names
 * (ext/pdo/php_pdo_driver.h, with the TrueAsync pool fields).
 *
 * What a driver implements:
 *   pdo_driver_t        registered in MINIT (php_pdo_register_driver):
 *                       db_handle_factory connects a handle;
 *                       db_handle_init_methods sets a pool template's
 *                       methods without connecting and says whether the
 *                       driver supports pooling.
 *   pdo_dbh_methods     what PDO calls on a connected handle. Under a pool
 *                       the handle a method receives is always a pooled
 *                       connection (a "slot"), never the template.
 *   pdo_stmt_methods    what PDOStatement calls on a prepared statement.
 *
 * Pooling (docs/pdo_pool.md): a PDO object created with
 * PDO::ATTR_POOL_ENABLED is a *template* that never connects
 * (driver_data NULL); each coroutine borrows a slot from an Async\Pool
 * (zend_async_pool_t, reached only through the ABI macros). The fields
 * below marked "pool" belong to ext/pdo/pdo_pool.h.
 *
 * Omitted from php-src (not needed by this stand-in): the quoter,
 * driver-specific method tables, persistent-list hooks, the SQL scanner,
 * bound columns, scrollable cursors, LOBs.
 *
 * Threading: the engine's thread. Lifetime: see each struct.
 */
#ifndef PHP_PDO_DRIVER_H
#define PHP_PDO_DRIVER_H

#include "php_pdo.h"

BEGIN_EXTERN_C()

typedef struct _pdo_dbh_t pdo_dbh_t;
typedef struct _pdo_dbh_object_t pdo_dbh_object_t;
typedef struct _pdo_stmt_t pdo_stmt_t;
/* A coroutine's hold on a pooled handle (ext/pdo/pdo_pool.h). */
typedef struct _pdo_pool_binding pdo_pool_binding_t;
/* From Zend/zend_async_API.h. */
typedef struct _zend_async_pool_s zend_async_pool_t;

#define PDO_DRIVER_API 20260205

enum pdo_param_type {
  PDO_PARAM_NULL = 0,
  PDO_PARAM_BOOL = 5,
  PDO_PARAM_INT = 1,
  PDO_PARAM_STR = 2,
  PDO_PARAM_LOB = 3,
  PDO_PARAM_STMT = 4,
};

enum pdo_fetch_type {
  PDO_FETCH_USE_DEFAULT,
  PDO_FETCH_LAZY,
  PDO_FETCH_ASSOC,
  PDO_FETCH_NUM,
  PDO_FETCH_BOTH,
  PDO_FETCH_OBJ,
  PDO_FETCH_BOUND,
  PDO_FETCH_COLUMN,
  PDO_FETCH_CLASS,
  PDO_FETCH_INTO,
  PDO_FETCH_FUNC,
  PDO_FETCH_NAMED,
  PDO_FETCH_KEY_PAIR,
};

enum pdo_fetch_orientation {
  PDO_FETCH_ORI_NEXT,
  PDO_FETCH_ORI_PRIOR,
  PDO_FETCH_ORI_FIRST,
  PDO_FETCH_ORI_LAST,
  PDO_FETCH_ORI_ABS,
  PDO_FETCH_ORI_REL
};

/* PHP's values (PDO::ATTR_*), then TrueAsync's pool attributes. */
enum pdo_attribute_type {
  PDO_ATTR_AUTOCOMMIT,          /* 0 */
  PDO_ATTR_PREFETCH,            /* 1 */
  PDO_ATTR_TIMEOUT,             /* 2: seconds */
  PDO_ATTR_ERRMODE,             /* 3 */
  PDO_ATTR_SERVER_VERSION,      /* 4 */
  PDO_ATTR_CLIENT_VERSION,      /* 5 */
  PDO_ATTR_SERVER_INFO,         /* 6 */
  PDO_ATTR_CONNECTION_STATUS,   /* 7 */
  PDO_ATTR_CASE,                /* 8 */
  PDO_ATTR_CURSOR_NAME,         /* 9 */
  PDO_ATTR_CURSOR,              /* 10 */
  PDO_ATTR_ORACLE_NULLS,        /* 11 */
  PDO_ATTR_PERSISTENT,          /* 12 */
  PDO_ATTR_STATEMENT_CLASS,     /* 13 */
  PDO_ATTR_FETCH_TABLE_NAMES,   /* 14 */
  PDO_ATTR_FETCH_CATALOG_NAMES, /* 15 */
  PDO_ATTR_DRIVER_NAME,         /* 16 */
  PDO_ATTR_STRINGIFY_FETCHES,   /* 17 */
  PDO_ATTR_MAX_COLUMN_LEN,      /* 18 */
  PDO_ATTR_DEFAULT_FETCH_MODE,  /* 19 */
  PDO_ATTR_EMULATE_PREPARES,    /* 20 */
  PDO_ATTR_DEFAULT_STR_PARAM,   /* 21 */

  /* Connection pool (needs an async extension). Constructor options. */
  PDO_ATTR_POOL_ENABLED,              /* 22: bool */
  PDO_ATTR_POOL_MIN,                  /* 23: connections pre-warmed */
  PDO_ATTR_POOL_MAX,                  /* 24: connections at most */
  PDO_ATTR_POOL_HEALTHCHECK_INTERVAL, /* 25: milliseconds, 0 = off */
  PDO_ATTR_POOL_STMT_CACHE_SIZE,      /* 26: per-connection LRU, 0 = off */

  /* Drivers number their own attributes from here. */
  PDO_ATTR_DRIVER_SPECIFIC = 1000
};

/* SQLSTATE: two class characters, three subclass characters, NUL. */
typedef char pdo_error_type[6];

#define PDO_ERR_NONE "00000"

enum pdo_error_mode {
  PDO_ERRMODE_SILENT,    /* just set error codes */
  PDO_ERRMODE_WARNING,   /* raise E_WARNING */
  PDO_ERRMODE_EXCEPTION, /* throw PDOException */
};

/* The value of `option_name` in a constructor options array, or
 * `defval`. */
static inline zend_long pdo_attr_lval(zval *options, unsigned option_name,
                                      zend_long defval) {
  zval *v;
  if (options && Z_TYPE_P(options) == IS_ARRAY &&
      (v = zend_hash_index_find(Z_ARRVAL_P(options), option_name))) {
    return zval_get_long(v);
  }
  return defval;
}

/* ---- Drivers ------------------------------------------------------------- */

typedef struct {
  const char *driver_name;
  size_t driver_name_len;
  zend_ulong api_version;

#define PDO_DRIVER_HEADER(name) #name, sizeof(#name) - 1, PDO_DRIVER_API

  /* Connects `dbh` (data_source, username, password, auto_commit are set)
   * and stores the driver's state in dbh->driver_data and its methods in
   * dbh->methods. Returns 1 on success; 0 with a PDOException thrown on
   * failure. The driver may replace or modify data_source, username and
   * password: they are the handle's own copies. Under a pool, dbh->pool is
   * the slot's pool and dbh->pool->user_data its template. required */
  int (*db_handle_factory)(pdo_dbh_t *dbh, zval *driver_options);

  /* Sets the methods of a pool template without connecting (driver_data
   * stays NULL) and sets *supports_pool. May throw to reject the template
   * (the constructor then fails). optional: NULL means the template
   * connects like a plain handle. */
  void (*db_handle_init_methods)(pdo_dbh_t *dbh, bool *supports_pool);
} pdo_driver_t;

/* ---- Handle methods ------------------------------------------------------ */

/* Closes the connection and frees driver_data (may be NULL: a template). */
typedef void (*pdo_dbh_close_func)(pdo_dbh_t *dbh);
/* Prepares `sql` into stmt->driver_data / stmt->methods; false on error
 * (dbh->error_code set). */
typedef bool (*pdo_dbh_prepare_func)(pdo_dbh_t *dbh, zend_string *sql,
                                     pdo_stmt_t *stmt, zval *driver_options);
/* Runs `sql`; the number of affected rows, or -1 on error. */
typedef zend_long (*pdo_dbh_do_func)(pdo_dbh_t *dbh, const zend_string *sql);
/* begin / commit / rollback: true on success. in_transaction: the
 * server's view (a transaction opened with raw SQL counts). */
typedef bool (*pdo_dbh_txn_func)(pdo_dbh_t *dbh);
typedef bool (*pdo_dbh_set_attr_func)(pdo_dbh_t *dbh, zend_long attr,
                                      zval *val);
/* The last insert id, or NULL on error. */
typedef zend_string *(*pdo_dbh_last_id_func)(pdo_dbh_t *dbh,
                                             const zend_string *name);
/* Appends the native code and message (of `stmt`, or of the handle) to
 * `info`, which already holds the SQLSTATE. */
typedef void (*pdo_dbh_fetch_error_func)(pdo_dbh_t *dbh, pdo_stmt_t *stmt,
                                         zval *info);
/* -1 error, 0 unsupported attribute, 1 success (*val set). */
typedef int (*pdo_dbh_get_attr_func)(pdo_dbh_t *dbh, zend_long attr, zval *val);
/* SUCCESS if the connection is alive. */
typedef zend_result (*pdo_dbh_check_liveness_func)(pdo_dbh_t *dbh);
/* Pool hooks on a slot: true keeps it, false destroys it. */
typedef bool (*pdo_dbh_pool_hook_func)(pdo_dbh_t *dbh);

struct pdo_dbh_methods {
  pdo_dbh_close_func closer;                  /* required */
  pdo_dbh_prepare_func preparer;              /* required */
  pdo_dbh_do_func doer;                       /* required */
  pdo_dbh_txn_func begin;                     /* optional */
  pdo_dbh_txn_func commit;                    /* optional with begin */
  pdo_dbh_txn_func rollback;                  /* optional with begin */
  pdo_dbh_set_attr_func set_attribute;        /* optional */
  pdo_dbh_last_id_func last_id;               /* optional */
  pdo_dbh_fetch_error_func fetch_err;         /* optional */
  pdo_dbh_get_attr_func get_attribute;        /* optional */
  pdo_dbh_check_liveness_func check_liveness; /* optional: alive */
  pdo_dbh_txn_func in_transaction; /* optional: NULL uses dbh->in_txn */
  /* A slot leaves idle for a coroutine: a driver may reset a session an
   * earlier coroutine dirtied here (pdo_mysql does) and clear
   * pool_session_dirty; false refuses the slot. optional */
  pdo_dbh_pool_hook_func pool_before_acquire;
  /* A slot goes back to idle (after the pool rolled back): a driver may
   * reset the session here instead (and clear pool_session_dirty); false
   * destroys the slot. optional */
  pdo_dbh_pool_hook_func pool_before_release;
};

/* ---- Statement methods --------------------------------------------------- */

/* Frees stmt->driver_data. The statement's connection is still alive. */
typedef int (*pdo_stmt_dtor_func)(pdo_stmt_t *stmt);
/* Runs the statement with stmt->bound_params; 1 success, 0 error. */
typedef int (*pdo_stmt_execute_func)(pdo_stmt_t *stmt);
/* Moves to the next row: 1 there is one, 0 no more rows or error (then
 * stmt->error_code is not "00000"). */
typedef int (*pdo_stmt_fetch_func)(pdo_stmt_t *stmt,
                                   enum pdo_fetch_orientation ori,
                                   zend_long offset);
/* Fills stmt->columns[colno]. */
typedef int (*pdo_stmt_describe_col_func)(pdo_stmt_t *stmt, int colno);
/* Writes column `colno` of the current row to `result`. */
typedef int (*pdo_stmt_get_col_data_func)(pdo_stmt_t *stmt, int colno,
                                          zval *result,
                                          enum pdo_param_type *type);

struct pdo_stmt_methods {
  pdo_stmt_dtor_func dtor;              /* required */
  pdo_stmt_execute_func executer;       /* required */
  pdo_stmt_fetch_func fetcher;          /* required */
  pdo_stmt_describe_col_func describer; /* required */
  pdo_stmt_get_col_data_func get_col;   /* required */
};

/* ---- Handles ------------------------------------------------------------- */

/* A database handle: the inner part of a PDO object, or a pooled
 * connection (a slot, owned by its pool: created by the factory, freed by
 * the destructor of pdo_pool.c).
 * Lifetime: a PDO object's handle lives until the object is freed;
 * statements hold a reference to the object. */
struct _pdo_dbh_t {
  const struct pdo_dbh_methods *methods; /* driver methods */
  void *driver_data; /* driver state; NULL for a pool template */

  char *username; /* emalloc'd or NULL */
  char *password; /* emalloc'd or NULL */

  bool is_persistent : 1;
  bool auto_commit : 1;
  bool is_closed : 1;
  bool alloc_own_columns : 1;
  /* beginTransaction() succeeded and no commit()/rollBack() since. */
  bool in_txn : 1;
  bool stringify : 1;

  uint8_t error_mode; /* enum pdo_error_mode */

  const char *data_source; /* emalloc'd, after "driver:" */
  size_t data_source_len;

  /* The handle's error state. A pool template's methods report through
   * pdo_dbh_error_code() (per coroutine) instead. */
  pdo_error_type error_code;
  uint16_t default_fetch_type;

  pdo_driver_t *driver;
  zend_class_entry *def_stmt_ce;

  /* Non-pooled: the statement of the last failed query(), kept for
   * errorCode()/errorInfo() (owned reference); pooled: per binding. */
  pdo_stmt_t *last_failed_query_stmt;
  zend_object *last_failed_query_stmt_obj;

  /* ---- pool -------------------------------------------------------------- */
  /* Template: the pool (NULL = not pooled). Slot: the pool it belongs to
   * (one pool reference). */
  zend_async_pool_t *pool;
  /* Template: coroutine key -> pdo_pool_binding_t*. */
  HashTable *pool_bindings;
  /* Template: the Async\Pool object getPool() returns (one reference). */
  zend_object *pool_wrapper;
  /* Slot: statements borrowing it; > 0 pins it. */
  uint32_t pool_slot_refcount;
  /* Slot: the connection failed; the pool destroys it on release. */
  bool conn_broken;
  /* Slot: SQL left session state (user variables, SET, locks, temporary
   * tables, ...); pins it to its coroutine until the coroutine ends. */
  bool pool_session_dirty;
  /* Slot: the binding holding it, NULL when none. */
  pdo_pool_binding_t *owner_binding;
  /* Template: PDO::ATTR_POOL_STMT_CACHE_SIZE (0 = no cache). */
  uint32_t pool_stmt_cache_size;
  /* Template: the constructor's options, handed to every slot's factory
   * (UNDEF when none). */
  zval pool_driver_options;
  /* Template: attribute -> value set with setAttribute(), applied to every
   * slot (NULL when none). */
  HashTable *pool_conn_attributes;
  /* Slot: 1, 2, ... in the order the template's pool made them, naming it
   * "conn#<id>" in traces (zend-async-ref); template: the last id given. */
  uint32_t pool_slot_id;
};

/* A PDO object. */
struct _pdo_dbh_object_t {
  pdo_dbh_t *inner;
  zend_object std; /* must be last */
};

static inline pdo_dbh_object_t *php_pdo_dbh_fetch_object(zend_object *obj) {
  return (pdo_dbh_object_t *)((char *)(obj)-XtOffsetOf(pdo_dbh_object_t, std));
}
static inline pdo_dbh_t *php_pdo_dbh_fetch_inner(zend_object *obj) {
  return php_pdo_dbh_fetch_object(obj)->inner;
}
#define Z_PDO_DBH_P(zv) php_pdo_dbh_fetch_inner(Z_OBJ_P((zv)))
#define Z_PDO_OBJECT_P(zv) php_pdo_dbh_fetch_object(Z_OBJ_P((zv)))

/* A result column. */
struct pdo_column_data {
  zend_string *name;
  size_t maxlen;
  zend_ulong precision;
};

/* A PDOStatement object.
 * Lifetime: freed with its object; holds a reference to its PDO object
 * (database_object_handle) except a failed query()'s statement, which the
 * handle keeps instead. */
/* Which placeholders a driver's prepared statements take natively. With
 * PDO_PLACEHOLDER_NONE (the default: a driver that emulates, as the mock
 * driver does for MySQL) PDO itself checks execute()'s parameters against
 * the query's placeholders. */
enum pdo_placeholder_support {
  PDO_PLACEHOLDER_NONE = 0,
  PDO_PLACEHOLDER_NAMED = 1,
  PDO_PLACEHOLDER_POSITIONAL = 2
};

struct _pdo_stmt_t {
  const struct pdo_stmt_methods *methods;
  void *driver_data;

  pdo_error_type error_code;

  uint16_t executed : 1; /* executed successfully at least once */

  /* Set by the driver's preparer; see enum pdo_placeholder_support. */
  enum pdo_placeholder_support supports_placeholders;

  /* execute()'s parameters (list: 0-based positions; string keys: names),
   * NULL when none. Valid during the executer call. */
  HashTable *bound_params;

  struct pdo_column_data *columns;
  int32_t column_count;

  enum pdo_fetch_type default_fetch_type;

  pdo_dbh_t *dbh; /* the PDO object's handle (a pool's template) */
  /* pool: the slot this statement borrows (pool_slot_refcount counts it),
   * NULL when not pooled. */
  pdo_dbh_t *pooled_conn;
  zend_object *database_object_handle; /* the PDO object, one reference */

  zend_long row_count;
  zend_string *query_string;

  zend_object std; /* must be last */
};

static inline pdo_stmt_t *php_pdo_stmt_fetch_object(zend_object *obj) {
  return (pdo_stmt_t *)((char *)(obj)-XtOffsetOf(pdo_stmt_t, std));
}
#define Z_PDO_STMT_P(zv) php_pdo_stmt_fetch_object(Z_OBJ_P((zv)))

/* The connection a statement runs on: its slot, or its handle. */
static inline pdo_dbh_t *pdo_stmt_conn(const pdo_stmt_t *stmt) {
  return stmt->pooled_conn != NULL ? stmt->pooled_conn : stmt->dbh;
}

/* ---- API for drivers ----------------------------------------------------- */

PDO_API zend_result php_pdo_register_driver(const pdo_driver_t *driver);
PDO_API void php_pdo_unregister_driver(const pdo_driver_t *driver);

/* "name=value;name2=value2" -> parsed[i].optval (emalloc'd when freeme).
 * Returns the number of recognised names. */
struct pdo_data_src_parser {
  const char *optname;
  char *optval;
  int freeme;
};
PDO_API int php_pdo_parse_data_source(const char *data_source,
                                      zend_ulong data_source_len,
                                      struct pdo_data_src_parser *parsed,
                                      int nparams);

/* Sets the SQLSTATE (the statement's, or the handle's) and reports
 * "SQLSTATE[%s]: <description>: <supp>" by the handle's error mode (a
 * warning in silent mode too, as php-src does). */
PDO_API void pdo_raise_impl_error(pdo_dbh_t *dbh, pdo_stmt_t *stmt,
                                  const char *sqlstate, const char *supp);
/* Reports the error state already set (statement's or handle's) by the
 * error mode, with the driver's native code and message. */
PDO_API void pdo_handle_error(pdo_dbh_t *dbh, pdo_stmt_t *stmt);
/* Throws PDOException "SQLSTATE[%s] [%d] %s" with errorInfo (connection
 * failures). */
PDO_API void pdo_throw_exception(unsigned int driver_errcode,
                                 const char *driver_errmsg,
                                 pdo_error_type *pdo_error);
/* The description of a SQLSTATE ("Base table or view not found"), or
 * NULL. */
PDO_API const char *pdo_sqlstate_state_to_description(const char *state);

PDO_API void php_pdo_stmt_set_column_count(pdo_stmt_t *stmt, int new_count);
/* False once the statement's PDO object has been freed (a cycle collected
 * with the PDO object first). */
PDO_API bool php_pdo_stmt_valid_db_obj_handle(const pdo_stmt_t *stmt);

PDO_API bool pdo_get_long_param(zend_long *lval, const zval *value);
PDO_API bool pdo_get_bool_param(bool *bval, const zval *value);

END_EXTERN_C()

#endif /* PHP_PDO_DRIVER_H */
