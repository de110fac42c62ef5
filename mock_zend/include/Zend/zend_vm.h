/*
 * zend-async-ref: mock Zend engine.
 *
 * The VM's handler selection (Zend/zend_vm.h). The mock runs no opcodes,
 * so it has no handlers to choose: both functions fail loudly (an
 * E_CORE_ERROR naming the function) and leave the opline as it is.
 */
#ifndef ZEND_VM_H
#define ZEND_VM_H

#include "zend_compile.h"

BEGIN_EXTERN_C()

ZEND_API void ZEND_FASTCALL zend_vm_set_opcode_handler(zend_op *opcode);
ZEND_API void ZEND_FASTCALL zend_vm_set_opcode_handler_ex(zend_op *opcode,
                                                          uint32_t op1_info,
                                                          uint32_t op2_info,
                                                          uint32_t res_info);

END_EXTERN_C()

#endif /* ZEND_VM_H */
