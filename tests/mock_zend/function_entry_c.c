/*
 * Function entries written from C11. See function_entry_c.h.
 */
#include "function_entry_c.h"

#include "php.h"
#include "tests/support/c_check.h"

static ZEND_FUNCTION(c_entry_sum) {
  zend_long a = 0;
  zend_long b = 0;
  ZEND_PARSE_PARAMETERS_START(2, 2)
  Z_PARAM_LONG(a)
  Z_PARAM_LONG(b)
  ZEND_PARSE_PARAMETERS_END();
  RETURN_LONG(a + b);
}

static ZEND_FUNCTION(c_entry_plain) {
  ZEND_PARSE_PARAMETERS_NONE();
  RETURN_TRUE;
}

/* As gen_stub.php writes them. */
ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_c_entry_sum, 0, 2, IS_LONG, 0)
ZEND_ARG_TYPE_INFO(0, a, IS_LONG, 0)
ZEND_ARG_TYPE_INFO(0, b, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_c_entry_plain, 0, 0, _IS_BOOL,
                                        0)
ZEND_END_ARG_INFO()

static const zend_frameless_function_info frameless_c_entry_sum[] = {
    {(void*)zif_c_entry_sum, 2},
    {NULL, 0},
};

static const zend_function_entry entries[] = {
    ZEND_RAW_FENTRY(ZEND_NS_NAME("Vendor", "c_entry_sum"), zif_c_entry_sum,
                    arginfo_c_entry_sum, 0, frameless_c_entry_sum,
                    "/** Adds two integers. */")
        ZEND_FE(c_entry_plain, arginfo_c_entry_plain) ZEND_FE_END};

const zend_function_entry* surface_c_function_entries(void) { return entries; }

int surface_c_function_entry_check(void) {
  C_CHECK(strcmp(entries[0].fname, "Vendor\\c_entry_sum") == 0);
  C_CHECK(entries[0].handler == zif_c_entry_sum);
  C_CHECK(entries[0].arg_info == arginfo_c_entry_sum);
  C_CHECK(entries[0].num_args == 2);
  C_CHECK(entries[0].flags == 0);
  C_CHECK(entries[0].frameless_function_infos == frameless_c_entry_sum);
  C_CHECK(entries[0].frameless_function_infos[0].num_args == 2);
  C_CHECK(entries[0].frameless_function_infos[1].handler == NULL);
  C_CHECK(strcmp(entries[0].doc_comment, "/** Adds two integers. */") == 0);

  C_CHECK(strcmp(entries[1].fname, "c_entry_plain") == 0);
  C_CHECK(entries[1].handler == zif_c_entry_plain);
  C_CHECK(entries[1].num_args == 0);
  C_CHECK(entries[1].frameless_function_infos == NULL);
  C_CHECK(entries[1].doc_comment == NULL);

  C_CHECK(entries[2].fname == NULL);
  C_CHECK(entries[2].handler == NULL);
  return 0;
}

size_t surface_c_sizeof_function_entry(void) {
  return sizeof(zend_function_entry);
}

size_t surface_c_offsetof_function_entry_doc_comment(void) {
  return offsetof(zend_function_entry, doc_comment);
}
