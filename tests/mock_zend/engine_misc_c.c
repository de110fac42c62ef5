/*
 * The engine's miscellaneous names used from C11. See engine_misc_c.h.
 */
#include "engine_misc_c.h"

#include "Zend/zend_signal.h"
#include "Zend/zend_stream.h"
#include "main/php_open_temporary_file.h"
#include "php.h"
#include "tests/support/c_check.h"

static ZEND_FUNCTION(c_misc_describe) {
  char* s = NULL;
  size_t s_len = 0;
  zval* a = NULL;
  zval* rest = NULL;
  uint32_t rest_count = 0;
  HashTable* named = NULL;
  ZEND_PARSE_PARAMETERS_START(2, -1)
  Z_PARAM_STRING(s, s_len)
  Z_PARAM_ARRAY(a)
  Z_PARAM_VARIADIC_WITH_NAMED(rest, rest_count, named)
  ZEND_PARSE_PARAMETERS_END();
  (void)rest;
  array_init(return_value);
  add_assoc_stringl(return_value, "s", s, s_len);
  add_assoc_double(return_value, "count",
                   (double)zend_hash_num_elements(Z_ARRVAL_P(a)));
  add_assoc_long(return_value, "rest", (zend_long)rest_count);
  add_assoc_bool(return_value, "named", named != NULL);
}

static ZEND_FUNCTION(c_misc_appended) {
  zval* a = NULL;
  zval copy;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_ARRAY(a)
  ZEND_PARSE_PARAMETERS_END();
  ZVAL_COPY(&copy, a);
  SEPARATE_ARRAY(&copy);
  add_next_index_long(&copy, 4);
  RETURN_ZVAL(&copy, 0, 1);
}

static ZEND_FUNCTION(c_misc_alloca) {
  zend_long size = 0;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_LONG(size)
  ZEND_PARSE_PARAMETERS_END();
  ALLOCA_FLAG(use_heap)
  char* block = do_alloca((size_t)size, use_heap);
  memset(block, 'x', (size_t)size);
  const bool from_heap = use_heap;
  free_alloca(block, use_heap);
  RETURN_BOOL(from_heap);
}

ZEND_BEGIN_ARG_INFO_EX(arginfo_c_misc_describe, 0, 0, 2)
ZEND_ARG_TYPE_INFO(0, s, IS_STRING, 0)
ZEND_ARG_TYPE_INFO(0, a, IS_ARRAY, 0)
ZEND_ARG_VARIADIC_INFO(0, rest)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_c_misc_appended, 0, 0, 1)
ZEND_ARG_TYPE_INFO(0, a, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_c_misc_alloca, 0, 0, 1)
ZEND_ARG_TYPE_INFO(0, size, IS_LONG, 0)
ZEND_END_ARG_INFO()

static const zend_function_entry functions[] = {
    ZEND_FE(c_misc_describe, arginfo_c_misc_describe)
        ZEND_FE(c_misc_appended, arginfo_c_misc_appended)
            ZEND_FE(c_misc_alloca, arginfo_c_misc_alloca) ZEND_FE_END};

const zend_function_entry* surface_c_misc_functions(void) { return functions; }

int surface_c_misc_check(void) {
  /* No INI directive is registered. */
  bool exists = true;
  C_CHECK(INI_INT("error_reporting") == 0);
  C_CHECK(INI_STR("error_reporting") == NULL);
  C_CHECK(zend_ini_long_literal("error_reporting") == 0);
  C_CHECK(zend_ini_str_literal("error_reporting") == NULL);
  C_CHECK(zend_ini_string_ex(ZEND_STRL("memory_limit"), 0, &exists) == NULL);
  C_CHECK(!exists);

  /* Constants as a module's MINIT registers them. */
  const int module_number = 7;
  REGISTER_LONG_CONSTANT("C_MISC_ANSWER", 42, CONST_PERSISTENT);
  REGISTER_NS_STRING_CONSTANT("Vendor\\Pkg", "C_MISC_NAME", "misc",
                              CONST_PERSISTENT);
  const zval* answer = zend_get_constant_str(ZEND_STRL("C_MISC_ANSWER"));
  C_CHECK(answer != NULL && Z_TYPE_P(answer) == IS_LONG &&
          Z_LVAL_P(answer) == 42);
  const zval* name =
      zend_get_constant_str(ZEND_STRL("vendor\\pkg\\C_MISC_NAME"));
  C_CHECK(name != NULL && zend_string_equals_literal(Z_STR_P(name), "misc"));
  zend_constant* c = zend_get_constant_ptr(ZSTR_KNOWN(ZEND_STR_PATH));
  C_CHECK(c == NULL);

  /* Nothing is compiled; CG()'s tables are EG()'s. */
  C_CHECK(!zend_is_compiling());
  C_CHECK(zend_get_compiled_filename() == NULL);
  C_CHECK(zend_get_compiled_lineno() == 0);
  C_CHECK(CG(function_table) == EG(function_table));
  C_CHECK(zend_hash_str_find_ptr(CG(function_table),
                                 ZEND_STRL("c_misc_alloca")) != NULL);
  C_CHECK(PG(upload_tmp_dir) == NULL);

  /* Portability names, <ctype.h> and <signal.h> as PHP's headers reach
   * them, the allocator's OOM flag, zend_hrtime() and zend_async_io_t. */
  C_CHECK(isspace((unsigned char)'\n') && !isspace((unsigned char)'x'));
  C_CHECK(SIGHUP == 1);
  C_CHECK(ZEND_VALID_SOCKET(0) && !ZEND_VALID_SOCKET(-1));
  C_CHECK(!zend_alloc_pop_is_oom());
  C_CHECK(zend_hrtime() > 0);
  zend_async_io_t* io = NULL;
  C_CHECK(io == NULL);

  zend_string* opened = NULL;
  const int fd = php_open_temporary_fd(NULL, "misc", &opened);
  C_CHECK(fd >= 0);
  C_CHECK(write(fd, "hello", 5) == 5);
  C_CHECK(zend_lseek(fd, 0, SEEK_CUR) == 5);
  zend_stat_t st;
  C_CHECK(zend_fstat(fd, &st) == 0 && st.st_size == 5);
  close(fd);
  unlink(ZSTR_VAL(opened));
  zend_string_release(opened);

  /* Strings. */
  zend_string* encoding = zend_string_init(ZEND_STRL("GZip"), 0);
  C_CHECK(zend_string_equals_literal_ci(encoding, "gzip"));
  C_CHECK(!zend_string_equals_literal_ci(encoding, "gzi"));
  C_CHECK(zend_inline_hash_func(ZEND_STRL("GZip")) ==
          zend_string_hash_val(encoding));
  zend_string_release(encoding);
  C_CHECK(zend_string_equals_literal(ZSTR_KNOWN(ZEND_STR_PATH), "path"));

  zval text;
  ZVAL_NEW_STR(&text, zend_string_init(ZEND_STRL("new"), 0));
  C_CHECK(Z_TYPE_INFO(text) == IS_STRING_EX);
  zval_ptr_dtor(&text);
  return 0;
}

int surface_c_last_error_check(void) {
  php_error_docref(NULL, E_WARNING, "c misc %d", 3);
  C_CHECK(PG(last_error_type) == E_WARNING);
  C_CHECK(PG(last_error_message) != NULL &&
          zend_string_equals_literal(PG(last_error_message), "c misc 3"));
  C_CHECK(PG(last_error_file) != NULL &&
          zend_string_equals_literal(PG(last_error_file), "Unknown"));
  C_CHECK(PG(last_error_lineno) == 0);
  return 0;
}

/* ---- A module with INI directives ---- */

ZEND_BEGIN_MODULE_GLOBALS(misc_ini)
bool enabled;
zend_long limit;
char* label;
ZEND_END_MODULE_GLOBALS(misc_ini)

ZEND_DECLARE_MODULE_GLOBALS(misc_ini)

PHP_INI_BEGIN()
STD_PHP_INI_BOOLEAN("misc.enabled", "1", PHP_INI_ALL, OnUpdateBool, enabled,
                    zend_misc_ini_globals, misc_ini_globals)
STD_PHP_INI_ENTRY("misc.limit", "8K", PHP_INI_SYSTEM, OnUpdateLong, limit,
                  zend_misc_ini_globals, misc_ini_globals)
STD_PHP_INI_ENTRY("misc.label", "main", PHP_INI_ALL, OnUpdateString, label,
                  zend_misc_ini_globals, misc_ini_globals)
PHP_INI_END()

static ZEND_MINIT_FUNCTION(misc_ini) {
  REGISTER_INI_ENTRIES();
  return SUCCESS;
}

static ZEND_MSHUTDOWN_FUNCTION(misc_ini) {
  UNREGISTER_INI_ENTRIES();
  return SUCCESS;
}

static ZEND_MINFO_FUNCTION(misc_ini) { DISPLAY_INI_ENTRIES(); }

static ZEND_FUNCTION(c_misc_iterable) {
  zval* items = NULL;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_ITERABLE(items)
  ZEND_PARSE_PARAMETERS_END();
  if (Z_TYPE_P(items) == IS_ARRAY) {
    RETURN_LONG((zend_long)zend_hash_num_elements(Z_ARRVAL_P(items)));
  }
  RETURN_LONG(-1);
}

ZEND_BEGIN_ARG_INFO_EX(arginfo_c_misc_iterable, 0, 0, 1)
ZEND_ARG_INFO(0, items)
ZEND_END_ARG_INFO()

static const zend_function_entry ini_module_functions[] = {
    ZEND_FE(c_misc_iterable, arginfo_c_misc_iterable) ZEND_FE_END};

zend_module_entry surface_c_ini_module_entry = {STANDARD_MODULE_HEADER,
                                                "misc_ini",
                                                ini_module_functions,
                                                ZEND_MINIT(misc_ini),
                                                ZEND_MSHUTDOWN(misc_ini),
                                                NULL,
                                                NULL,
                                                ZEND_MINFO(misc_ini),
                                                "1.0",
                                                PHP_MODULE_GLOBALS(misc_ini),
                                                NULL,
                                                NULL,
                                                NULL,
                                                STANDARD_MODULE_PROPERTIES_EX};

int surface_c_ini_globals_check(void) {
  C_CHECK(misc_ini_globals.enabled);
  C_CHECK(misc_ini_globals.limit == 8 * 1024);
  C_CHECK(misc_ini_globals.label != NULL &&
          strcmp(misc_ini_globals.label, "main") == 0);
  C_CHECK(INI_BOOL("misc.enabled"));
  C_CHECK(INI_INT("misc.limit") == 8);
  C_CHECK(strcmp(INI_STR("misc.label"), "main") == 0);
  C_CHECK(zend_ini_long_literal("misc.enabled") == 1);
  zend_string* label = zend_ini_str_literal("misc.label");
  C_CHECK(label != NULL && zend_string_equals_literal(label, "main"));
  return 0;
}

int surface_c_void_result_check(void) {
  /* An ABI callback's result arrives as void *: the reference macros take
   * it as it is. */
  zval value;
  ZVAL_STR(&value, zend_string_init("shared", sizeof("shared") - 1, 0));
  void* result = &value;
  Z_TRY_ADDREF_P(result);
  C_CHECK(Z_REFCOUNT(value) == 2);
  Z_TRY_DELREF_P(result);
  C_CHECK(Z_REFCOUNT(value) == 1);
  zval_ptr_dtor(&value);
  return 0;
}

int surface_c_table_data_copy_check(void) {
  /* A table's data block copied elsewhere and re-pointed, as php-async's
   * thread.c copies tables for other threads: lookups work in the copy. */
  HashTable* ht = zend_new_array(0);
  zval v;
  ZVAL_LONG(&v, 1);
  zend_hash_str_add(ht, ZEND_STRL("one"), &v);
  ZVAL_LONG(&v, 2);
  zend_hash_str_add(ht, ZEND_STRL("two"), &v);
  ZVAL_LONG(&v, 7);
  zend_hash_index_add(ht, 7, &v);
  C_CHECK(!HT_IS_PACKED(ht));
  C_CHECK(HT_USED_SIZE(ht) ==
          HT_HASH_SIZE(ht->nTableMask) + ht->nNumUsed * sizeof(Bucket));
  C_CHECK(HT_HASH_SIZE(ht->nTableMask) ==
          2 * (size_t)ht->nTableSize * sizeof(uint32_t));
  char* block = pemalloc(HT_SIZE(ht), 1);
  memcpy(block, HT_GET_DATA_ADDR(ht), HT_USED_SIZE(ht));
  HashTable copy = *ht;
  HT_SET_DATA_ADDR(&copy, block);
  C_CHECK(HT_GET_DATA_ADDR(&copy) == block);
  zval* two = zend_hash_str_find(&copy, ZEND_STRL("two"));
  C_CHECK(two != NULL && Z_LVAL_P(two) == 2);
  zval* seven = zend_hash_index_find(&copy, 7);
  C_CHECK(seven != NULL && Z_LVAL_P(seven) == 7);
  C_CHECK(zend_hash_str_find(&copy, ZEND_STRL("three")) == NULL);
  pefree(block, 1);
  zend_array_destroy(ht);

  /* An empty table owns no block: two shared empty hash slots. */
  HashTable* empty = zend_new_array(0);
  C_CHECK((HT_FLAGS(empty) & HASH_FLAG_UNINITIALIZED) != 0);
  C_CHECK(empty->nTableMask == HT_MIN_MASK);
  const uint32_t* slots = (const uint32_t*)HT_GET_DATA_ADDR(empty);
  C_CHECK(slots[0] == HT_INVALID_IDX && slots[1] == HT_INVALID_IDX);
  zend_array_destroy(empty);
  return 0;
}
