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
#include "zend_object_handlers.h"
#include "zend_portability.h"
#include "zend_signal.h"
#include "zend_string.h"
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

/* Function and class flags (PHP's values). */
#define ZEND_ACC_PUBLIC (1 << 0)
#define ZEND_ACC_PROTECTED (1 << 1)
#define ZEND_ACC_PRIVATE (1 << 2)
#define ZEND_ACC_STATIC (1 << 4)
#define ZEND_ACC_FINAL (1 << 5)
#define ZEND_ACC_READONLY (1 << 7)
#define ZEND_ACC_ABSTRACT (1 << 6)
#define ZEND_ACC_DEPRECATED (1 << 11)
#define ZEND_ACC_CTOR (1 << 28)
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

typedef struct _zend_internal_arg_info {
  const char *name;
  uint32_t type_mask;
  const char *default_value;
} zend_internal_arg_info;

/* Arg-info tables as generated from PHP stubs. Types are recorded but not
 * enforced beyond what zend_parse_parameters checks. */
#define ZEND_BEGIN_ARG_INFO_EX(name, _unused, return_reference, \
                               required_num_args)               \
  static const zend_internal_arg_info name[] = {                \
      {(const char *)(uintptr_t)(required_num_args), 0, NULL},
#define ZEND_BEGIN_ARG_INFO(name, _unused) \
  ZEND_BEGIN_ARG_INFO_EX(name, {}, ZEND_RETURN_VALUE, -1)
#define ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(                 \
    name, return_reference, required_num_args, type, allow_null) \
  ZEND_BEGIN_ARG_INFO_EX(name, 0, return_reference, required_num_args)
#define ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(                   \
    name, return_reference, required_num_args, class, allow_null) \
  ZEND_BEGIN_ARG_INFO_EX(name, 0, return_reference, required_num_args)
#define ZEND_BEGIN_ARG_WITH_RETURN_OBJ_TYPE_MASK_EX(             \
    name, return_reference, required_num_args, class_name, type) \
  ZEND_BEGIN_ARG_INFO_EX(name, 0, return_reference, required_num_args)
#define ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(name, return_reference,  \
                                                required_num_args, type) \
  ZEND_BEGIN_ARG_INFO_EX(name, 0, return_reference, required_num_args)
#define ZEND_ARG_INFO(pass_by_ref, name) {#name, 0, NULL},
#define ZEND_ARG_TYPE_INFO(pass_by_ref, name, type_hint, allow_null) \
  {#name, (uint32_t)(type_hint), NULL},
#define ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(pass_by_ref, name, type_hint, \
                                              allow_null, default_value)    \
  {#name, (uint32_t)(type_hint), default_value},
#define ZEND_ARG_TYPE_MASK(pass_by_ref, name, type_mask, default_value) \
  {#name, 0, default_value},
#define ZEND_ARG_OBJ_INFO(pass_by_ref, name, classname, allow_null) \
  {#name, IS_OBJECT, NULL},
#define ZEND_ARG_OBJ_INFO_WITH_DEFAULT_VALUE(pass_by_ref, name, classname, \
                                             allow_null, default_value)    \
  {#name, IS_OBJECT, default_value},
#define ZEND_ARG_CALLABLE_INFO(pass_by_ref, name, allow_null) \
  {#name, IS_CALLABLE, NULL},
#define ZEND_ARG_VARIADIC_INFO(pass_by_ref, name) {#name, 0, NULL},
#define ZEND_ARG_VARIADIC_TYPE_INFO(pass_by_ref, name, type_hint, allow_null) \
  {#name, (uint32_t)(type_hint), NULL},
#define ZEND_END_ARG_INFO() \
  }                         \
  ;
#define ZEND_RETURN_VALUE 0

/* An internal (C) function or method.
 *
 * `reserved` belongs to whoever created the function, with one engine
 * convention for functions owned by a function table (registered globally
 * or as a method of a class): when the engine frees such a function at
 * module shutdown and reserved[1] is not NULL, it first calls
 * ((void (*)(void *))reserved[1])(reserved[0]). The C++ ClassBuilder keeps
 * each method's heap-allocated NativeBody in reserved[0] and its deleter in
 * reserved[1]. reserved[2] and reserved[3] are free for the creator. The
 * function embedded in a closure object is owned by the closure and is not
 * subject to this convention. */
typedef struct _zend_internal_function {
  zend_uchar type; /* ZEND_INTERNAL_FUNCTION */
  zend_uchar arg_flags[3];
  uint32_t fn_flags;
  zend_string *function_name;
  zend_class_entry *scope;
  zend_function *prototype;
  uint32_t num_args;
  uint32_t required_num_args;
  /* Attributes (zend_add_function_attribute, zend_attributes.h): a
   * persistent table of zend_attribute*, or NULL; a function-table function
   * frees it with itself. */
  HashTable *attributes;
  const zend_internal_arg_info *arg_info;
  zif_handler handler;
  void *reserved[4];
} zend_internal_function;

union _zend_function {
  zend_uchar type;
  struct {
    zend_uchar type;
    zend_uchar arg_flags[3];
    uint32_t fn_flags;
    zend_string *function_name;
    zend_class_entry *scope;
    zend_function *prototype;
    uint32_t num_args;
    uint32_t required_num_args;
    HashTable *attributes;
  } common;
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

  /* Declared properties: slot i of every object is named
   * property_names[i] and starts as default_properties_table[i]. */
  int default_properties_count;
  zval *default_properties_table;
  zend_string **property_names;

  HashTable function_table; /* lowercase name -> zend_function* (IS_PTR) */
  /* Enum cases: name -> the engine's case record (IS_PTR, opaque). */
  HashTable constants_table;
  zend_function *constructor;
  zend_function *destructor;

  zend_create_object_t create_object;
  const zend_object_handlers *default_object_handlers;

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
