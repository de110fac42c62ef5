/*
 * The fiber types used from C11. See fibers_c.h.
 */
#include "fibers_c.h"

#include "Zend/zend_execute.h"
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

/* ---- Contexts switched from C, as php-async's scheduler.c switches its
 * coroutines: the entry function runs on a VM stack page of its own on
 * its C stack, receives values, answers each doubled, and returns to the
 * context that started it. ---- */

typedef struct {
  zend_fiber_context context;
  zend_fiber_context* starter;
  int received;
} surface_pinger_t;

static surface_pinger_t pinger;

static ZEND_STACK_ALIGNED void surface_pinger_entry(
    zend_fiber_transfer* transfer) {
  char vm_stack_memory[ZEND_FIBER_VM_STACK_SIZE];
  zend_vm_stack stack = (zend_vm_stack)vm_stack_memory;
  stack->top = ZEND_VM_STACK_ELEMENTS(stack);
  stack->end = (zval*)((char*)vm_stack_memory + ZEND_FIBER_VM_STACK_SIZE);
  stack->prev = NULL;
  EG(vm_stack) = stack;
  EG(vm_stack_top) = stack->top + ZEND_CALL_FRAME_SLOT;
  EG(vm_stack_end) = stack->end;
  EG(vm_stack_page_size) = ZEND_FIBER_VM_STACK_SIZE;
  EG(jit_trace_num) = 0;

  pinger.starter = transfer->context;
  while (Z_LVAL(transfer->value) != 0) {
    pinger.received++;
    ZVAL_LONG(&transfer->value, Z_LVAL(transfer->value) * 2);
    transfer->context = pinger.starter;
    zend_fiber_switch_context(transfer);
    if (EG(vm_stack) != stack) return; /* main's page leaked in */
  }
  transfer->context = pinger.starter;
  ZVAL_LONG(&transfer->value, -1);
}

int surface_c_fiber_ping_pong(void) {
  memset(&pinger, 0, sizeof(pinger));
  zend_vm_stack main_page = EG(vm_stack);
  C_CHECK(zend_fiber_init_context(&pinger.context, NULL, surface_pinger_entry,
                                  EG(fiber_stack_size)) == SUCCESS);
  C_CHECK(pinger.context.status == ZEND_FIBER_STATUS_INIT);
  for (zend_long value = 1; value <= 3; value++) {
    zend_fiber_transfer transfer = {.context = &pinger.context, .flags = 0};
    ZVAL_LONG(&transfer.value, value);
    zend_fiber_switch_context(&transfer);
    C_CHECK(transfer.context == &pinger.context);
    C_CHECK(Z_LVAL(transfer.value) == value * 2);
    C_CHECK(EG(current_fiber_context) == EG(main_fiber_context));
    C_CHECK(EG(vm_stack) == main_page);
    C_CHECK(pinger.context.status == ZEND_FIBER_STATUS_SUSPENDED);
  }
  zend_fiber_transfer last = {.context = &pinger.context, .flags = 0};
  ZVAL_LONG(&last.value, 0);
  zend_fiber_switch_context(&last);
  C_CHECK(Z_LVAL(last.value) == -1);
  C_CHECK(pinger.received == 3);
  C_CHECK(pinger.starter == EG(main_fiber_context));
  C_CHECK(EG(vm_stack) == main_page);
  return 0;
}
