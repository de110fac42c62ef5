/*
 * zend-async-ref pdo_sim: the module "pdo" (php_pdo.h): its classes, the
 * driver registry, and the helpers php_pdo_driver.h offers drivers.
 *
 *   MINIT      PDOException (extends RuntimeException, public $errorInfo),
 *              PDO, PDOStatement, Pdo\Sqlite (extends PDO); the pool
 *              (pdo_pool_init); the drivers "mock", "nopool", "sqlite" and,
 * when built with MariaDB Connector/C, "mysql". MSHUTDOWN  forgets the drivers,
 * the pool (pdo_pool_shutdown) and the class entries (the engine frees the
 * classes).
 */
#include <string.h>

#include "ext/spl/spl_exceptions.h"
#include "pdo_pool.h"
#include "php_pdo_int.h"

zend_class_entry *pdo_dbh_ce = NULL;
zend_class_entry *pdo_dbstmt_ce = NULL;
zend_class_entry *pdo_exception_ce = NULL;
zend_class_entry *pdo_sqlite_ce = NULL;

zend_class_entry *php_pdo_get_dbh_ce(void) { return pdo_dbh_ce; }
zend_class_entry *php_pdo_get_stmt_ce(void) { return pdo_dbstmt_ce; }
zend_class_entry *php_pdo_get_exception(void) { return pdo_exception_ce; }
zend_class_entry *php_pdo_get_sqlite_ce(void) { return pdo_sqlite_ce; }

/* ---- Drivers ------------------------------------------------------------- */

#define PDO_MAX_DRIVERS 8
static const pdo_driver_t *pdo_drivers[PDO_MAX_DRIVERS];
static int pdo_driver_count = 0;

zend_result php_pdo_register_driver(const pdo_driver_t *driver) {
  if (driver->api_version != PDO_DRIVER_API) {
    zend_error(E_ERROR,
               "PDO: driver %s requires PDO API version " ZEND_LONG_FMT
               "; this is PDO version %d",
               driver->driver_name, (zend_long)driver->api_version,
               PDO_DRIVER_API);
    return FAILURE;
  }
  if (pdo_driver_count == PDO_MAX_DRIVERS) return FAILURE;
  pdo_drivers[pdo_driver_count++] = driver;
  return SUCCESS;
}

void php_pdo_unregister_driver(const pdo_driver_t *driver) {
  for (int i = 0; i < pdo_driver_count; i++) {
    if (pdo_drivers[i] == driver) {
      pdo_drivers[i] = pdo_drivers[--pdo_driver_count];
      return;
    }
  }
}

pdo_driver_t *pdo_find_driver(const char *name, size_t namelen) {
  for (int i = 0; i < pdo_driver_count; i++) {
    if (pdo_drivers[i]->driver_name_len == namelen &&
        strncmp(pdo_drivers[i]->driver_name, name, namelen) == 0) {
      return (pdo_driver_t *)pdo_drivers[i];
    }
  }
  return NULL;
}

/* ---- Helpers for drivers ------------------------------------------------- */

int php_pdo_parse_data_source(const char *data_source,
                              zend_ulong data_source_len,
                              struct pdo_data_src_parser *parsed, int nparams) {
  int found = 0;
  zend_ulong i = 0;
  while (i < data_source_len) {
    /* name=value; */
    const zend_ulong name_start = i;
    while (i < data_source_len && data_source[i] != '=' &&
           data_source[i] != ';') {
      i++;
    }
    if (i >= data_source_len || data_source[i] == ';') {
      i++; /* a name without a value: skipped */
      continue;
    }
    const zend_ulong name_len = i - name_start;
    const zend_ulong value_start = ++i;
    while (i < data_source_len && data_source[i] != ';') i++;
    const zend_ulong value_len = i - value_start;
    i++;
    for (int j = 0; j < nparams; j++) {
      if (strlen(parsed[j].optname) == name_len &&
          strncmp(data_source + name_start, parsed[j].optname, name_len) == 0) {
        if (parsed[j].freeme) efree(parsed[j].optval);
        parsed[j].optval = estrndup(data_source + value_start, value_len);
        parsed[j].freeme = 1;
        found++;
        break;
      }
    }
  }
  return found;
}

bool pdo_get_long_param(zend_long *lval, const zval *value) {
  switch (Z_TYPE_P(value)) {
    case IS_LONG:
    case IS_TRUE:
    case IS_FALSE:
      *lval = zval_get_long(value);
      return true;
    default:
      zend_type_error(
          "Attribute value must be of type int for selected attribute, %s "
          "given",
          zend_zval_type_name(value));
      return false;
  }
}

bool pdo_get_bool_param(bool *bval, const zval *value) {
  switch (Z_TYPE_P(value)) {
    case IS_TRUE:
      *bval = true;
      return true;
    case IS_FALSE:
      *bval = false;
      return true;
    case IS_LONG:
      *bval = zend_is_true(value);
      return true;
    default:
      zend_type_error(
          "Attribute value must be of type bool for selected attribute, %s "
          "given",
          zend_zval_type_name(value));
      return false;
  }
}

/* ---- Module -------------------------------------------------------------- */

static zend_class_entry *register_class(const char *name,
                                        zend_class_entry *parent,
                                        const zend_function_entry *methods,
                                        zend_create_object_t create_object,
                                        const zend_object_handlers *handlers) {
  zend_class_entry ce;
  memset(&ce, 0, sizeof(ce));
  ce.name = zend_string_init_interned(name, strlen(name), true);
  ce.info_internal_builtin_functions = methods;
  ce.create_object = create_object;
  ce.default_object_handlers = handlers;
  return zend_register_internal_class_ex(&ce, parent);
}

static zend_result pdo_minit(INIT_FUNC_ARGS) {
  (void)type;
  (void)module_number;
  /* PDOException: public ?array $errorInfo = null. */
  pdo_exception_ce =
      register_class("PDOException", spl_ce_RuntimeException, NULL, NULL, NULL);
  if (pdo_exception_ce == NULL) return FAILURE;
  zval null_value;
  ZVAL_NULL(&null_value);
  zend_declare_property_ex(
      pdo_exception_ce, zend_string_init_interned(ZEND_STRL("errorInfo"), true),
      &null_value, ZEND_ACC_PUBLIC, NULL);

  pdo_dbh_ce = register_class("PDO", NULL, pdo_dbh_method_table(), pdo_dbh_new,
                              pdo_dbh_object_handlers());
  pdo_dbstmt_ce =
      register_class("PDOStatement", NULL, pdo_dbstmt_method_table(),
                     pdo_dbstmt_new, pdo_dbstmt_object_handlers());
  if (pdo_dbh_ce == NULL || pdo_dbstmt_ce == NULL) return FAILURE;
  pdo_sqlite_ce = register_class("Pdo\\Sqlite", pdo_dbh_ce,
                                 pdo_sqlite_class_methods(), NULL, NULL);
  if (pdo_sqlite_ce == NULL) return FAILURE;

  pdo_pool_init();
  if (php_pdo_register_driver(&pdo_mock_driver) != SUCCESS ||
      php_pdo_register_driver(&pdo_nopool_driver) != SUCCESS ||
      php_pdo_register_driver(&pdo_sqlite_driver) != SUCCESS) {
    return FAILURE;
  }
#ifdef ZAR_PDO_MYSQL
  if (php_pdo_register_driver(&pdo_mysql_driver) != SUCCESS) return FAILURE;
#endif
  return SUCCESS;
}

static zend_result pdo_mshutdown(SHUTDOWN_FUNC_ARGS) {
  (void)type;
  (void)module_number;
#ifdef ZAR_PDO_MYSQL
  php_pdo_unregister_driver(&pdo_mysql_driver);
#endif
  php_pdo_unregister_driver(&pdo_sqlite_driver);
  php_pdo_unregister_driver(&pdo_nopool_driver);
  php_pdo_unregister_driver(&pdo_mock_driver);
  pdo_pool_shutdown();
  pdo_dbh_ce = NULL;
  pdo_dbstmt_ce = NULL;
  pdo_exception_ce = NULL;
  pdo_sqlite_ce = NULL;
  return SUCCESS;
}

zend_module_entry pdo_module_entry = {
    STANDARD_MODULE_HEADER,
    "pdo",
    NULL, /* functions */
    pdo_minit,
    pdo_mshutdown,
    NULL, /* RINIT */
    NULL, /* RSHUTDOWN */
    NULL, /* info */
    "8.5.0-dev (zend-async-ref pdo_sim)",
    STANDARD_MODULE_PROPERTIES,
};
