/*
 * zend-async-ref: mock Zend engine. The executor globals, EG().
 */
#ifndef ZEND_GLOBALS_H
#define ZEND_GLOBALS_H

#include "zend.h"
#include "zend_compile.h"
#include "zend_objects_API.h"

BEGIN_EXTERN_C()

/* A VM stack page (zend_execute.h); the mock executes no bytecode and
 * allocates none, but extensions keep these handles, as in PHP. */
typedef struct _zend_vm_stack *zend_vm_stack;
typedef struct _zend_fiber_context zend_fiber_context;
typedef struct _zend_fiber zend_fiber;

typedef struct _zend_executor_globals {
  /* The exception in flight, or NULL. Owns one reference. */
  zend_object *exception;
  zend_object *prev_exception;
  /* Innermost zend_try, or NULL. */
  JMP_BUF *bailout;
  int exit_status;
  /* The frame of the internal function running now, or NULL. */
  zend_execute_data *current_execute_data;
  zend_objects_store objects_store;
  /* Global functions (lowercase name -> zend_function*) and classes
   * (lowercase name -> zend_class_entry*), both IS_PTR. */
  HashTable *function_table;
  HashTable *class_table;
  bool active; /* between php_request_startup and php_request_shutdown */
  uint32_t flags;
  zend_class_entry *fake_scope;
  /* What zend_get_executed_filename()/lineno() report: the mock has no
   * compiled script, so tests set a location with zend_mock_set_location(). */
  const char *mock_filename;
  uint32_t mock_lineno;
  /* Constants (zend_constants.h): name -> zend_constant* (IS_PTR),
   * persistent, from module startup to module shutdown. */
  HashTable *zend_constants;
  /* INI directives (zend_ini.h): name -> zend_ini_entry*
   * (IS_PTR), persistent, from module startup to module shutdown. */
  HashTable *ini_directives;
} zend_executor_globals;

ZEND_API extern zend_executor_globals executor_globals;
#define EG(v) (executor_globals.v)

/* The compiler globals, CG(): the fields of PHP's struct an extension
 * reads, in PHP's order. The mock compiles nothing: in_compilation stays
 * false, compiled_filename NULL and zend_lineno 0; function_table and
 * class_table are EG()'s tables, as in PHP at run time. */
typedef struct _zend_compiler_globals {
  zend_class_entry *active_class_entry;
  zend_string *compiled_filename;
  uint32_t zend_lineno;
  HashTable *function_table;
  HashTable *class_table;
  HashTable *auto_globals;
  bool in_compilation;
} zend_compiler_globals;

ZEND_API extern zend_compiler_globals compiler_globals;
#define CG(v) (compiler_globals.v)

ZEND_API const char *zend_get_executed_filename(void);
ZEND_API zend_string *zend_get_executed_filename_ex(void);
ZEND_API uint32_t zend_get_executed_lineno(void);
ZEND_API bool zend_is_executing(void);
/* Sets the location reported by zend_get_executed_filename/lineno. The
 * filename must outlive its use (a string literal). */
ZEND_API void zend_mock_set_location(const char *filename, uint32_t lineno);

END_EXTERN_C()

#endif /* ZEND_GLOBALS_H */
