/*
 * zend-async-ref: mock Zend engine.
 *
 * The extension API: calling functions and methods, callables, classes,
 * objects and their properties, arrays, return values and parameter
 * parsing. Names, signatures and semantics follow PHP 8.
 *
 * Calls: zend_call_function() runs any callable (a Closure object, the name
 * of a registered function, or [object, "method"]) with fci->params and
 * writes its result to fci->retval (which the caller must destroy). It
 * returns FAILURE only when the callable cannot be called at all; an
 * exception thrown by the callee is left in EG(exception) and the call
 * still returns SUCCESS, as in PHP.
 */
#ifndef ZEND_API_H
#define ZEND_API_H

#include "zend.h"
#include "zend_exceptions.h"
#include "zend_execute.h"
#include "zend_gc.h"
#include "zend_globals.h"
#include "zend_hash.h"
#include "zend_modules.h"
#include "zend_objects.h"
#include "zend_objects_API.h"
#include "zend_operators.h"
#include "zend_string.h"
#include "zend_variables.h"

BEGIN_EXTERN_C()

typedef struct _zend_fcall_info {
  size_t size;
  zval function_name;
  zval *retval;
  zval *params;
  zend_object *object;
  uint32_t param_count;
  HashTable *named_params;
} zend_fcall_info;

typedef struct _zend_fcall_info_cache {
  zend_function *function_handler;
  zend_class_entry *calling_scope;
  zend_class_entry *called_scope;
  zend_object *object;
  zend_object *closure;
} zend_fcall_info_cache;

ZEND_API extern const zend_fcall_info empty_fcall_info;
ZEND_API extern const zend_fcall_info_cache empty_fcall_info_cache;

#define ZEND_FCI_INITIALIZED(fci) ((fci).size != 0)
#define ZEND_FCC_INITIALIZED(fcc) ((fcc).function_handler != NULL)

#define IS_CALLABLE_CHECK_SYNTAX_ONLY (1 << 0)
#define IS_CALLABLE_SUPPRESS_DEPRECATIONS (1 << 1)

ZEND_API zend_result zend_call_function(zend_fcall_info *fci,
                                        zend_fcall_info_cache *fci_cache);
/* Resolves `callable` into fci/fcc. On failure returns FAILURE and, when
 * `error` is given, an emalloc'd reason the caller must efree. */
ZEND_API zend_result zend_fcall_info_init(zval *callable, uint32_t check_flags,
                                          zend_fcall_info *fci,
                                          zend_fcall_info_cache *fcc,
                                          zend_string **callable_name,
                                          char **error);
ZEND_API bool zend_is_callable_ex(zval *callable, zend_object *object,
                                  uint32_t check_flags,
                                  zend_string **callable_name,
                                  zend_fcall_info_cache *fcc, char **error);
ZEND_API bool zend_is_callable(zval *callable, uint32_t check_flags,
                               zend_string **callable_name);
ZEND_API void zend_release_fcall_info_cache(zend_fcall_info_cache *fcc);
/* "{closure}", "name", or "Class::method". New reference. */
ZEND_API zend_string *zend_get_callable_name_ex(zval *callable,
                                                zend_object *object);
ZEND_API zend_string *zend_get_callable_name(zval *callable);

ZEND_API void zend_call_known_function(zend_function *fn, zend_object *object,
                                       zend_class_entry *called_scope,
                                       zval *retval_ptr, uint32_t param_count,
                                       zval *params, HashTable *named_params);
ZEND_API void zend_call_known_instance_method(zend_function *fn,
                                              zend_object *object,
                                              zval *retval_ptr,
                                              uint32_t param_count,
                                              zval *params);
/* Calls the method if the object has it; FAILURE (no exception) if not. */
ZEND_API zend_result zend_call_method_if_exists(zend_object *object,
                                                zend_string *method_name,
                                                zval *retval,
                                                uint32_t param_count,
                                                zval *params);
ZEND_API zend_result _call_user_function_impl(zval *object, zval *function_name,
                                              zval *retval_ptr,
                                              uint32_t param_count,
                                              zval params[],
                                              HashTable *named_params);
#define call_user_function(function_table, object, function_name, retval_ptr, \
                           param_count, params)                               \
  _call_user_function_impl(object, function_name, retval_ptr, param_count,    \
                           params, NULL)

/* Classes. The class entry passed in is copied into a persistent entry,
 * which is returned and lives until module shutdown. */
ZEND_API zend_class_entry *zend_register_internal_class_ex(
    zend_class_entry *class_entry, zend_class_entry *parent_ce);
ZEND_API zend_class_entry *zend_register_internal_class(
    zend_class_entry *class_entry);
/* zend_register_internal_class_ex, then ORs `flags` (ZEND_ACC_*) into the
 * registered entry's ce_flags. NULL (with the E_CORE_ERROR of _ex) when the
 * name is taken. */
ZEND_API zend_class_entry *zend_register_internal_class_with_flags(
    zend_class_entry *class_entry, zend_class_entry *parent_ce, uint32_t flags);
ZEND_API zend_class_entry *zend_register_internal_interface(
    zend_class_entry *orig_class_entry);
ZEND_API void zend_class_implements(zend_class_entry *class_entry,
                                    int num_interfaces, ...);
/* ---- Declared and typed properties ----
 * zend_declare_typed_property adds a slot to the class (or, for a name the
 * class already has, gives that slot the new declaration) and returns its
 * persistent zend_property_info. The default value is copied (a string
 * interned); an UNDEF default makes the slot IS_PROP_UNINIT: a typed
 * property that objects start without, and reading it before a write
 * throws Error "Typed property C::$p must not be accessed before
 * initialization". `type` passes ownership of a class name it holds.
 * doc_comment is kept by reference (not released). Static properties are
 * not supported: access_type must not contain ZEND_ACC_STATIC (reported as
 * an E_CORE_ERROR by the mock). zend_declare_property* declare untyped
 * properties through it. */
ZEND_API zend_property_info *zend_declare_typed_property(
    zend_class_entry *ce, zend_string *name, zval *property, int access_type,
    zend_string *doc_comment, zend_type type);
ZEND_API void zend_declare_property_ex(zend_class_entry *ce, zend_string *name,
                                       zval *property, int access_type,
                                       zend_string *doc_comment);
ZEND_API void zend_declare_property(zend_class_entry *ce, const char *name,
                                    size_t name_length, zval *property,
                                    int access_type);
ZEND_API void zend_declare_property_null(zend_class_entry *ce, const char *name,
                                         size_t name_length, int access_type);
ZEND_API void zend_declare_property_bool(zend_class_entry *ce, const char *name,
                                         size_t name_length, zend_long value,
                                         int access_type);
ZEND_API void zend_declare_property_long(zend_class_entry *ce, const char *name,
                                         size_t name_length, zend_long value,
                                         int access_type);
ZEND_API void zend_declare_property_double(zend_class_entry *ce,
                                           const char *name, size_t name_length,
                                           double value, int access_type);
ZEND_API void zend_declare_property_string(zend_class_entry *ce,
                                           const char *name, size_t name_length,
                                           const char *value, int access_type);
/* Fills an object's declared slots from its class's defaults (each value
 * gains a reference; slot flags such as IS_PROP_UNINIT are copied). A
 * create_object handler calls it after zend_object_std_init, as in PHP;
 * object_init_ex does it for classes without create_object. */
ZEND_API void object_properties_init(zend_object *object,
                                     zend_class_entry *class_type);
/* Writes each string key -> value of `properties` into the object (each
 * value copied): a declared name to its slot, any other as a dynamic
 * property. */
ZEND_API void object_properties_load(zend_object *object,
                                     HashTable *properties);
/* ---- end of declared and typed properties ---- */
ZEND_API zend_class_entry *zend_lookup_class(zend_string *name);
ZEND_API zend_function *zend_hash_find_function(zend_class_entry *ce,
                                                const char *name, size_t len);
/* Registers global functions (zend_function_entry list). */
ZEND_API zend_result zend_register_functions(
    zend_class_entry *scope, const zend_function_entry *functions,
    HashTable *function_table, int type);

ZEND_API extern zend_class_entry *zend_standard_class_def;

/* Objects and properties. */
ZEND_API zend_result object_init_ex(zval *arg, zend_class_entry *ce);
ZEND_API void object_init(zval *arg);
ZEND_API void zend_update_property_ex(zend_class_entry *scope,
                                      zend_object *object, zend_string *name,
                                      zval *value);
ZEND_API void zend_update_property(zend_class_entry *scope, zend_object *object,
                                   const char *name, size_t name_length,
                                   zval *value);
ZEND_API void zend_update_property_long(zend_class_entry *scope,
                                        zend_object *object, const char *name,
                                        size_t name_length, zend_long value);
ZEND_API void zend_update_property_string(zend_class_entry *scope,
                                          zend_object *object, const char *name,
                                          size_t name_length,
                                          const char *value);
ZEND_API zval *zend_read_property_ex(zend_class_entry *scope,
                                     zend_object *object, zend_string *name,
                                     bool silent, zval *rv);
ZEND_API zval *zend_read_property(zend_class_entry *scope, zend_object *object,
                                  const char *name, size_t name_length,
                                  bool silent, zval *rv);

/* Arrays. */
ZEND_API void array_init(zval *arg);
ZEND_API void array_init_size(zval *arg, uint32_t size);
ZEND_API void add_next_index_long(zval *arg, zend_long n);
ZEND_API void add_next_index_null(zval *arg);
ZEND_API void add_next_index_bool(zval *arg, bool b);
ZEND_API void add_next_index_double(zval *arg, double d);
ZEND_API void add_next_index_str(zval *arg, zend_string *str);
ZEND_API void add_next_index_string(zval *arg, const char *str);
ZEND_API void add_next_index_stringl(zval *arg, const char *str, size_t length);
ZEND_API void add_next_index_zval(zval *arg, zval *value);
ZEND_API void add_index_long(zval *arg, zend_ulong index, zend_long n);
ZEND_API void add_index_str(zval *arg, zend_ulong index, zend_string *str);
ZEND_API void add_index_zval(zval *arg, zend_ulong index, zval *value);
ZEND_API void add_assoc_long_ex(zval *arg, const char *key, size_t key_len,
                                zend_long n);
ZEND_API void add_assoc_bool_ex(zval *arg, const char *key, size_t key_len,
                                bool b);
ZEND_API void add_assoc_null_ex(zval *arg, const char *key, size_t key_len);
ZEND_API void add_assoc_str_ex(zval *arg, const char *key, size_t key_len,
                               zend_string *str);
ZEND_API void add_assoc_string_ex(zval *arg, const char *key, size_t key_len,
                                  const char *str);
ZEND_API void add_assoc_zval_ex(zval *arg, const char *key, size_t key_len,
                                zval *value);
ZEND_API void add_assoc_double_ex(zval *arg, const char *key, size_t key_len,
                                  double d);
ZEND_API void add_assoc_stringl_ex(zval *arg, const char *key, size_t key_len,
                                   const char *str, size_t length);
/* Appends `obj`, taking over the caller's reference (as add_next_index_str
 * takes a string). */
ZEND_API zend_result add_next_index_object(zval *arg, zend_object *obj);
#define add_assoc_double(arg, key, d) \
  add_assoc_double_ex(arg, key, strlen(key), d)
#define add_assoc_stringl(arg, key, str, length) \
  add_assoc_stringl_ex(arg, key, strlen(key), str, length)
#define add_assoc_long(arg, key, n) add_assoc_long_ex(arg, key, strlen(key), n)
#define add_assoc_bool(arg, key, b) add_assoc_bool_ex(arg, key, strlen(key), b)
#define add_assoc_null(arg, key) add_assoc_null_ex(arg, key, strlen(key))
#define add_assoc_str(arg, key, str) \
  add_assoc_str_ex(arg, key, strlen(key), str)
#define add_assoc_string(arg, key, str) \
  add_assoc_string_ex(arg, key, strlen(key), str)
#define add_assoc_zval(arg, key, value) \
  add_assoc_zval_ex(arg, key, strlen(key), value)

/* String zvals. */
#define ZVAL_STRINGL(z, s, l) ZVAL_STR(z, zend_string_init(s, l, 0))
#define ZVAL_STRING(z, s)            \
  do {                               \
    const char *_s = (s);            \
    ZVAL_STRINGL(z, _s, strlen(_s)); \
  } while (0)
#define ZVAL_EMPTY_STRING(z) ZVAL_STR(z, zend_empty_string)

/* Return values of internal functions. */
#define RETVAL_NULL() ZVAL_NULL(return_value)
#define RETVAL_BOOL(b) ZVAL_BOOL(return_value, b)
#define RETVAL_TRUE ZVAL_TRUE(return_value)
#define RETVAL_FALSE ZVAL_FALSE(return_value)
#define RETVAL_LONG(l) ZVAL_LONG(return_value, l)
#define RETVAL_DOUBLE(d) ZVAL_DOUBLE(return_value, d)
#define RETVAL_STR(s) ZVAL_STR(return_value, s)
#define RETVAL_STR_COPY(s) ZVAL_STR_COPY(return_value, s)
#define RETVAL_STRING(s) ZVAL_STRING(return_value, s)
#define RETVAL_STRINGL(s, l) ZVAL_STRINGL(return_value, s, l)
#define RETVAL_OBJ(o) ZVAL_OBJ(return_value, o)
#define RETVAL_OBJ_COPY(o) ZVAL_OBJ_COPY(return_value, o)
#define RETVAL_ARR(a) ZVAL_ARR(return_value, a)
#define RETVAL_EMPTY_ARRAY() ZVAL_EMPTY_ARRAY(return_value)
#define RETURN_EMPTY_ARRAY() \
  do {                       \
    RETVAL_EMPTY_ARRAY();    \
    return;                  \
  } while (0)
#define RETVAL_COPY(zv) ZVAL_COPY(return_value, zv)
#define RETVAL_COPY_VALUE(zv) ZVAL_COPY_VALUE(return_value, zv)
#define RETVAL_COPY_DEREF(zv) ZVAL_COPY_DEREF(return_value, zv)

/* zv into z: copied (a new reference) when `copy` and not `dtor`, moved
 * otherwise; a reference is unwrapped, its value copied, and the reference
 * released unless copied without dtor. */
#define ZVAL_ZVAL(z, zv, copy, dtor)    \
  do {                                  \
    zval *__z = (z);                    \
    zval *__zv = (zv);                  \
    if (EXPECTED(!Z_ISREF_P(__zv))) {   \
      if ((copy) && !(dtor)) {          \
        ZVAL_COPY(__z, __zv);           \
      } else {                          \
        ZVAL_COPY_VALUE(__z, __zv);     \
      }                                 \
    } else {                            \
      ZVAL_COPY(__z, Z_REFVAL_P(__zv)); \
      if ((dtor) || !(copy)) {          \
        zval_ptr_dtor(__zv);            \
      }                                 \
    }                                   \
  } while (0)
#define RETVAL_ZVAL(zv, copy, dtor) ZVAL_ZVAL(return_value, zv, copy, dtor)
#define RETURN_ZVAL(zv, copy, dtor) \
  do {                              \
    RETVAL_ZVAL(zv, copy, dtor);    \
    return;                         \
  } while (0)

#define RETURN_NULL() \
  do {                \
    RETVAL_NULL();    \
    return;           \
  } while (0)
#define RETURN_BOOL(b) \
  do {                 \
    RETVAL_BOOL(b);    \
    return;            \
  } while (0)
#define RETURN_TRUE \
  do {              \
    RETVAL_TRUE;    \
    return;         \
  } while (0)
#define RETURN_FALSE \
  do {               \
    RETVAL_FALSE;    \
    return;          \
  } while (0)
#define RETURN_LONG(l) \
  do {                 \
    RETVAL_LONG(l);    \
    return;            \
  } while (0)
#define RETURN_DOUBLE(d) \
  do {                   \
    RETVAL_DOUBLE(d);    \
    return;              \
  } while (0)
#define RETURN_STR(s) \
  do {                \
    RETVAL_STR(s);    \
    return;           \
  } while (0)
#define RETVAL_EMPTY_STRING() ZVAL_EMPTY_STRING(return_value)
#define RETURN_EMPTY_STRING() \
  do {                        \
    RETVAL_EMPTY_STRING();    \
    return;                   \
  } while (0)
#define RETURN_STR_COPY(s) \
  do {                     \
    RETVAL_STR_COPY(s);    \
    return;                \
  } while (0)
#define RETURN_STRING(s) \
  do {                   \
    RETVAL_STRING(s);    \
    return;              \
  } while (0)
#define RETURN_STRINGL(s, l) \
  do {                       \
    RETVAL_STRINGL(s, l);    \
    return;                  \
  } while (0)
#define RETURN_OBJ(o) \
  do {                \
    RETVAL_OBJ(o);    \
    return;           \
  } while (0)
#define RETURN_OBJ_COPY(o) \
  do {                     \
    RETVAL_OBJ_COPY(o);    \
    return;                \
  } while (0)
#define RETURN_ARR(a) \
  do {                \
    RETVAL_ARR(a);    \
    return;           \
  } while (0)
#define RETURN_COPY(zv) \
  do {                  \
    RETVAL_COPY(zv);    \
    return;             \
  } while (0)
#define RETURN_COPY_VALUE(zv) \
  do {                        \
    RETVAL_COPY_VALUE(zv);    \
    return;                   \
  } while (0)
#define RETURN_COPY_DEREF(zv) \
  do {                        \
    RETVAL_COPY_DEREF(zv);    \
    return;                   \
  } while (0)
#define RETURN_THROWS()         \
  do {                          \
    ZEND_ASSERT(EG(exception)); \
    return;                     \
  } while (0)

/* Errors raised on behalf of the running internal function. Messages name
 * the function as PHP does: "Class::method(): Argument #6 ($min) ...". */
ZEND_API const char *get_active_function_name(void);
ZEND_API const char *get_active_class_name(const char **space);
/* "Class::method" or "function" of the running internal function; new
 * reference, or NULL outside any call. */
ZEND_API zend_string *get_active_function_or_method_name(void);
ZEND_API const char *zend_zval_type_name(const zval *arg);
ZEND_API const char *zend_zval_value_name(const zval *arg);
ZEND_API ZEND_COLD void zend_argument_error(zend_class_entry *error_ce,
                                            uint32_t arg_num,
                                            const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 3, 4);
ZEND_API ZEND_COLD void zend_argument_type_error(uint32_t arg_num,
                                                 const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
ZEND_API ZEND_COLD void zend_argument_value_error(uint32_t arg_num,
                                                  const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
ZEND_API ZEND_COLD void zend_argument_count_error(const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 1, 2);
ZEND_API ZEND_COLD void zend_wrong_parameters_none_error(void);

/* Parameter parsing (PHP's "fast ZPP" macros). Arguments are checked in
 * order; a wrong count raises ArgumentCountError and a wrong type
 * TypeError, named after the running function, then `failure` runs. */
#define ZEND_PARSE_PARAMS_QUIET (1 << 1)

#define ZPP_ERROR_OK 0
#define ZPP_ERROR_FAILURE 1
#define ZPP_ERROR_WRONG_ARG 9
#define ZPP_ERROR_WRONG_COUNT 10

typedef enum {
  Z_EXPECTED_LONG,
  Z_EXPECTED_LONG_OR_NULL,
  Z_EXPECTED_BOOL,
  Z_EXPECTED_BOOL_OR_NULL,
  Z_EXPECTED_STRING,
  Z_EXPECTED_STRING_OR_NULL,
  Z_EXPECTED_ARRAY,
  Z_EXPECTED_ARRAY_OR_NULL,
  Z_EXPECTED_FUNC,
  Z_EXPECTED_FUNC_OR_NULL,
  Z_EXPECTED_OBJECT,
  Z_EXPECTED_OBJECT_OR_NULL,
  Z_EXPECTED_DOUBLE,
  Z_EXPECTED_DOUBLE_OR_NULL,
  Z_EXPECTED_OBJECT_OF_CLASS,
  Z_EXPECTED_OBJECT_OF_CLASS_OR_NULL,
  Z_EXPECTED_ITERABLE,
  Z_EXPECTED_ITERABLE_OR_NULL
} zend_expected_type;

ZEND_API ZEND_COLD void zend_wrong_parameter_error(
    int error_code, uint32_t arg_num, zend_expected_type expected_type,
    zend_class_entry *expected_class, zval *arg, uint32_t min_num_args,
    uint32_t max_num_args, uint32_t num_args);

ZEND_API bool zend_parse_arg_long_slow(zval *arg, zend_long *dest);
ZEND_API bool zend_parse_arg_bool_slow(zval *arg, bool *dest);
ZEND_API bool zend_parse_arg_double_slow(zval *arg, double *dest);

static zend_always_inline bool zend_parse_arg_long(zval *arg, zend_long *dest,
                                                   bool *is_null,
                                                   bool check_null) {
  if (check_null) *is_null = false;
  if (EXPECTED(Z_TYPE_P(arg) == IS_LONG)) {
    *dest = Z_LVAL_P(arg);
    return true;
  }
  if (check_null && Z_TYPE_P(arg) == IS_NULL) {
    *is_null = true;
    *dest = 0;
    return true;
  }
  return zend_parse_arg_long_slow(arg, dest);
}

static zend_always_inline bool zend_parse_arg_bool(zval *arg, bool *dest,
                                                   bool *is_null,
                                                   bool check_null) {
  if (check_null) *is_null = false;
  if (Z_TYPE_P(arg) == IS_TRUE || Z_TYPE_P(arg) == IS_FALSE) {
    *dest = Z_TYPE_P(arg) == IS_TRUE;
    return true;
  }
  if (check_null && Z_TYPE_P(arg) == IS_NULL) {
    *is_null = true;
    *dest = false;
    return true;
  }
  return zend_parse_arg_bool_slow(arg, dest);
}

static zend_always_inline bool zend_parse_arg_double(zval *arg, double *dest,
                                                     bool *is_null,
                                                     bool check_null) {
  if (check_null) *is_null = false;
  if (Z_TYPE_P(arg) == IS_DOUBLE) {
    *dest = Z_DVAL_P(arg);
    return true;
  }
  if (check_null && Z_TYPE_P(arg) == IS_NULL) {
    *is_null = true;
    *dest = 0;
    return true;
  }
  return zend_parse_arg_double_slow(arg, dest);
}

static zend_always_inline bool zend_parse_arg_str(zval *arg, zend_string **dest,
                                                  bool check_null) {
  if (Z_TYPE_P(arg) == IS_STRING) {
    *dest = Z_STR_P(arg);
    return true;
  }
  if (check_null && Z_TYPE_P(arg) == IS_NULL) {
    *dest = NULL;
    return true;
  }
  return false;
}

static zend_always_inline bool zend_parse_arg_string(zval *arg, char **dest,
                                                     size_t *dest_len,
                                                     bool check_null,
                                                     uint32_t arg_num) {
  zend_string *str;
  (void)arg_num;
  if (!zend_parse_arg_str(arg, &str, check_null)) return false;
  if (check_null && str == NULL) {
    *dest = NULL;
    *dest_len = 0;
  } else {
    *dest = ZSTR_VAL(str);
    *dest_len = ZSTR_LEN(str);
  }
  return true;
}

static zend_always_inline bool zend_parse_arg_array(zval *arg, zval **dest,
                                                    bool check_null,
                                                    bool or_object) {
  if (EXPECTED(Z_TYPE_P(arg) == IS_ARRAY) ||
      (or_object && EXPECTED(Z_TYPE_P(arg) == IS_OBJECT))) {
    *dest = arg;
    return true;
  }
  if (check_null && EXPECTED(Z_TYPE_P(arg) == IS_NULL)) {
    *dest = NULL;
    return true;
  }
  return false;
}

/* An array or a Traversable object (zend_ce_traversable, zend_interfaces.h). */
ZEND_API extern zend_class_entry *zend_ce_traversable;
static zend_always_inline bool zend_parse_arg_iterable(zval *arg, zval **dest,
                                                       bool check_null) {
  if (EXPECTED(Z_TYPE_P(arg) == IS_ARRAY) ||
      (Z_TYPE_P(arg) == IS_OBJECT &&
       instanceof_function(Z_OBJCE_P(arg), zend_ce_traversable))) {
    *dest = arg;
    return true;
  }
  if (check_null && EXPECTED(Z_TYPE_P(arg) == IS_NULL)) {
    *dest = NULL;
    return true;
  }
  return false;
}

static zend_always_inline bool zend_parse_arg_object(zval *arg, zval **dest,
                                                     zend_class_entry *ce,
                                                     bool check_null) {
  if (Z_TYPE_P(arg) == IS_OBJECT &&
      (!ce || instanceof_function(Z_OBJCE_P(arg), ce))) {
    *dest = arg;
    return true;
  }
  if (check_null && Z_TYPE_P(arg) == IS_NULL) {
    *dest = NULL;
    return true;
  }
  return false;
}

static zend_always_inline bool zend_parse_arg_obj(zval *arg, zend_object **dest,
                                                  zend_class_entry *ce,
                                                  bool check_null) {
  if (Z_TYPE_P(arg) == IS_OBJECT &&
      (!ce || instanceof_function(Z_OBJCE_P(arg), ce))) {
    *dest = Z_OBJ_P(arg);
    return true;
  }
  if (check_null && Z_TYPE_P(arg) == IS_NULL) {
    *dest = NULL;
    return true;
  }
  return false;
}

static zend_always_inline bool zend_parse_arg_array_ht(zval *arg,
                                                       HashTable **dest,
                                                       bool check_null) {
  if (Z_TYPE_P(arg) == IS_ARRAY) {
    *dest = Z_ARRVAL_P(arg);
    return true;
  }
  if (check_null && Z_TYPE_P(arg) == IS_NULL) {
    *dest = NULL;
    return true;
  }
  return false;
}

static zend_always_inline bool zend_parse_arg_func(
    zval *arg, zend_fcall_info *dest_fci, zend_fcall_info_cache *dest_fcc,
    bool check_null) {
  if (check_null && Z_TYPE_P(arg) == IS_NULL) {
    dest_fci->size = 0;
    dest_fcc->function_handler = NULL;
    return true;
  }
  return zend_fcall_info_init(arg, 0, dest_fci, dest_fcc, NULL, NULL) ==
         SUCCESS;
}

#define ZEND_PARSE_PARAMETERS_START_EX(flags, min_num_args, max_num_args) \
  do {                                                                    \
    const int _flags = (flags);                                           \
    const uint32_t _min_num_args = (uint32_t)(min_num_args);              \
    const uint32_t _max_num_args = (uint32_t)(max_num_args);              \
    const uint32_t _num_args = EX_NUM_ARGS();                             \
    uint32_t _i = 0;                                                      \
    zval *_arg = NULL;                                                    \
    zend_expected_type _expected_type = Z_EXPECTED_LONG;                  \
    zend_class_entry *_expected_class = NULL;                             \
    bool _dummy = false;                                                  \
    bool _optional = false;                                               \
    int _error_code = ZPP_ERROR_OK;                                       \
    (void)_dummy;                                                         \
    (void)_optional;                                                      \
    (void)_expected_class;                                                \
    do {                                                                  \
      if (UNEXPECTED(_num_args < _min_num_args) ||                        \
          UNEXPECTED(_num_args > _max_num_args)) {                        \
        _error_code = ZPP_ERROR_WRONG_COUNT;                              \
        break;                                                            \
      }

#define ZEND_PARSE_PARAMETERS_START(min_num_args, max_num_args) \
  ZEND_PARSE_PARAMETERS_START_EX(0, min_num_args, max_num_args)

#define ZEND_PARSE_PARAMETERS_END_EX(failure)                          \
  }                                                                    \
  while (0)                                                            \
    ;                                                                  \
  if (UNEXPECTED(_error_code != ZPP_ERROR_OK)) {                       \
    if (!(_flags & ZEND_PARSE_PARAMS_QUIET)) {                         \
      zend_wrong_parameter_error(_error_code, _i, _expected_type,      \
                                 _expected_class, _arg, _min_num_args, \
                                 _max_num_args, _num_args);            \
    }                                                                  \
    failure;                                                           \
  }                                                                    \
  }                                                                    \
  while (0)

#define ZEND_PARSE_PARAMETERS_END() ZEND_PARSE_PARAMETERS_END_EX(return )

#define ZEND_PARSE_PARAMETERS_NONE()        \
  do {                                      \
    if (UNEXPECTED(ZEND_NUM_ARGS() != 0)) { \
      zend_wrong_parameters_none_error();   \
      return;                               \
    }                                       \
  } while (0)
#define zend_parse_parameters_none() \
  (EXPECTED(ZEND_NUM_ARGS() == 0)    \
       ? SUCCESS                     \
       : (zend_wrong_parameters_none_error(), FAILURE))

#define Z_PARAM_OPTIONAL _optional = true;

#define Z_PARAM_PROLOGUE(deref, separate)             \
  ++_i;                                               \
  if (_optional && UNEXPECTED(_i > _num_args)) break; \
  _arg = ZEND_CALL_ARG(execute_data, _i);             \
  if (deref) ZVAL_DEREF(_arg);

#define Z_PARAM_FAIL(expected)         \
  {                                    \
    _expected_type = (expected);       \
    _error_code = ZPP_ERROR_WRONG_ARG; \
    break;                             \
  }

#define Z_PARAM_LONG_EX(dest, is_null, check_null, deref)                  \
  Z_PARAM_PROLOGUE(deref, 0);                                              \
  if (UNEXPECTED(!zend_parse_arg_long(_arg, &dest, &is_null, check_null))) \
  Z_PARAM_FAIL(check_null ? Z_EXPECTED_LONG_OR_NULL : Z_EXPECTED_LONG)
#define Z_PARAM_LONG(dest) Z_PARAM_LONG_EX(dest, _dummy, 0, 0)
#define Z_PARAM_LONG_OR_NULL(dest, is_null) Z_PARAM_LONG_EX(dest, is_null, 1, 0)

#define Z_PARAM_BOOL_EX(dest, is_null, check_null, deref)                  \
  Z_PARAM_PROLOGUE(deref, 0);                                              \
  if (UNEXPECTED(!zend_parse_arg_bool(_arg, &dest, &is_null, check_null))) \
  Z_PARAM_FAIL(check_null ? Z_EXPECTED_BOOL_OR_NULL : Z_EXPECTED_BOOL)
#define Z_PARAM_BOOL(dest) Z_PARAM_BOOL_EX(dest, _dummy, 0, 0)
#define Z_PARAM_BOOL_OR_NULL(dest, is_null) Z_PARAM_BOOL_EX(dest, is_null, 1, 0)

#define Z_PARAM_DOUBLE_EX(dest, is_null, check_null, deref)                  \
  Z_PARAM_PROLOGUE(deref, 0);                                                \
  if (UNEXPECTED(!zend_parse_arg_double(_arg, &dest, &is_null, check_null))) \
  Z_PARAM_FAIL(check_null ? Z_EXPECTED_DOUBLE_OR_NULL : Z_EXPECTED_DOUBLE)
#define Z_PARAM_DOUBLE(dest) Z_PARAM_DOUBLE_EX(dest, _dummy, 0, 0)

#define Z_PARAM_STR_EX(dest, check_null, deref)                 \
  Z_PARAM_PROLOGUE(deref, 0);                                   \
  if (UNEXPECTED(!zend_parse_arg_str(_arg, &dest, check_null))) \
  Z_PARAM_FAIL(check_null ? Z_EXPECTED_STRING_OR_NULL : Z_EXPECTED_STRING)
#define Z_PARAM_STR(dest) Z_PARAM_STR_EX(dest, 0, 0)
#define Z_PARAM_STR_OR_NULL(dest) Z_PARAM_STR_EX(dest, 1, 0)

#define Z_PARAM_STRING_EX(dest, dest_len, check_null, deref)               \
  Z_PARAM_PROLOGUE(deref, 0);                                              \
  if (UNEXPECTED(                                                          \
          !zend_parse_arg_string(_arg, &dest, &dest_len, check_null, _i))) \
  Z_PARAM_FAIL(check_null ? Z_EXPECTED_STRING_OR_NULL : Z_EXPECTED_STRING)
#define Z_PARAM_STRING(dest, dest_len) Z_PARAM_STRING_EX(dest, dest_len, 0, 0)
#define Z_PARAM_STRING_OR_NULL(dest, dest_len) \
  Z_PARAM_STRING_EX(dest, dest_len, 1, 0)

/* dest is the argument's zval (an array), or NULL for null. */
#define Z_PARAM_ARRAY_EX(dest, check_null, separate)                 \
  Z_PARAM_PROLOGUE(0, separate);                                     \
  if (UNEXPECTED(!zend_parse_arg_array(_arg, &dest, check_null, 0))) \
  Z_PARAM_FAIL(check_null ? Z_EXPECTED_ARRAY_OR_NULL : Z_EXPECTED_ARRAY)
#define Z_PARAM_ARRAY(dest) Z_PARAM_ARRAY_EX(dest, 0, 0)
#define Z_PARAM_ARRAY_OR_NULL(dest) Z_PARAM_ARRAY_EX(dest, 1, 0)

#define Z_PARAM_ITERABLE_EX(dest, check_null)                        \
  Z_PARAM_PROLOGUE(0, 0);                                            \
  if (UNEXPECTED(!zend_parse_arg_iterable(_arg, &dest, check_null))) \
  Z_PARAM_FAIL(check_null ? Z_EXPECTED_ITERABLE_OR_NULL : Z_EXPECTED_ITERABLE)
#define Z_PARAM_ITERABLE(dest) Z_PARAM_ITERABLE_EX(dest, 0)
#define Z_PARAM_ITERABLE_OR_NULL(dest) Z_PARAM_ITERABLE_EX(dest, 1)

#define Z_PARAM_ARRAY_HT_EX(dest, check_null, deref)                 \
  Z_PARAM_PROLOGUE(deref, 0);                                        \
  if (UNEXPECTED(!zend_parse_arg_array_ht(_arg, &dest, check_null))) \
  Z_PARAM_FAIL(check_null ? Z_EXPECTED_ARRAY_OR_NULL : Z_EXPECTED_ARRAY)
#define Z_PARAM_ARRAY_HT(dest) Z_PARAM_ARRAY_HT_EX(dest, 0, 0)
#define Z_PARAM_ARRAY_HT_OR_NULL(dest) Z_PARAM_ARRAY_HT_EX(dest, 1, 0)

#define Z_PARAM_ZVAL(dest) \
  Z_PARAM_PROLOGUE(0, 0);  \
  dest = _arg;
/* Any value; dest is NULL when the argument is null. */
#define Z_PARAM_ZVAL_OR_NULL(dest) \
  Z_PARAM_PROLOGUE(0, 0);          \
  dest = (Z_TYPE_P(_arg) == IS_NULL) ? NULL : _arg;

#define Z_PARAM_OBJECT_EX(dest, check_null, deref)                       \
  Z_PARAM_PROLOGUE(deref, 0);                                            \
  if (UNEXPECTED(!zend_parse_arg_object(_arg, &dest, NULL, check_null))) \
  Z_PARAM_FAIL(check_null ? Z_EXPECTED_OBJECT_OR_NULL : Z_EXPECTED_OBJECT)
#define Z_PARAM_OBJECT(dest) Z_PARAM_OBJECT_EX(dest, 0, 0)
#define Z_PARAM_OBJECT_OR_NULL(dest) Z_PARAM_OBJECT_EX(dest, 1, 0)

#define Z_PARAM_OBJECT_OF_CLASS_EX(dest, _ce, check_null, deref)          \
  Z_PARAM_PROLOGUE(deref, 0);                                             \
  if (UNEXPECTED(!zend_parse_arg_object(_arg, &dest, _ce, check_null))) { \
    _expected_class = (_ce);                                              \
    Z_PARAM_FAIL(check_null ? Z_EXPECTED_OBJECT_OF_CLASS_OR_NULL          \
                            : Z_EXPECTED_OBJECT_OF_CLASS)                 \
  }
#define Z_PARAM_OBJECT_OF_CLASS(dest, _ce) \
  Z_PARAM_OBJECT_OF_CLASS_EX(dest, _ce, 0, 0)
#define Z_PARAM_OBJECT_OF_CLASS_OR_NULL(dest, _ce) \
  Z_PARAM_OBJECT_OF_CLASS_EX(dest, _ce, 1, 0)

#define Z_PARAM_OBJ_EX(dest, check_null, deref)                       \
  Z_PARAM_PROLOGUE(deref, 0);                                         \
  if (UNEXPECTED(!zend_parse_arg_obj(_arg, &dest, NULL, check_null))) \
  Z_PARAM_FAIL(check_null ? Z_EXPECTED_OBJECT_OR_NULL : Z_EXPECTED_OBJECT)
#define Z_PARAM_OBJ(dest) Z_PARAM_OBJ_EX(dest, 0, 0)
#define Z_PARAM_OBJ_OR_NULL(dest) Z_PARAM_OBJ_EX(dest, 1, 0)

#define Z_PARAM_OBJ_OF_CLASS_EX(dest, _ce, check_null, deref)          \
  Z_PARAM_PROLOGUE(deref, 0);                                          \
  if (UNEXPECTED(!zend_parse_arg_obj(_arg, &dest, _ce, check_null))) { \
    _expected_class = (_ce);                                           \
    Z_PARAM_FAIL(check_null ? Z_EXPECTED_OBJECT_OF_CLASS_OR_NULL       \
                            : Z_EXPECTED_OBJECT_OF_CLASS)              \
  }
#define Z_PARAM_OBJ_OF_CLASS(dest, _ce) Z_PARAM_OBJ_OF_CLASS_EX(dest, _ce, 0, 0)
#define Z_PARAM_OBJ_OF_CLASS_OR_NULL(dest, _ce) \
  Z_PARAM_OBJ_OF_CLASS_EX(dest, _ce, 1, 0)

#define Z_PARAM_FUNC_EX(dest_fci, dest_fcc, check_null, deref)           \
  Z_PARAM_PROLOGUE(deref, 0);                                            \
  if (UNEXPECTED(                                                        \
          !zend_parse_arg_func(_arg, &dest_fci, &dest_fcc, check_null))) \
  Z_PARAM_FAIL(check_null ? Z_EXPECTED_FUNC_OR_NULL : Z_EXPECTED_FUNC)
#define Z_PARAM_FUNC(dest_fci, dest_fcc) \
  Z_PARAM_FUNC_EX(dest_fci, dest_fcc, 0, 0)
#define Z_PARAM_FUNC_OR_NULL(dest_fci, dest_fcc) \
  Z_PARAM_FUNC_EX(dest_fci, dest_fcc, 1, 0)

#define Z_PARAM_VARIADIC(spec, dest, dest_num)                   \
  {                                                              \
    uint32_t _num_varargs = _num_args > _i ? _num_args - _i : 0; \
    if (EXPECTED(_num_varargs > 0)) {                            \
      dest = ZEND_CALL_ARG(execute_data, _i + 1);                \
      dest_num = _num_varargs;                                   \
      _i += _num_varargs;                                        \
    } else {                                                     \
      dest = NULL;                                               \
      dest_num = 0;                                              \
    }                                                            \
  }

/* The rest of the arguments, and the named arguments the call collected
 * beyond the declared parameters (execute_data->extra_named_params; NULL
 * when there are none). */
#define Z_PARAM_VARIADIC_WITH_NAMED(dest, dest_num, dest_named) \
  Z_PARAM_VARIADIC('*', dest, dest_num);                        \
  dest_named = execute_data->extra_named_params;

/* Module globals. The mock is built without ZTS: a module's globals are
 * one C object named <module>_globals of type zend_<module>_globals, as in
 * a non-ZTS PHP. ZEND_INIT_MODULE_GLOBALS runs the constructor on it. */
#define ZEND_BEGIN_MODULE_GLOBALS(module_name) \
  typedef struct _zend_##module_name##_globals {
#define ZEND_END_MODULE_GLOBALS(module_name) \
  }                                          \
  zend_##module_name##_globals;
#define ZEND_DECLARE_MODULE_GLOBALS(module_name) \
  zend_##module_name##_globals module_name##_globals;
#define ZEND_EXTERN_MODULE_GLOBALS(module_name) \
  extern zend_##module_name##_globals module_name##_globals;
#define ZEND_INIT_MODULE_GLOBALS(module_name, globals_ctor, globals_dtor) \
  globals_ctor(&module_name##_globals);
#define ZEND_MODULE_GLOBALS_ACCESSOR(module_name, v) (module_name##_globals.v)
#define ZEND_MODULE_GLOBALS_BULK(module_name) (&module_name##_globals)

END_EXTERN_C()

#endif /* ZEND_API_H */
