/*
 * Compiled code used from C11. See compiled_code_c.h.
 */
#include "compiled_code_c.h"

#include "php.h"
#include "tests/support/c_check.h"
#include "zend_ast.h"
#include "zend_compile.h"
#include "zend_execute.h"
#include "zend_map_ptr.h"
#include "zend_vm.h"

size_t compiled_c_sizeof_op_array(void) { return sizeof(zend_op_array); }

size_t compiled_c_offsetof_op_array_reserved(void) {
  return offsetof(zend_op_array, reserved);
}

size_t compiled_c_sizeof_function(void) { return sizeof(zend_function); }

int compiled_c_op_array_check(void) {
  zend_op opcodes[2];
  memset(opcodes, 0, sizeof(opcodes));
  opcodes[0].opcode = ZEND_JMP;
  opcodes[1].opcode = ZEND_RETURN;
  opcodes[1].op1_type = IS_CONST;

  zend_function func;
  memset(&func, 0, sizeof(func));
  zend_op_array* op_array = &func.op_array;
  op_array->type = ZEND_USER_FUNCTION;
  op_array->fn_flags = ZEND_ACC_CLOSURE | ZEND_ACC_HAS_RETURN_TYPE;
  op_array->opcodes = opcodes;
  op_array->last = 2;
  C_CHECK(ZEND_USER_CODE(func.type));
  C_CHECK(func.common.fn_flags & ZEND_ACC_CLOSURE);
  C_CHECK(func.op_array.opcodes[1].opcode == 62);

  /* A plain pointer is read back as it is. */
  void* cache[4] = {NULL, NULL, NULL, NULL};
  ZEND_MAP_PTR_INIT(op_array->run_time_cache, cache);
  C_CHECK(!ZEND_MAP_PTR_IS_OFFSET(op_array->run_time_cache));
  C_CHECK(ZEND_MAP_PTR_GET(op_array->run_time_cache) == cache);
  C_CHECK(RUN_TIME_CACHE(op_array) == cache);

  /* A slot holds NULL until set through the op array. */
  ZEND_MAP_PTR_NEW(op_array->static_variables_ptr);
  C_CHECK(ZEND_MAP_PTR_IS_OFFSET(op_array->static_variables_ptr));
  C_CHECK(ZEND_MAP_PTR_GET(op_array->static_variables_ptr) == NULL);
  HashTable* vars = zend_new_array(0);
  ZEND_MAP_PTR_SET(op_array->static_variables_ptr, vars);
  C_CHECK(ZEND_MAP_PTR_GET(op_array->static_variables_ptr) == vars);
  C_CHECK(ZEND_MAP_PTR_GET_IMM(op_array->static_variables_ptr) == vars);
  zend_destroy_static_vars(op_array);
  C_CHECK(ZEND_MAP_PTR_GET(op_array->static_variables_ptr) == NULL);

  /* A frame's kind and flags share Z_TYPE_INFO(This) with $this. */
  zend_execute_data frame;
  memset(&frame, 0, sizeof(frame));
  Z_TYPE_INFO(frame.This) = ZEND_CALL_TOP_FUNCTION | ZEND_CALL_GENERATOR;
  C_CHECK(ZEND_CALL_INFO(&frame) & ZEND_CALL_GENERATOR);
  C_CHECK(ZEND_CALL_KIND(&frame) == ZEND_CALL_TOP_FUNCTION);
  ZEND_DEL_CALL_FLAG(&frame, ZEND_CALL_GENERATOR);
  C_CHECK(!(ZEND_CALL_INFO(&frame) & ZEND_CALL_GENERATOR));
  C_CHECK(Z_TYPE(frame.This) == IS_UNDEF);
  return 0;
}

int compiled_c_ast_check(void) {
  /* [$name, 7]: a list of two value nodes, as the compiler lays them out. */
  zend_ast_zval name_node;
  memset(&name_node, 0, sizeof(name_node));
  name_node.kind = ZEND_AST_ZVAL;
  ZVAL_STR(&name_node.val, zend_string_init("key", 3, 0));
  name_node.val.u2.lineno = 3;
  zend_ast_zval num_node;
  memset(&num_node, 0, sizeof(num_node));
  num_node.kind = ZEND_AST_ZVAL;
  ZVAL_LONG(&num_node.val, 7);
  zend_ast_list* array_node =
      ecalloc(1, offsetof(zend_ast_list, child) + 2 * sizeof(zend_ast*));
  array_node->kind = ZEND_AST_ARRAY;
  array_node->children = 2;
  zend_ast** children = array_node->child;
  children[0] = (zend_ast*)&name_node;
  children[1] = (zend_ast*)&num_node;

  zend_ast* root = (zend_ast*)array_node;
  C_CHECK(zend_ast_is_list(root));
  C_CHECK(zend_ast_get_lineno((zend_ast*)&name_node) == 3);

  zval constant;
  ZVAL_AST(&constant, zend_ast_copy(root));
  C_CHECK(Z_TYPE(constant) == IS_CONSTANT_AST);
  C_CHECK(Z_REFCOUNTED(constant));
  zend_ast* copy = Z_ASTVAL(constant);
  C_CHECK(copy == GC_AST(Z_AST(constant)));
  C_CHECK(copy != root && zend_ast_is_list(copy));
  zend_ast_list* list = zend_ast_get_list(copy);
  C_CHECK(list->children == 2);
  C_CHECK(list->child[0] != (zend_ast*)&name_node);
  zend_string* key = zend_ast_get_str(list->child[0]);
  C_CHECK(key == Z_STR(name_node.val));
  C_CHECK(GC_REFCOUNT(key) == 2);
  C_CHECK(Z_LVAL_P(zend_ast_get_zval(list->child[1])) == 7);

  zval_ptr_dtor(&constant);
  C_CHECK(GC_REFCOUNT(key) == 1);
  zend_ast_destroy(root);
  efree(array_node);
  return 0;
}
