/*
 * Module globals declared from C11 with PHP's macros. See
 * module_globals_c.h.
 */
#include "module_globals_c.h"

#include "php.h"
#include "tests/support/c_check.h"

/* ---- Module globals, as in an extension's php_<ext>.h and <ext>.c ---- */

ZEND_BEGIN_MODULE_GLOBALS(surface)
zend_long counter;
const char* label;
zend_vm_stack main_vm_stack;
ZEND_END_MODULE_GLOBALS(surface)

ZEND_EXTERN_MODULE_GLOBALS(surface)
ZEND_TSRMLS_CACHE_EXTERN()

#define SURFACE_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(surface, v)
#define SURFACE_GLOBALS ZEND_MODULE_GLOBALS_BULK(surface)

ZEND_DECLARE_MODULE_GLOBALS(surface)

static PHP_GINIT_FUNCTION(surface) {
  surface_globals->counter = 41;
  surface_globals->label = "constructed";
  surface_globals->main_vm_stack = NULL;
}

zend_module_entry surface_c_module_entry = {STANDARD_MODULE_HEADER,
                                            "surface",
                                            NULL,
                                            NULL,
                                            NULL,
                                            NULL,
                                            NULL,
                                            NULL,
                                            "1.0",
                                            PHP_MODULE_GLOBALS(surface),
                                            PHP_GINIT(surface),
                                            NULL,
                                            NULL,
                                            STANDARD_MODULE_PROPERTIES_EX};

int surface_c_module_globals_check(void) {
  memset(&surface_globals, 0, sizeof(surface_globals));
  ZEND_INIT_MODULE_GLOBALS(surface, zm_globals_ctor_surface, NULL);
  C_CHECK(SURFACE_G(counter) == 41);
  C_CHECK(strcmp(SURFACE_G(label), "constructed") == 0);
  SURFACE_G(counter)++;
  C_CHECK(surface_globals.counter == 42);
  zend_surface_globals* bulk = SURFACE_GLOBALS;
  C_CHECK(bulk == &surface_globals);
  bulk->label = "bulk";
  C_CHECK(strcmp(SURFACE_G(label), "bulk") == 0);
  return 0;
}

int surface_c_module_entry_check(void) {
  C_CHECK(surface_c_module_entry.globals_size == sizeof(zend_surface_globals));
  C_CHECK(surface_c_module_entry.globals_ptr == &surface_globals);
  C_CHECK(surface_c_module_entry.globals_ctor ==
          (void (*)(void*))zm_globals_ctor_surface);
  C_CHECK(surface_c_module_entry.globals_dtor == NULL);
  C_CHECK(strcmp(surface_c_module_entry.name, "surface") == 0);
  return 0;
}
