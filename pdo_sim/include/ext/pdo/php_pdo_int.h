/*
 * zend-async-ref pdo_sim: what the PDO core's files share (php-src's
 * ext/pdo/php_pdo_int.h), and the drivers the module registers.
 */
#ifndef PHP_PDO_INT_H
#define PHP_PDO_INT_H

#include "ext/pdo/php_pdo_driver.h"

BEGIN_EXTERN_C()

/* Class entries (pdo.c). */
extern zend_class_entry *pdo_dbh_ce;
extern zend_class_entry *pdo_dbstmt_ce;
extern zend_class_entry *pdo_exception_ce;
extern zend_class_entry *pdo_sqlite_ce;

/* pdo.c */
pdo_driver_t *pdo_find_driver(const char *name, size_t namelen);

/* pdo_dbh.c */
const zend_function_entry *pdo_dbh_method_table(void);
/* The method's error state cleared ("00000", failed query() released). */
void pdo_dbh_clear_err(pdo_dbh_t *dbh);
/* HY000 "Failed to acquire connection from pool" (the pool's exception in
 * flight becomes its previous; a cancellation is left alone). */
void pdo_raise_acquire_failure(pdo_dbh_t *dbh);

/* pdo_dbh_attr.c */
/* `constructing`: a constructor option (under a pool, driver attributes
 * are only recorded then: no slot is opened at construction). */
bool pdo_dbh_attribute_set(pdo_dbh_t *dbh, zend_long attr, zval *value,
                           uint32_t value_arg_num, bool constructing);
PHP_METHOD(PDO, setAttribute);
PHP_METHOD(PDO, getAttribute);
PHP_METHOD(PDO, lastInsertId);
PHP_METHOD(PDO, errorCode);
PHP_METHOD(PDO, errorInfo);
PHP_METHOD(PDO, getPool);

/* pdo_dbh.c: the object. */
zend_object *pdo_dbh_new(zend_class_entry *ce);
const zend_object_handlers *pdo_dbh_object_handlers(void);

/* A method of a PDO object whose constructor did not succeed throws. */
#define PDO_CONSTRUCT_CHECK                                \
  if (dbh->driver == NULL) {                               \
    zend_throw_error(NULL, "PDO object is uninitialized"); \
    RETURN_THROWS();                                       \
  }

/* pdo_stmt.c */
const zend_function_entry *pdo_dbstmt_method_table(void);
zend_object *pdo_dbstmt_new(zend_class_entry *ce);
const zend_object_handlers *pdo_dbstmt_object_handlers(void);

/* Errors raised by the running method, as PDO's macros do. */
#define PDO_HANDLE_DBH_ERR()                                 \
  if (strcmp(*pdo_dbh_error_code(dbh), PDO_ERR_NONE) != 0) { \
    pdo_handle_error(dbh, NULL);                             \
  }
#define PDO_HANDLE_STMT_ERR()                        \
  if (strcmp(stmt->error_code, PDO_ERR_NONE) != 0) { \
    pdo_handle_error(stmt->dbh, stmt);               \
  }

/* pdo_sql_parser.c: for a driver without native placeholders, whether
 * execute()'s parameters (stmt->bound_params) fit the placeholders of
 * stmt->query_string; false with HY093 raised (pdo_raise_impl_error:
 * "mixed named and positional parameters", "number of bound variables does
 * not match number of tokens" or "parameter was not defined"). */
bool php_mock_pdo_check_params(pdo_stmt_t *stmt);

/* pdo_sql_parser.c: `query` with each of its placeholders (found as
 * php_mock_pdo_check_params finds them) replaced by `replace`'s text for it
 * (a new string, consumed), and each escaped "??" by "?": php-src's
 * pdo_parse_params for a driver that sends the SQL itself (a query with the
 * quoted values of an emulated prepare; ":name" made "?" for a server that
 * only takes "?"). `index` counts the placeholders from 0, `name` is the
 * placeholder's text (":name", or "?"). A new string; NULL, with nothing
 * leaked, when `replace` returned NULL (it has reported why). */
typedef zend_string *(*php_mock_pdo_placeholder_fn)(void *ctx, uint32_t index,
                                                    const char *name,
                                                    size_t name_len);
zend_string *php_mock_pdo_rewrite_placeholders(
    const zend_string *query, php_mock_pdo_placeholder_fn replace, void *ctx);

/* The drivers (pdo_sim/src/drivers). */
extern const pdo_driver_t pdo_mock_driver;
extern const pdo_driver_t pdo_nopool_driver;
extern const pdo_driver_t pdo_sqlite_driver;
#ifdef ZAR_PDO_MYSQL
extern const pdo_driver_t pdo_mysql_driver;
#endif
/* Pdo\Sqlite's own methods (createFunction, ...). */
const zend_function_entry *pdo_sqlite_class_methods(void);

END_EXTERN_C()

#endif /* PHP_PDO_INT_H */
