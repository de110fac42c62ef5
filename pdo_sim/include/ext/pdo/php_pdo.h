/*
 * zend-async-ref pdo_sim: the PDO extension's module, under php-src's names
 * (ext/pdo/php_pdo.h).
 *
 * pdo_module_entry ("pdo") registers, in its MINIT, the classes PDO,
 * PDOStatement, PDOException (extends RuntimeException) and Pdo\Sqlite,
 * and the drivers "mock", "nopool" and "sqlite". It needs the async
 * extension loaded before it (php_module_startup order) only for pooled
 * handles; everything pooled goes through the ABI (Zend/zend_async_API.h).
 *
 * Threading: the engine's thread.
 */
#ifndef PHP_PDO_H
#define PHP_PDO_H

#include "php.h"

BEGIN_EXTERN_C()

#define PDO_API ZEND_API

extern zend_module_entry pdo_module_entry;
#define phpext_pdo_ptr &pdo_module_entry

/* The class entries (valid between MINIT and MSHUTDOWN, NULL otherwise). */
PDO_API zend_class_entry *php_pdo_get_dbh_ce(void);
PDO_API zend_class_entry *php_pdo_get_stmt_ce(void);
PDO_API zend_class_entry *php_pdo_get_exception(void);
/* Pdo\Sqlite (extends PDO). */
PDO_API zend_class_entry *php_pdo_get_sqlite_ce(void);

END_EXTERN_C()

#endif /* PHP_PDO_H */
