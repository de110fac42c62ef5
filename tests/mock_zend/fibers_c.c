/*
 * The fiber types used from C11. See fibers_c.h.
 */
#include "fibers_c.h"

#include "Zend/zend_fibers.h"
#include "php.h"
#include "tests/support/c_check.h"

/* ---- Fiber types, as php-async's coroutine.h embeds them ---- */

typedef struct {
  zend_fiber_context context;
  zend_vm_stack vm_stack;
  zend_execute_data* execute_data;
  uint8_t flags;
} surface_fiber_context_t;

static ZEND_STACK_ALIGNED int surface_entry(surface_fiber_context_t* fiber) {
  return fiber->context.status == ZEND_FIBER_STATUS_INIT ? 7 : -1;
}

int surface_c_fiber_types_check(void) {
  surface_fiber_context_t fiber;
  memset(&fiber, 0, sizeof(fiber));
  C_CHECK(surface_entry(&fiber) == 7);
  C_CHECK(sizeof(fiber.context.reserved) / sizeof(void*) ==
          ZEND_MAX_RESERVED_RESOURCES);

  zend_fiber_transfer transfer = {.context = &fiber.context, .flags = 0};
  ZVAL_LONG(&transfer.value, 5);
  C_CHECK(transfer.context == &fiber.context);
  C_CHECK(Z_LVAL(transfer.value) == 5);
  C_CHECK((ZEND_FIBER_TRANSFER_FLAG_ERROR | ZEND_FIBER_TRANSFER_FLAG_BAILOUT) ==
          3);

  zval slots[4];
  struct _zend_vm_stack page = {slots, slots + 4, NULL};
  fiber.vm_stack = &page;
  C_CHECK(fiber.vm_stack->end - fiber.vm_stack->top == 4);
  C_CHECK(fiber.vm_stack->prev == NULL);
  return 0;
}

size_t surface_c_sizeof_fiber_context(void) {
  return sizeof(zend_fiber_context);
}
size_t surface_c_sizeof_fiber_transfer(void) {
  return sizeof(zend_fiber_transfer);
}
size_t surface_c_sizeof_fiber(void) { return sizeof(zend_fiber); }
size_t surface_c_offsetof_fiber_context(void) {
  return offsetof(zend_fiber, context);
}
