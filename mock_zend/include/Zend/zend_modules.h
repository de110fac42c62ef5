/*
 * zend-async-ref: mock Zend engine.
 *
 * Module entries: how an extension plugs its MINIT/MSHUTDOWN/RINIT/RSHUTDOWN
 * into the request lifecycle (main/php_main.h). The field order is PHP's, so
 * entries written with STANDARD_MODULE_HEADER ... STANDARD_MODULE_PROPERTIES
 * compile unchanged.
 */
#ifndef ZEND_MODULES_H
#define ZEND_MODULES_H

#include "zend.h"

BEGIN_EXTERN_C()

#define ZEND_MODULE_API_NO 20250926
#define ZEND_DEBUG 0
#define USING_ZTS 0

#define MODULE_PERSISTENT 1
#define MODULE_TEMPORARY 2

#define INIT_FUNC_ARGS int type, int module_number
#define INIT_FUNC_ARGS_PASSTHRU type, module_number
#define SHUTDOWN_FUNC_ARGS int type, int module_number
#define SHUTDOWN_FUNC_ARGS_PASSTHRU type, module_number
#define ZEND_MODULE_INFO_FUNC_ARGS struct _zend_module_entry *zend_module

typedef struct _zend_module_entry zend_module_entry;

struct _zend_module_entry {
  unsigned short size;
  unsigned int zend_api;
  unsigned char zend_debug;
  unsigned char zts;
  const void *ini_entry;
  const void *deps;
  const char *name;
  const zend_function_entry *functions;
  zend_result (*module_startup_func)(INIT_FUNC_ARGS);
  zend_result (*module_shutdown_func)(SHUTDOWN_FUNC_ARGS);
  zend_result (*request_startup_func)(INIT_FUNC_ARGS);
  zend_result (*request_shutdown_func)(SHUTDOWN_FUNC_ARGS);
  void (*info_func)(ZEND_MODULE_INFO_FUNC_ARGS);
  const char *version;
  size_t globals_size;
  void *globals_ptr;
  void (*globals_ctor)(void *global);
  void (*globals_dtor)(void *global);
  zend_result (*post_deactivate_func)(void);
  int module_started;
  unsigned char type;
  void *handle;
  int module_number;
  const char *build_id;
};

#define STANDARD_MODULE_HEADER_EX \
  sizeof(zend_module_entry), ZEND_MODULE_API_NO, ZEND_DEBUG, USING_ZTS
#define STANDARD_MODULE_HEADER STANDARD_MODULE_HEADER_EX, NULL, NULL
#define ZEND_MODULE_BUILD_ID \
  "API"                      \
  "20250926,NTS"
#define STANDARD_MODULE_PROPERTIES_EX 0, 0, NULL, 0, ZEND_MODULE_BUILD_ID
#define NO_MODULE_GLOBALS 0, NULL, NULL, NULL
#define NO_VERSION_YET NULL
#define STANDARD_MODULE_PROPERTIES \
  NO_MODULE_GLOBALS, NULL, STANDARD_MODULE_PROPERTIES_EX

#define ZEND_MODULE_STARTUP_N(module) zm_startup_##module
#define ZEND_MODULE_SHUTDOWN_N(module) zm_shutdown_##module
#define ZEND_MODULE_ACTIVATE_N(module) zm_activate_##module
#define ZEND_MODULE_DEACTIVATE_N(module) zm_deactivate_##module
#define ZEND_MODULE_INFO_N(module) zm_info_##module

#define ZEND_MODULE_STARTUP_D(module) \
  zend_result ZEND_MODULE_STARTUP_N(module)(INIT_FUNC_ARGS)
#define ZEND_MODULE_SHUTDOWN_D(module) \
  zend_result ZEND_MODULE_SHUTDOWN_N(module)(SHUTDOWN_FUNC_ARGS)
#define ZEND_MODULE_ACTIVATE_D(module) \
  zend_result ZEND_MODULE_ACTIVATE_N(module)(INIT_FUNC_ARGS)
#define ZEND_MODULE_DEACTIVATE_D(module) \
  zend_result ZEND_MODULE_DEACTIVATE_N(module)(SHUTDOWN_FUNC_ARGS)
#define ZEND_MODULE_INFO_D(module) \
  void ZEND_MODULE_INFO_N(module)(ZEND_MODULE_INFO_FUNC_ARGS)

/* The globals fields of a module entry (non-ZTS): their size and address,
 * then the constructor and destructor named by ZEND_GINIT/ZEND_GSHUTDOWN. */
#define ZEND_MODULE_GLOBALS(module_name) \
  sizeof(zend_##module_name##_globals), &module_name##_globals
#define ZEND_MODULE_GLOBALS_CTOR_N(module) zm_globals_ctor_##module
#define ZEND_MODULE_GLOBALS_DTOR_N(module) zm_globals_dtor_##module
#define ZEND_MODULE_GLOBALS_CTOR_D(module)                          \
  void ZEND_MODULE_GLOBALS_CTOR_N(module)(zend_##module##_globals * \
                                          module##_globals)
#define ZEND_MODULE_GLOBALS_DTOR_D(module)                          \
  void ZEND_MODULE_GLOBALS_DTOR_N(module)(zend_##module##_globals * \
                                          module##_globals)
#define ZEND_GINIT(module) \
  ((void (*)(void *))(ZEND_MODULE_GLOBALS_CTOR_N(module)))
#define ZEND_GSHUTDOWN(module) \
  ((void (*)(void *))(ZEND_MODULE_GLOBALS_DTOR_N(module)))
#define ZEND_GINIT_FUNCTION ZEND_MODULE_GLOBALS_CTOR_D
/* PHP's short names of the module hooks (zend_API.h). */
#define ZEND_MINIT ZEND_MODULE_STARTUP_N
#define ZEND_MSHUTDOWN ZEND_MODULE_SHUTDOWN_N
#define ZEND_RINIT ZEND_MODULE_ACTIVATE_N
#define ZEND_RSHUTDOWN ZEND_MODULE_DEACTIVATE_N
#define ZEND_MINFO ZEND_MODULE_INFO_N
#define ZEND_MINIT_FUNCTION ZEND_MODULE_STARTUP_D
#define ZEND_MSHUTDOWN_FUNCTION ZEND_MODULE_SHUTDOWN_D
#define ZEND_RINIT_FUNCTION ZEND_MODULE_ACTIVATE_D
#define ZEND_RSHUTDOWN_FUNCTION ZEND_MODULE_DEACTIVATE_D
#define ZEND_MINFO_FUNCTION ZEND_MODULE_INFO_D
#define ZEND_GSHUTDOWN_FUNCTION ZEND_MODULE_GLOBALS_DTOR_D

END_EXTERN_C()

#endif /* ZEND_MODULES_H */
