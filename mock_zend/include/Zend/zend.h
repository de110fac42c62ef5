/*
 * zend-async-ref: mock Zend engine.
 *
 * Class entries, functions, error reporting and bailout.
 *
 * Errors: zend_error() records every report (level and formatted message)
 * in a log that tests read through zend_mock_error_*(); it also prints it
 * on stderr when ZEND_MOCK_PRINT_ERRORS is set in the environment. Fatal
 * levels (E_FATAL_ERRORS) then bail out, like PHP, when a zend_try is
 * active; outside any zend_try (module startup, a test body calling a
 * register function directly) they are recorded and the call returns, so
 * the caller's own error path (for instance `return false` after an
 * E_CORE_ERROR in a register function) is observable.
 */
#ifndef ZEND_H
#define ZEND_H

#include "zend_alloc.h"
#include "zend_errors.h"
#include "zend_frameless_function.h"
#include "zend_hash.h"
#include "zend_iterators.h"
#include "zend_map_ptr.h"
#include "zend_object_handlers.h"
#include "zend_portability.h"
#include "zend_signal.h"
#include "zend_string.h"
#include "zend_type_info.h"
#include "zend_types.h"

BEGIN_EXTERN_C()

#define ZEND_VERSION "8.5.0-dev (zend-async-ref mock)"
#define PHP_VERSION "8.5.0-dev"
#define PHP_VERSION_ID 80500

/* Functions */
#define INTERNAL_FUNCTION_PARAMETERS \
  zend_execute_data *execute_data, zval *return_value
#define INTERNAL_FUNCTION_PARAM_PASSTHRU execute_data, return_value

typedef void (*zif_handler)(INTERNAL_FUNCTION_PARAMETERS);

#define ZEND_INTERNAL_FUNCTION 1
#define ZEND_USER_FUNCTION 2
#define ZEND_EVAL_CODE 4
#define ZEND_USER_CODE(type) ((type) != ZEND_INTERNAL_FUNCTION)

/* Slots an extension can reserve in op arrays, internal functions and
 * fiber contexts (zend_get_resource_handle() in PHP). */
#define ZEND_MAX_RESERVED_RESOURCES 6

/* Function and class flags (PHP's values). */
#define ZEND_ACC_PUBLIC (1 << 0)
#define ZEND_ACC_PROTECTED (1 << 1)
#define ZEND_ACC_PRIVATE (1 << 2)
#define ZEND_ACC_STATIC (1 << 4)
#define ZEND_ACC_FINAL (1 << 5)
#define ZEND_ACC_READONLY (1 << 7)
#define ZEND_ACC_ABSTRACT (1 << 6)
#define ZEND_ACC_DEPRECATED (1 << 11)
#define ZEND_ACC_CTOR (1 << 21)
#define ZEND_ACC_CLOSURE (1 << 22)
#define ZEND_ACC_CALL_VIA_TRAMPOLINE (1 << 18)
#define ZEND_ACC_INTERFACE (1 << 0)
#define ZEND_ACC_TRAIT (1 << 1)
#define ZEND_ACC_ANON_CLASS (1 << 2)
#define ZEND_ACC_EXPLICIT_ABSTRACT_CLASS (1 << 6)
#define ZEND_ACC_NO_DYNAMIC_PROPERTIES (1 << 13)
#define ZEND_ACC_READONLY_CLASS (1 << 16)
#define ZEND_ACC_ENUM (1 << 28)
#define ZEND_ACC_NOT_SERIALIZABLE (1 << 29)

/* Compiled code: the function flags of op arrays (PHP's values). */
#define ZEND_ACC_PPP_MASK \
  (ZEND_ACC_PUBLIC | ZEND_ACC_PROTECTED | ZEND_ACC_PRIVATE)
#define ZEND_ACC_CHANGED (1 << 3)
#define ZEND_ACC_IMMUTABLE (1 << 7)
#define ZEND_ACC_HAS_TYPE_HINTS (1 << 8)
#define ZEND_ACC_TOP_LEVEL (1 << 9)
#define ZEND_ACC_PRELOADED (1 << 10)
#define ZEND_ACC_RETURN_REFERENCE (1 << 12)
#define ZEND_ACC_HAS_RETURN_TYPE (1 << 13)
#define ZEND_ACC_VARIADIC (1 << 14)
#define ZEND_ACC_HAS_FINALLY_BLOCK (1 << 15)
#define ZEND_ACC_EARLY_BINDING (1 << 16)
#define ZEND_ACC_USES_THIS (1 << 17)
#define ZEND_ACC_CALL_VIA_HANDLER ZEND_ACC_CALL_VIA_TRAMPOLINE
#define ZEND_ACC_NEVER_CACHE (1 << 19)
#define ZEND_ACC_TRAIT_CLONE (1 << 20)
#define ZEND_ACC_FAKE_CLOSURE (1 << 23)
#define ZEND_ACC_GENERATOR (1 << 24)
#define ZEND_ACC_DONE_PASS_TWO (1 << 25)
#define ZEND_ACC_ARENA_ALLOCATED (1 << 25)
#define ZEND_ACC_HEAP_RT_CACHE (1 << 26)
#define ZEND_ACC_USER_ARG_INFO (1 << 26)
#define ZEND_ACC_COMPILE_TIME_EVAL (1 << 27)
#define ZEND_ACC_OVERRIDE (1 << 28)
#define ZEND_ACC_STRICT_TYPES (1U << 31)

/* An internal function's argument (PHP's layout): arg_info[0] of a table
 * describes the return value, its name field holding the required argument
 * count. The type is recorded (zend_type: MAY_BE_* mask, class name and
 * the by-reference and variadic flags) but not enforced beyond what
 * zend_parse_parameters checks. */
typedef struct _zend_internal_arg_info {
  const char *name;
  zend_type type;
  const char *default_value;
} zend_internal_arg_info;

#define _ZEND_SEND_MODE_SHIFT _ZEND_TYPE_EXTRA_FLAGS_SHIFT
#define _ZEND_IS_VARIADIC_BIT (1 << (_ZEND_TYPE_EXTRA_FLAGS_SHIFT + 2))
#define _ZEND_IS_PROMOTED_BIT (1 << (_ZEND_TYPE_EXTRA_FLAGS_SHIFT + 3))
#define _ZEND_IS_TENTATIVE_BIT (1 << (_ZEND_TYPE_EXTRA_FLAGS_SHIFT + 4))
#define ZEND_ARG_SEND_MODE(arg_info) \
  ((ZEND_TYPE_FULL_MASK((arg_info)->type) >> _ZEND_SEND_MODE_SHIFT) & 3)
#define ZEND_ARG_IS_VARIADIC(arg_info) \
  ((ZEND_TYPE_FULL_MASK((arg_info)->type) & _ZEND_IS_VARIADIC_BIT) != 0)
#define ZEND_ARG_IS_PROMOTED(arg_info) \
  ((ZEND_TYPE_FULL_MASK((arg_info)->type) & _ZEND_IS_PROMOTED_BIT) != 0)
#define ZEND_ARG_TYPE_IS_TENTATIVE(arg_info) \
  ((ZEND_TYPE_FULL_MASK((arg_info)->type) & _ZEND_IS_TENTATIVE_BIT) != 0)
#define _ZEND_ARG_INFO_FLAGS(pass_by_ref, is_variadic, is_tentative) \
  (((pass_by_ref) << _ZEND_SEND_MODE_SHIFT) |                        \
   ((is_variadic) ? _ZEND_IS_VARIADIC_BIT : 0) |                     \
   ((is_tentative) ? _ZEND_IS_TENTATIVE_BIT : 0))

/* Arg-info tables as gen_stub.php writes them, with PHP's arities. */
#define ZEND_BEGIN_ARG_INFO_EX(name, _unused, return_reference,           \
                               required_num_args)                         \
  static const zend_internal_arg_info name[] = {                          \
      {(const char *)(uintptr_t)(required_num_args),                      \
       ZEND_TYPE_INIT_NONE(_ZEND_ARG_INFO_FLAGS(return_reference, 0, 0)), \
       NULL},
#define ZEND_BEGIN_ARG_INFO(name, _unused) \
  ZEND_BEGIN_ARG_INFO_EX(name, {}, ZEND_RETURN_VALUE, -1)
#define _ZEND_BEGIN_ARG_WITH_RETURN(name, required_num_args, type) \
  static const zend_internal_arg_info name[] = {                   \
      {(const char *)(uintptr_t)(required_num_args), type, NULL},
#define ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(                 \
    name, return_reference, required_num_args, type, allow_null) \
  _ZEND_BEGIN_ARG_WITH_RETURN(                                   \
      name, required_num_args,                                   \
      ZEND_TYPE_INIT_CODE(type, allow_null,                      \
                          _ZEND_ARG_INFO_FLAGS(return_reference, 0, 0)))
#define ZEND_BEGIN_ARG_WITH_TENTATIVE_RETURN_TYPE_INFO_EX(       \
    name, return_reference, required_num_args, type, allow_null) \
  _ZEND_BEGIN_ARG_WITH_RETURN(                                   \
      name, required_num_args,                                   \
      ZEND_TYPE_INIT_CODE(type, allow_null,                      \
                          _ZEND_ARG_INFO_FLAGS(return_reference, 0, 1)))
#define ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO(name, type, allow_null) \
  ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(name, 0, -1, type, allow_null)
#define ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(                        \
    name, return_reference, required_num_args, class_name, allow_null) \
  _ZEND_BEGIN_ARG_WITH_RETURN(                                         \
      name, required_num_args,                                         \
      ZEND_TYPE_INIT_CLASS_CONST(                                      \
          #class_name, allow_null,                                     \
          _ZEND_ARG_INFO_FLAGS(return_reference, 0, 0)))
#define ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO(name, class_name, allow_null) \
  ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(name, 0, -1, class_name, allow_null)
#define ZEND_BEGIN_ARG_WITH_RETURN_OBJ_TYPE_MASK_EX(             \
    name, return_reference, required_num_args, class_name, type) \
  _ZEND_BEGIN_ARG_WITH_RETURN(                                   \
      name, required_num_args,                                   \
      ZEND_TYPE_INIT_CLASS_CONST_MASK(                           \
          #class_name, type | _ZEND_ARG_INFO_FLAGS(return_reference, 0, 0)))
#define ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(name, return_reference,  \
                                                required_num_args, type) \
  _ZEND_BEGIN_ARG_WITH_RETURN(                                           \
      name, required_num_args,                                           \
      ZEND_TYPE_INIT_MASK(type |                                         \
                          _ZEND_ARG_INFO_FLAGS(return_reference, 0, 0)))
#define ZEND_ARG_INFO(pass_by_ref, name) \
  {#name, ZEND_TYPE_INIT_NONE(_ZEND_ARG_INFO_FLAGS(pass_by_ref, 0, 0)), NULL},
#define ZEND_ARG_INFO_WITH_DEFAULT_VALUE(pass_by_ref, name, default_value) \
  {#name, ZEND_TYPE_INIT_NONE(_ZEND_ARG_INFO_FLAGS(pass_by_ref, 0, 0)),    \
   default_value},
#define ZEND_ARG_VARIADIC_INFO(pass_by_ref, name) \
  {#name, ZEND_TYPE_INIT_NONE(_ZEND_ARG_INFO_FLAGS(pass_by_ref, 1, 0)), NULL},
#define ZEND_ARG_TYPE_INFO(pass_by_ref, name, type_hint, allow_null) \
  {#name,                                                            \
   ZEND_TYPE_INIT_CODE(type_hint, allow_null,                        \
                       _ZEND_ARG_INFO_FLAGS(pass_by_ref, 0, 0)),     \
   NULL},
#define ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(pass_by_ref, name, type_hint, \
                                              allow_null, default_value)    \
  {#name,                                                                   \
   ZEND_TYPE_INIT_CODE(type_hint, allow_null,                               \
                       _ZEND_ARG_INFO_FLAGS(pass_by_ref, 0, 0)),            \
   default_value},
#define ZEND_ARG_VARIADIC_TYPE_INFO(pass_by_ref, name, type_hint, allow_null) \
  {#name,                                                                     \
   ZEND_TYPE_INIT_CODE(type_hint, allow_null,                                 \
                       _ZEND_ARG_INFO_FLAGS(pass_by_ref, 1, 0)),              \
   NULL},
#define ZEND_ARG_TYPE_MASK(pass_by_ref, name, type_mask, default_value)      \
  {#name,                                                                    \
   ZEND_TYPE_INIT_MASK(type_mask | _ZEND_ARG_INFO_FLAGS(pass_by_ref, 0, 0)), \
   default_value},
#define ZEND_ARG_OBJ_INFO(pass_by_ref, name, classname, allow_null)     \
  {#name,                                                               \
   ZEND_TYPE_INIT_CLASS_CONST(#classname, allow_null,                   \
                              _ZEND_ARG_INFO_FLAGS(pass_by_ref, 0, 0)), \
   NULL},
#define ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(pass_by_ref, name, classname, \
                                             allow_null, default_value)    \
  {#name,                                                                  \
   ZEND_TYPE_INIT_CLASS_CONST(#classname, allow_null,                      \
                              _ZEND_ARG_INFO_FLAGS(pass_by_ref, 0, 0)),    \
   default_value},
#define ZEND_ARG_OBJ_TYPE_MASK(pass_by_ref, name, class_name, type_mask,      \
                               default_value)                                 \
  {#name,                                                                     \
   ZEND_TYPE_INIT_CLASS_CONST_MASK(                                           \
       #class_name, ((type_mask) | _ZEND_ARG_INFO_FLAGS(pass_by_ref, 0, 0))), \
   default_value},
#define ZEND_ARG_VARIADIC_OBJ_INFO(pass_by_ref, name, classname, allow_null) \
  {#name,                                                                    \
   ZEND_TYPE_INIT_CLASS_CONST(#classname, allow_null,                        \
                              _ZEND_ARG_INFO_FLAGS(pass_by_ref, 1, 0)),      \
   NULL},
#define ZEND_ARG_CALLABLE_INFO(pass_by_ref, name, allow_null)    \
  {#name,                                                        \
   ZEND_TYPE_INIT_CODE(IS_CALLABLE, allow_null,                  \
                       _ZEND_ARG_INFO_FLAGS(pass_by_ref, 0, 0)), \
   NULL},
#define ZEND_END_ARG_INFO() \
  }                         \
  ;
#define ZEND_RETURN_VALUE 0
#define ZEND_RETURN_REFERENCE 1
#define ZEND_SEND_BY_VAL 0u
#define ZEND_SEND_BY_REF 1u
#define ZEND_SEND_PREFER_REF 2u

/* Compiled code (op arrays): PHP 8.6's layouts, so extension code that
 * inspects or copies a user function compiles and lays out as against
 * PHP. The mock compiles no PHP code, so no op array is ever produced by
 * the engine; code that builds one by hand can read it back, and the
 * functions that would compile or run one fail loudly (zend_compile.h,
 * zend_execute.h, zend_vm.h). */
typedef struct _zend_op_array zend_op_array;
typedef struct _zend_op zend_op;
typedef struct _zend_property_info zend_property_info;
struct _zend_module_entry;

/* Absolute jump and constant addresses are used on 32-bit systems only;
 * 64-bit PHP keeps 32-bit offsets relative to the opline. */
#if defined(SIZEOF_SIZE_T) && SIZEOF_SIZE_T == 4
#define ZEND_USE_ABS_JMP_ADDR 1
#define ZEND_USE_ABS_CONST_ADDR 1
#else
#define ZEND_USE_ABS_JMP_ADDR 0
#define ZEND_USE_ABS_CONST_ADDR 0
#endif

typedef union _znode_op {
  uint32_t constant;
  uint32_t var;
  uint32_t num;
  uint32_t opline_num;
#if ZEND_USE_ABS_JMP_ADDR
  zend_op *jmp_addr;
#else
  uint32_t jmp_offset;
#endif
#if ZEND_USE_ABS_CONST_ADDR
  zval *zv;
#endif
} znode_op;

struct _zend_op {
  const void *handler;
  znode_op op1;
  znode_op op2;
  znode_op result;
  uint32_t extended_value;
  uint32_t lineno;
  zend_uchar opcode;
  zend_uchar op1_type;
  zend_uchar op2_type;
  zend_uchar result_type;
};

typedef struct _zend_try_catch_element {
  uint32_t try_op;
  uint32_t catch_op;
  uint32_t finally_op;
  uint32_t finally_end;
} zend_try_catch_element;

#define ZEND_LIVE_TMPVAR 0
#define ZEND_LIVE_LOOP 1
#define ZEND_LIVE_SILENCE 2
#define ZEND_LIVE_ROPE 3
#define ZEND_LIVE_NEW 4
#define ZEND_LIVE_MASK 7

typedef struct _zend_live_range {
  uint32_t var; /* the low bits hold the ZEND_LIVE_* kind */
  uint32_t start;
  uint32_t end;
} zend_live_range;

/* The arg info of a user function: arg_info[-1] describes the return
 * value when ZEND_ACC_HAS_RETURN_TYPE is set. */
typedef struct _zend_arg_info {
  zend_string *name;
  zend_type type;
  zend_string *default_value;
  zend_string *doc_comment; /* PHP 8.6: the parameter's doc comment */
} zend_arg_info;

/* (Mock) The elements every member of the zend_function union starts with, in
 * PHP 8.6's order (func->common reads them for any function): arg_info is
 * a zend_arg_info* for user code, a zend_internal_arg_info* for an internal
 * function; arg_info[-1] describes the return value when
 * ZEND_ACC_HAS_RETURN_TYPE is set. attributes is the function's table of
 * zend_attribute* or NULL (zend_attributes.h; a function-table function
 * frees it with itself), T its temporaries, prop_info the property of a
 * property hook. */
#define ZEND_MOCK_FUNCTION_COMMON_ELEMENTS(arg_info_type) \
  zend_uchar type;                                        \
  zend_uchar arg_flags[3];                                \
  uint32_t fn_flags;                                      \
  zend_string *function_name;                             \
  zend_class_entry *scope;                                \
  zend_function *prototype;                               \
  uint32_t num_args;                                      \
  uint32_t required_num_args;                             \
  arg_info_type *arg_info;                                \
  HashTable *attributes;                                  \
  ZEND_MAP_PTR_DEF(void **, run_time_cache);              \
  zend_string *doc_comment;                               \
  uint32_t T;                                             \
  uint32_t fn_flags2;                                     \
  const zend_property_info *prop_info

struct _zend_op_array {
  ZEND_MOCK_FUNCTION_COMMON_ELEMENTS(
      zend_arg_info); /* type: ZEND_USER_FUNCTION */

  int cache_size;
  int last_var;  /* compiled variables */
  uint32_t last; /* opcodes */

  zend_op *opcodes;
  ZEND_MAP_PTR_DEF(HashTable *, static_variables_ptr);
  HashTable *static_variables;
  zend_string **vars; /* names of the compiled variables */

  uint32_t *refcount;

  int last_live_range;
  int last_try_catch;
  zend_live_range *live_range;
  zend_try_catch_element *try_catch_array;

  zend_string *filename;
  uint32_t line_start;
  uint32_t line_end;

  int last_literal;
  uint32_t num_dynamic_func_defs;
  zval *literals;

  /* Functions declared inside this one, referenced by index from opcodes */
  zend_op_array **dynamic_func_defs;

  void *reserved[ZEND_MAX_RESERVED_RESOURCES];
};

/* An internal (C) function or method, with PHP 8.6's fields in PHP's order.
 *
 * `reserved` belongs to whoever created the function, with one engine
 * convention for functions owned by a function table (registered globally
 * or as a method of a class): when the engine frees such a function at
 * module shutdown and reserved[1] is not NULL, it first calls
 * ((void (*)(void *))reserved[1])(reserved[0]). The C++ ClassBuilder keeps
 * each method's heap-allocated NativeBody in reserved[0] and its deleter in
 * reserved[1]. The other slots are free for the creator. The function
 * embedded in a closure object is owned by the closure and is not subject
 * to this convention. */
typedef struct _zend_internal_function {
  ZEND_MOCK_FUNCTION_COMMON_ELEMENTS(const zend_internal_arg_info);

  zif_handler handler;
  struct _zend_module_entry *module;
  const zend_frameless_function_info *frameless_function_infos;
  void *reserved[ZEND_MAX_RESERVED_RESOURCES];
} zend_internal_function;

union _zend_function {
  zend_uchar type;
  uint32_t quick_arg_flags;
  struct {
    ZEND_MOCK_FUNCTION_COMMON_ELEMENTS(zend_arg_info);
  } common;
  zend_op_array op_array;
  zend_internal_function internal_function;
};

/* One function or method of a zend_function_entry list, with PHP 8.4+'s
 * fields in PHP's order. The mock engine runs no opcodes, so it never calls
 * a frameless handler: frameless_function_infos (an array ended by an entry
 * with a NULL handler) and doc_comment are carried as given. */
typedef struct _zend_function_entry {
  const char *fname;
  zif_handler handler;
  const zend_internal_arg_info *arg_info;
  uint32_t num_args;
  uint32_t flags;
  const zend_frameless_function_info *frameless_function_infos;
  const char *doc_comment;
} zend_function_entry;

#define ZEND_FN(name) zif_##name
#define ZEND_MN(name) zim_##name
#define ZEND_NAMED_FUNCTION(name) \
  void ZEND_FASTCALL name(INTERNAL_FUNCTION_PARAMETERS)
#define ZEND_FUNCTION(name) ZEND_NAMED_FUNCTION(zif_##name)
#define ZEND_METHOD(classname, name) \
  ZEND_NAMED_FUNCTION(zim_##classname##_##name)
#define PHP_FUNCTION ZEND_FUNCTION
#define PHP_METHOD ZEND_METHOD

/* The function-entry macros of PHP 8.4+, as gen_stub.php writes them into
 * *_arginfo.h files. num_args is derived from the arg-info array as PHP
 * does: arg_info[0] describes the return value and required argument
 * count. */
#define ZEND_NS_NAME(ns, name) ns "\\" name
#define ZEND_FENTRY(zend_name, name, arg_info, flags) \
  ZEND_RAW_FENTRY(#zend_name, name, arg_info, flags, NULL, NULL)
#define ZEND_RAW_FENTRY(zend_name, name, arg_info, flags,                     \
                        frameless_function_infos, doc_comment)                \
  {zend_name,                                                                 \
   name,                                                                      \
   arg_info,                                                                  \
   (uint32_t)(sizeof(arg_info) / sizeof(struct _zend_internal_arg_info) - 1), \
   flags,                                                                     \
   frameless_function_infos,                                                  \
   doc_comment},
#define ZEND_RAW_NAMED_FE(zend_name, name, arg_info) \
  ZEND_RAW_FENTRY(#zend_name, name, arg_info, 0, NULL, NULL)
#define ZEND_NAMED_FE(zend_name, name, arg_info) \
  ZEND_RAW_FENTRY(#zend_name, name, arg_info, 0, NULL, NULL)
#define ZEND_FE(name, arg_info) \
  ZEND_RAW_FENTRY(#name, zif_##name, arg_info, 0, NULL, NULL)
#define ZEND_DEP_FE(name, arg_info) \
  ZEND_RAW_FENTRY(#name, zif_##name, arg_info, ZEND_ACC_DEPRECATED, NULL, NULL)
#define ZEND_FALIAS(name, alias, arg_info) \
  ZEND_RAW_FENTRY(#name, zif_##alias, arg_info, 0, NULL, NULL)
#define ZEND_DEP_FALIAS(name, alias, arg_info) \
  ZEND_RAW_FENTRY(#name, zif_##alias, arg_info, ZEND_ACC_DEPRECATED, NULL, NULL)
#define ZEND_NAMED_ME(zend_name, name, arg_info, flags) \
  ZEND_FENTRY(zend_name, name, arg_info, flags)
#define ZEND_ME(classname, name, arg_info, flags) \
  ZEND_RAW_FENTRY(#name, zim_##classname##_##name, arg_info, flags, NULL, NULL)
#define ZEND_DEP_ME(classname, name, arg_info, flags)        \
  ZEND_RAW_FENTRY(#name, zim_##classname##_##name, arg_info, \
                  flags | ZEND_ACC_DEPRECATED, NULL, NULL)
#define ZEND_ABSTRACT_ME(classname, name, arg_info)                           \
  ZEND_RAW_FENTRY(#name, NULL, arg_info, ZEND_ACC_PUBLIC | ZEND_ACC_ABSTRACT, \
                  NULL, NULL)
#define ZEND_ABSTRACT_ME_WITH_FLAGS(classname, name, arg_info, flags) \
  ZEND_RAW_FENTRY(#name, NULL, arg_info, flags, NULL, NULL)
#define ZEND_MALIAS(classname, name, alias, arg_info, flags) \
  ZEND_RAW_FENTRY(#name, zim_##classname##_##alias, arg_info, flags, NULL, NULL)
#define ZEND_ME_MAPPING(name, func_name, arg_info, flags) \
  ZEND_RAW_FENTRY(#name, zif_##func_name, arg_info, flags, NULL, NULL)
#define ZEND_FRAMELESS_FE(name, arg_info, flags, frameless_function_infos, \
                          doc_comment)                                     \
  ZEND_RAW_FENTRY(#name, zif_##name, arg_info, flags,                      \
                  frameless_function_infos, doc_comment)
#define ZEND_NS_FENTRY(ns, zend_name, name, arg_info, flags)                 \
  ZEND_RAW_FENTRY(ZEND_NS_NAME(ns, #zend_name), name, arg_info, flags, NULL, \
                  NULL)
#define ZEND_NS_RAW_FENTRY(ns, zend_name, name, arg_info, flags)            \
  ZEND_RAW_FENTRY(ZEND_NS_NAME(ns, zend_name), name, arg_info, flags, NULL, \
                  NULL)
#define ZEND_NS_NAMED_FE(ns, zend_name, name, arg_info) \
  ZEND_NS_FENTRY(ns, zend_name, name, arg_info, 0)
#define ZEND_NS_FE(ns, name, arg_info) \
  ZEND_NS_FENTRY(ns, name, zif_##name, arg_info, 0)
#define ZEND_NS_DEP_FE(ns, name, arg_info) \
  ZEND_NS_FENTRY(ns, name, zif_##name, arg_info, ZEND_ACC_DEPRECATED)
#define ZEND_NS_FALIAS(ns, name, alias, arg_info) \
  ZEND_NS_FENTRY(ns, name, zif_##alias, arg_info, 0)
#define ZEND_NS_DEP_FALIAS(ns, name, alias, arg_info) \
  ZEND_NS_FENTRY(ns, name, zif_##alias, arg_info, ZEND_ACC_DEPRECATED)
#define ZEND_FE_END \
  { NULL, NULL, NULL, 0, 0, NULL, NULL }
#define PHP_FE ZEND_FE
#define PHP_ME ZEND_ME
#define PHP_ABSTRACT_ME ZEND_ABSTRACT_ME
#define PHP_FE_END ZEND_FE_END

/* ---- Declared properties (PHP 8.4's zend_property_info) ----
 * offset: OBJ_PROP_TO_OFFSET(slot number); flags: ZEND_ACC_* of the
 * declaration; name: the declared name as written (the mock does not mangle
 * private and protected names); type: the declaration's zend_type, owned
 * by the info (a class name in it is released with the class); hooks and
 * prototype: the mock declares no hooked property (hooks NULL, prototype
 * the info itself). */
struct _zend_property_info {
  uint32_t offset;
  uint32_t flags;
  zend_string *name;
  zend_string *doc_comment;
  HashTable *attributes;
  zend_class_entry *ce;
  zend_type type;
  const zend_property_info *prototype;
  zend_function **hooks;
};

#define ZEND_ACC_PPP_MASK \
  (ZEND_ACC_PUBLIC | ZEND_ACC_PROTECTED | ZEND_ACC_PRIVATE)

#define OBJ_PROP(obj, offset) ((zval *)((char *)(obj) + (offset)))
#define OBJ_PROP_NUM(obj, num) (&(obj)->properties_table[(num)])
#define OBJ_PROP_TO_OFFSET(num) \
  ((uint32_t)(offsetof(zend_object, properties_table) + sizeof(zval) * (num)))
#define OBJ_PROP_TO_NUM(offset) \
  (((offset)-OBJ_PROP_TO_OFFSET(0)) / sizeof(zval))
/* ---- end of declared properties ---- */

/* Classes */
#define ZEND_INTERNAL_CLASS 1
#define ZEND_USER_CLASS 2

typedef zend_object *(*zend_create_object_t)(zend_class_entry *class_type);

struct _zend_class_entry {
  char type;
  zend_string *name;
  zend_class_entry *parent;
  int refcount;
  uint32_t ce_flags;

  /* Declared properties: slot i of every object (OBJ_PROP_NUM(obj, i)) is
   * described by properties_info_table[i] and starts as
   * default_properties_table[i] (object_properties_init). properties_info
   * maps each declared name to its zend_property_info* (IS_PTR); a class
   * shares the entries it inherits with its parent and owns the ones it
   * declares (info->ce == the class). */
  int default_properties_count;
  zval *default_properties_table;
  HashTable properties_info;
  zend_property_info **properties_info_table;

  HashTable function_table; /* lowercase name -> zend_function* (IS_PTR) */
  /* Enum cases: name -> the engine's case record (IS_PTR, opaque). */
  HashTable constants_table;
  zend_function *constructor;
  zend_function *destructor;

  zend_create_object_t create_object;
  const zend_object_handlers *default_object_handlers;

  /* Object iterators (zend_iterators.h): what foreach calls to walk an
   * object of this class, or NULL. Internal classes set it after
   * registering; implementing Iterator or IteratorAggregate installs
   * zend_user_it_get_iterator / zend_user_it_get_new_iterator when it is
   * NULL, and a subclass inherits its parent's. iterator_funcs_ptr stays
   * NULL in the mock (see zend_class_iterator_funcs). */
  zend_class_iterator_funcs *iterator_funcs_ptr;
  zend_object_iterator *(*get_iterator)(zend_class_entry *ce, zval *object,
                                        int by_ref);

  uint32_t num_interfaces;
  zend_class_entry **interfaces;

  /* Enums: the backing type (IS_UNDEF for pure enums). */
  zend_uchar enum_backing_type;

  /* INIT_CLASS_ENTRY input, consumed by zend_register_internal_class_ex. */
  const zend_function_entry *info_internal_builtin_functions;
};

#define INIT_CLASS_ENTRY(class_container, class_name, functions)          \
  do {                                                                    \
    memset(&(class_container), 0, sizeof(zend_class_entry));              \
    (class_container).name =                                              \
        zend_string_init_interned(class_name, sizeof(class_name) - 1, 1); \
    (class_container).info_internal_builtin_functions = (functions);      \
  } while (0)
#define INIT_NS_CLASS_ENTRY(class_container, ns, class_name, functions) \
  INIT_CLASS_ENTRY(class_container, ns "\\" class_name, functions)

/* Error reporting */
ZEND_API ZEND_COLD void zend_error(int type, const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
ZEND_API ZEND_COLD ZEND_NORETURN void zend_error_noreturn(int type,
                                                          const char *format,
                                                          ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
ZEND_API ZEND_COLD void zend_error_zstr(int type, zend_string *message);

/* The recorded error log (mock extension). Messages are persistent copies
 * valid until zend_mock_errors_clear() or module shutdown. */
ZEND_API uint32_t zend_mock_error_count(void);
ZEND_API int zend_mock_error_type(uint32_t index);
ZEND_API const char *zend_mock_error_message(uint32_t index);
ZEND_API void zend_mock_errors_clear(void);

/* Bailout: a longjmp to the innermost zend_try. */
#define JMP_BUF sigjmp_buf
#define SETJMP(a) sigsetjmp(a, 0)
#define LONGJMP(a, b) siglongjmp(a, b)

ZEND_API ZEND_COLD ZEND_NORETURN void _zend_bailout(const char *filename,
                                                    uint32_t lineno);
#define zend_bailout() _zend_bailout((char *)__FILE__, __LINE__)

#define zend_try                           \
  {                                        \
    JMP_BUF *__orig_bailout = EG(bailout); \
    JMP_BUF __bailout;                     \
                                           \
    EG(bailout) = &__bailout;              \
    if (SETJMP(__bailout) == 0) {
#define zend_catch \
  }                \
  else {           \
    EG(bailout) = __orig_bailout;
#define zend_end_try()          \
  }                             \
  EG(bailout) = __orig_bailout; \
  }
#define zend_first_try \
  EG(bailout) = NULL;  \
  zend_try

/* The options of debug_backtrace() (zend_fetch_debug_backtrace,
 * zend_builtin_functions.h). */
#define DEBUG_BACKTRACE_PROVIDE_OBJECT (1 << 0)
#define DEBUG_BACKTRACE_IGNORE_ARGS (1 << 1)

/* The thread-local resource cache of ZTS builds. The mock is built without
 * ZTS, where these expand to nothing, as in a non-ZTS PHP. */
#ifndef ZTS
#define ZEND_TSRMLS_CACHE_EXTERN()
#define ZEND_TSRMLS_CACHE_DEFINE()
#define ZEND_TSRMLS_CACHE_UPDATE()
#define ZEND_TSRMLS_CACHE
#endif

END_EXTERN_C()

#endif /* ZEND_H */
