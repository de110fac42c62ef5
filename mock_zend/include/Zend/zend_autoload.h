/*
 * zend-async-ref: mock Zend engine.
 *
 * Class autoloading (Zend/zend_autoload.h, PHP 8.5): the registry of class
 * loaders behind spl_autoload_register(). The mock runs no PHP code and
 * keeps no class loaders: zend_perform_class_autoload() and
 * zend_perform_class_map_autoload() find no class (NULL, as PHP with no
 * loader registered), zend_autoload_unregister_class_loader() finds nothing
 * to remove (false), zend_autoload_fcc_map_to_callable_zval_map() returns
 * an empty array, and zend_autoload_drop_autoload_map() has nothing to
 * drop. zend_autoload_register_class_loader() and
 * zend_autoload_callback_zval_destroy() fail loudly (an E_CORE_ERROR naming
 * the function): a loader registered here would never run.
 */
#ifndef ZEND_AUTOLOAD_H
#define ZEND_AUTOLOAD_H

#include "zend.h"
#include "zend_API.h"
#include "zend_string.h"

BEGIN_EXTERN_C()

ZEND_API zend_class_entry *zend_perform_class_autoload(zend_string *class_name,
                                                       zend_string *lc_name);
ZEND_API zend_class_entry *zend_perform_class_map_autoload(
    zend_string *class_name, zend_string *lc_name);
ZEND_API void zend_autoload_callback_zval_destroy(zval *entry);
ZEND_API void zend_autoload_register_class_loader(zend_fcall_info_cache *fcc,
                                                  bool prepend);
ZEND_API bool zend_autoload_unregister_class_loader(
    const zend_fcall_info_cache *fcc);
ZEND_API void zend_autoload_fcc_map_to_callable_zval_map(zval *return_value);
/* Only for deprecated strange behaviour of spl_autoload_unregister() */
ZEND_API void zend_autoload_drop_autoload_map(void);

END_EXTERN_C()

#endif /* ZEND_AUTOLOAD_H */
