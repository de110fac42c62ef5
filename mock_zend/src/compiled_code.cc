// zend-async-ref: mock Zend engine. Compiled code: map pointers
// (zend_map_ptr.h), ASTs (zend_ast.h), op arrays (zend_compile.h), the VM's
// handlers (zend_vm.h) and user-code frames (zend_execute.h).
//
// The mock compiles and runs no PHP code. What only walks or copies data
// an extension can hold (a map-pointer table, a constant-expression tree,
// an op array's static variables, an internal frame's roots) is real;
// what would compile, execute or free the VM's own allocations fails
// loudly (Unsupported, engine_internal.h) and returns its failure value.

#include <cstring>

#include "engine_internal.h"

extern "C" {
#include "zend_ast.h"
#include "zend_compile.h"
#include "zend_execute.h"
#include "zend_map_ptr.h"
#include "zend_vm.h"
}

namespace {

constexpr const char* kNoCompiler = "it compiles no PHP code";
constexpr const char* kNoOpcodes = "it runs no opcodes";

// ---- AST ----

// Bytes a node of this kind takes, by its shape (zend_ast.h).
size_t NodeSize(zend_ast* ast) {
  if (ast->kind == ZEND_AST_ZVAL || ast->kind == ZEND_AST_CONSTANT) {
    return sizeof(zend_ast_zval);
  }
  if (ast->kind == ZEND_AST_OP_ARRAY) return sizeof(zend_ast_op_array);
  if (ast->kind == ZEND_AST_CALLABLE_CONVERT) return sizeof(zend_ast_fcc);
  if (zend_ast_is_list(ast)) {
    uint32_t children = zend_ast_get_list(ast)->children;
    return XtOffsetOf(zend_ast_list, child) +
           sizeof(zend_ast*) * (children == 0 ? 1 : children);
  }
  return zend_ast_size(zend_ast_get_num_children(ast));
}

// Nodes that exist only while PHP compiles, which a copy cannot carry.
bool CompileTimeOnly(const zend_ast* ast) {
  return ast->kind == ZEND_AST_ZNODE || zend_ast_is_decl(ast);
}

// The bytes the whole tree takes; false when it holds a compile-time node.
bool TreeSize(zend_ast* ast, size_t* size) {
  if (ast == nullptr) return true;
  if (CompileTimeOnly(ast)) return false;
  *size += NodeSize(ast);
  if (ast->kind == ZEND_AST_ZVAL || ast->kind == ZEND_AST_CONSTANT ||
      ast->kind == ZEND_AST_OP_ARRAY) {
    return true;
  }
  if (ast->kind == ZEND_AST_CALLABLE_CONVERT) {
    return TreeSize(reinterpret_cast<zend_ast_fcc*>(ast)->args, size);
  }
  if (zend_ast_is_list(ast)) {
    zend_ast_list* list = zend_ast_get_list(ast);
    for (uint32_t i = 0; i < list->children; i++) {
      if (!TreeSize(list->child[i], size)) return false;
    }
    return true;
  }
  uint32_t children = zend_ast_get_num_children(ast);
  for (uint32_t i = 0; i < children; i++) {
    if (!TreeSize(ast->child[i], size)) return false;
  }
  return true;
}

// Copies `ast` to `*cursor` (advancing it); values gain a reference.
zend_ast* CopyTree(zend_ast* ast, char** cursor) {
  if (ast == nullptr) return nullptr;
  const size_t size = NodeSize(ast);
  auto* copy = reinterpret_cast<zend_ast*>(*cursor);
  *cursor += size;
  std::memcpy(copy, ast, size);
  if (ast->kind == ZEND_AST_ZVAL || ast->kind == ZEND_AST_CONSTANT) {
    Z_TRY_ADDREF_P(zend_ast_get_zval(copy));
    return copy;
  }
  if (ast->kind == ZEND_AST_OP_ARRAY) return copy;
  if (ast->kind == ZEND_AST_CALLABLE_CONVERT) {
    auto* fcc = reinterpret_cast<zend_ast_fcc*>(copy);
    fcc->args = CopyTree(fcc->args, cursor);
    return copy;
  }
  if (zend_ast_is_list(ast)) {
    zend_ast_list* list = zend_ast_get_list(copy);
    for (uint32_t i = 0; i < list->children; i++) {
      list->child[i] = CopyTree(list->child[i], cursor);
    }
    return copy;
  }
  uint32_t children = zend_ast_get_num_children(ast);
  for (uint32_t i = 0; i < children; i++) {
    copy->child[i] = CopyTree(copy->child[i], cursor);
  }
  return copy;
}

// ---- Map pointers ----

void** MapPtrSlots() { return static_cast<void**>(CG(map_ptr_real_base)); }

// Makes room for `last` slots (the new ones NULL).
void MapPtrGrow(size_t last) {
  if (last <= CG(map_ptr_size)) return;
  size_t size = CG(map_ptr_size) == 0 ? 64 : CG(map_ptr_size);
  while (size < last) size *= 2;
  void** slots =
      static_cast<void**>(perealloc(MapPtrSlots(), size * sizeof(void*), 1));
  std::memset(slots + CG(map_ptr_size), 0,
              (size - CG(map_ptr_size)) * sizeof(void*));
  CG(map_ptr_real_base) = slots;
  CG(map_ptr_base) = ZEND_MAP_PTR_BIASED_BASE(slots);
  CG(map_ptr_size) = size;
}

}  // namespace

extern "C" {

// ---- Map pointers ----

void zend_map_ptr_reset(void) {
  if (CG(map_ptr_last) != 0) {
    std::memset(MapPtrSlots(), 0, CG(map_ptr_last) * sizeof(void*));
  }
}

void* zend_map_ptr_new(void) {
  MapPtrGrow(CG(map_ptr_last) + 1);
  void** slot = MapPtrSlots() + CG(map_ptr_last)++;
  *slot = nullptr;
  return ZEND_MAP_PTR_PTR2OFFSET(slot);
}

void zend_map_ptr_extend(size_t last) {
  if (last <= CG(map_ptr_last)) return;
  MapPtrGrow(last);
  CG(map_ptr_last) = last;
}

// ---- AST ----

zend_ast_ref* ZEND_FASTCALL zend_ast_copy(zend_ast* ast) {
  if (ast == nullptr) return nullptr;
  size_t size = 0;
  if (!TreeSize(ast, &size)) {
    mock_zend::internal::Unsupported(
        "zend_ast_copy",
        "a declaration or compiler node exists only while "
        "PHP compiles, and it compiles no PHP code");
    return nullptr;
  }
  auto* ref = static_cast<zend_ast_ref*>(emalloc(sizeof(zend_ast_ref) + size));
  GC_SET_REFCOUNT(ref, 1);
  GC_TYPE_INFO(ref) = GC_CONSTANT_AST;
  char* cursor = reinterpret_cast<char*>(GC_AST(ref));
  CopyTree(ast, &cursor);
  return ref;
}

void ZEND_FASTCALL zend_ast_destroy(zend_ast* ast) {
  if (ast == nullptr) return;
  if (ast->kind == ZEND_AST_ZVAL || ast->kind == ZEND_AST_CONSTANT) {
    zval_ptr_dtor(zend_ast_get_zval(ast));
    return;
  }
  if (ast->kind == ZEND_AST_OP_ARRAY || CompileTimeOnly(ast)) return;
  if (ast->kind == ZEND_AST_CALLABLE_CONVERT) {
    zend_ast_destroy(reinterpret_cast<zend_ast_fcc*>(ast)->args);
    return;
  }
  if (zend_ast_is_list(ast)) {
    zend_ast_list* list = zend_ast_get_list(ast);
    for (uint32_t i = 0; i < list->children; i++) {
      zend_ast_destroy(list->child[i]);
    }
    return;
  }
  uint32_t children = zend_ast_get_num_children(ast);
  for (uint32_t i = 0; i < children; i++) zend_ast_destroy(ast->child[i]);
}

void ZEND_FASTCALL zend_ast_ref_destroy(zend_ast_ref* ast) {
  zend_ast_destroy(GC_AST(ast));
  efree(ast);
}

// ---- Op arrays ----

zend_op_array* compile_string(zend_string* source_string, const char* filename,
                              zend_compile_position position) {
  (void)source_string;
  (void)filename;
  (void)position;
  mock_zend::internal::Unsupported("compile_string", kNoCompiler);
  return nullptr;
}

zend_op_array* (*zend_compile_string)(zend_string*, const char*,
                                      zend_compile_position) = compile_string;

void destroy_op_array(zend_op_array* op_array) {
  (void)op_array;
  mock_zend::internal::Unsupported("destroy_op_array", kNoCompiler);
}

void zend_destroy_static_vars(zend_op_array* op_array) {
  if (ZEND_MAP_PTR(op_array->static_variables_ptr) == nullptr) return;
  auto* vars =
      static_cast<HashTable*>(ZEND_MAP_PTR_GET(op_array->static_variables_ptr));
  if (vars == nullptr || vars == op_array->static_variables) return;
  zend_array_destroy(vars);
  ZEND_MAP_PTR_SET(op_array->static_variables_ptr, nullptr);
}

void function_add_ref(zend_function* function) {
  if (function->type == ZEND_USER_FUNCTION &&
      function->op_array.refcount != nullptr) {
    (*function->op_array.refcount)++;
  }
}

// ---- The VM ----

void ZEND_FASTCALL zend_vm_set_opcode_handler(zend_op* opcode) {
  (void)opcode;
  mock_zend::internal::Unsupported("zend_vm_set_opcode_handler", kNoOpcodes);
}

void ZEND_FASTCALL zend_vm_set_opcode_handler_ex(zend_op* opcode,
                                                 uint32_t op1_info,
                                                 uint32_t op2_info,
                                                 uint32_t res_info) {
  (void)opcode;
  (void)op1_info;
  (void)op2_info;
  (void)res_info;
  mock_zend::internal::Unsupported("zend_vm_set_opcode_handler_ex", kNoOpcodes);
}

void execute_ex(zend_execute_data* execute_data) {
  (void)execute_data;
  mock_zend::internal::Unsupported("execute_ex", kNoOpcodes);
}

void (*zend_execute_ex)(zend_execute_data*) = execute_ex;

zend_execute_data* zend_vm_stack_push_call_frame(uint32_t call_info,
                                                 zend_function* func,
                                                 uint32_t num_args,
                                                 void* object_or_called_scope) {
  (void)call_info;
  (void)func;
  (void)num_args;
  (void)object_or_called_scope;
  mock_zend::internal::Unsupported("zend_vm_stack_push_call_frame", kNoOpcodes);
  return nullptr;
}

void zend_init_func_execute_data(zend_execute_data* execute_data,
                                 zend_op_array* op_array, zval* return_value) {
  (void)execute_data;
  (void)op_array;
  (void)return_value;
  mock_zend::internal::Unsupported("zend_init_func_execute_data", kNoOpcodes);
}

HashTable* zend_unfinished_execution_gc_ex(zend_execute_data* execute_data,
                                           zend_execute_data* call,
                                           zend_get_gc_buffer* gc_buffer,
                                           bool suspended_by_yield) {
  (void)call;
  (void)suspended_by_yield;
  if (execute_data->func == nullptr) return nullptr;
  if (ZEND_USER_CODE(execute_data->func->type)) {
    mock_zend::internal::Unsupported("zend_unfinished_execution_gc_ex",
                                     kNoOpcodes);
    return nullptr;
  }
  if ((ZEND_CALL_INFO(execute_data) & ZEND_CALL_RELEASE_THIS) &&
      Z_TYPE(execute_data->This) == IS_OBJECT) {
    zend_get_gc_buffer_add_obj(gc_buffer, Z_OBJ(execute_data->This));
  }
  return nullptr;
}

HashTable* zend_unfinished_execution_gc(zend_execute_data* execute_data,
                                        zend_execute_data* call,
                                        zend_get_gc_buffer* gc_buffer) {
  return zend_unfinished_execution_gc_ex(execute_data, call, gc_buffer, false);
}

}  // extern "C"

namespace mock_zend::internal {

void MapPtrShutdown() {
  if (CG(map_ptr_real_base) != nullptr) pefree(CG(map_ptr_real_base), 1);
  CG(map_ptr_real_base) = nullptr;
  CG(map_ptr_base) = nullptr;
  CG(map_ptr_size) = 0;
  CG(map_ptr_last) = 0;
}

}  // namespace mock_zend::internal
