/*
 * The headers php-async includes, used from C11. See engine_headers_c.h.
 */
#include "engine_headers_c.h"

#include "php.h"
#include "php_config.h"
#include "tests/support/c_check.h"
#include "zend_attributes.h"
#include "zend_autoload.h"
#include "zend_generators.h"
#include "zend_observer.h"
#include "zend_weakrefs.h"

size_t surface_c_sizeof_generator(void) { return sizeof(zend_generator); }

size_t surface_c_offsetof_generator_flags(void) {
  return offsetof(zend_generator, flags);
}

size_t surface_c_sizeof_attribute(void) { return sizeof(zend_attribute); }

int surface_c_attribute_copy_check(void) {
  C_CHECK(ZEND_ATTRIBUTE_SIZE(2) ==
          offsetof(zend_attribute, args) + 2 * sizeof(zend_attribute_arg));
  zend_attribute* attr = pemalloc(ZEND_ATTRIBUTE_SIZE(2), 1);
  memset(attr, 0, ZEND_ATTRIBUTE_SIZE(2));
  attr->argc = 2;
  attr->flags = ZEND_ATTRIBUTE_STRICT_TYPES;
  ZVAL_LONG(&attr->args[0].value, 1);
  ZVAL_LONG(&attr->args[1].value, 2);

  zend_attribute* copy = pemalloc(ZEND_ATTRIBUTE_SIZE(attr->argc), 1);
  memcpy(copy, attr, ZEND_ATTRIBUTE_SIZE(attr->argc));
  copy->flags |= ZEND_ATTRIBUTE_PERSISTENT;
  int failed = 0;
  if (Z_LVAL(copy->args[1].value) != 2 ||
      copy->flags !=
          (ZEND_ATTRIBUTE_STRICT_TYPES | ZEND_ATTRIBUTE_PERSISTENT)) {
    failed = __LINE__;
  }
  pefree(copy, 1);
  pefree(attr, 1);
  return failed;
}

int surface_c_php_config_zts(void) {
#ifdef ZTS
  return 1;
#else
  return 0;
#endif
}

static int switches = 0;

static void count_switch(zend_fiber_context* from, zend_fiber_context* to) {
  (void)from;
  (void)to;
  switches++;
}

void surface_c_observer_register(void) {
  switches = 0;
  zend_observer_fiber_switch_register(count_switch);
}

int surface_c_observer_switches(void) { return switches; }
