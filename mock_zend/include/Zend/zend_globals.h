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

  /* HashTable iterators (zend_hash_iterator_add): ht_iterators_count
   * entries allocated, the first ht_iterators_used of them possibly in use
   * (a free entry has ht == NULL). Request memory, freed at its end. */
  uint32_t ht_iterators_count;
  uint32_t ht_iterators_used;
  HashTableIterator *ht_iterators;
  /* ---- The VM stack and fibers (zend_execute.h, zend_fibers.h), under
   * PHP's names and in PHP's relative order. Every field here is saved
   * and restored by each zend_fiber_switch_context, so each fiber context
   * sees its own. ---- */
  /* The VM stack page in use and its free part [vm_stack_top,
   * vm_stack_end): a page of vm_stack_page_size bytes that
   * zend_vm_stack_init() allocates at request startup; a fiber context
   * may point them at a page of its own (php-async's coroutines do). The
   * mock's internal frames are not placed on it. */
  zval *vm_stack_top;
  zval *vm_stack_end;
  zend_vm_stack vm_stack;
  size_t vm_stack_page_size;
  /* The error_reporting level: E_ALL at request startup. */
  int error_reporting;
  /* The JIT's trace number: always 0 (the mock has no JIT). */
  uint32_t jit_trace_num;
  /* The request's main fiber context (the thread's own stack, created at
   * request startup as PHP's zend_fiber_init does, freed at shutdown) and
   * the context running now; both NULL outside a request. */
  zend_fiber_context *main_fiber_context;
  zend_fiber_context *current_fiber_context;
  /* The running Fiber object: always NULL (the mock has no Fiber class). */
  zend_fiber *active_fiber;
  /* The C stack size zend_fiber_init_context gives a context asked for
   * size 0, and what extensions pass: ZEND_FIBER_DEFAULT_C_STACK_SIZE at
   * request startup (the mock reads no fiber.stack_size ini setting). */
  size_t fiber_stack_size;
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
 * class_table are EG()'s tables, as in PHP at run time. The map-pointer
 * table lives here, as in PHP (zend_map_ptr.h). */
typedef struct _zend_compiler_globals {
  zend_class_entry *active_class_entry;
  zend_string *compiled_filename;
  uint32_t zend_lineno;
  HashTable *function_table;
  HashTable *class_table;
  HashTable *auto_globals;
  bool in_compilation;
  /* The slots, and the base biased by one that map-pointer offsets are
   * relative to (ZEND_MAP_PTR_BIASED_BASE). */
  void *map_ptr_real_base;
  void *map_ptr_base;
  size_t map_ptr_size; /* slots allocated */
  size_t map_ptr_last; /* slots in use */
} zend_compiler_globals;

ZEND_API extern zend_compiler_globals compiler_globals;
#define CG(v) (compiler_globals.v)

ZEND_API const char *zend_get_executed_filename(void);
ZEND_API zend_string *zend_get_executed_filename_ex(void);
ZEND_API uint32_t zend_get_executed_lineno(void);
ZEND_API bool zend_is_executing(void);
/* Sets the location reported by zend_get_executed_filename/lineno; while
 * one is set, zend_is_executing() is true (a script runs there). The
 * filename must outlive its use (a string literal); NULL clears it. */
ZEND_API void zend_mock_set_location(const char *filename, uint32_t lineno);

END_EXTERN_C()

#endif /* ZEND_GLOBALS_H */
