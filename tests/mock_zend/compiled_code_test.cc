// Tests of the compiled-code surface (Zend/zend_compile.h, zend_ast.h,
// zend_map_ptr.h, zend_vm.h, zend_vm_opcodes.h and the user-code parts of
// zend_execute.h and zend_closures.h): PHP 8.6's layouts and values, the
// real map-pointer table and AST copies, and the calls the mock cannot run,
// which fail with an E_CORE_ERROR naming themselves.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <string>

#include "tests/mock_zend/compiled_code_c.h"
#include "tests/mock_zend/support/engine_test.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "zend_ast.h"
#include "zend_closures.h"
#include "zend_compile.h"
#include "zend_execute.h"
#include "zend_map_ptr.h"
#include "zend_vm.h"
}

namespace {

using zar::mock_zend_testing::ExpectFieldsInOrder;
using zar::mock_zend_testing::ExpectOnlyError;
using zar::mock_zend_testing::UnsupportedMessage;

class MockZendCompiledCodeTest : public zar::testing::RequestFixture {};

std::string NoOpcodes(const std::string& function) {
  return UnsupportedMessage(function, "it runs no opcodes");
}

TEST_F(MockZendCompiledCodeTest, OpArrayFieldsAreInPhpsOrder) {
  ExpectFieldsInOrder({
      offsetof(zend_op_array, type),
      offsetof(zend_op_array, arg_flags),
      offsetof(zend_op_array, fn_flags),
      offsetof(zend_op_array, function_name),
      offsetof(zend_op_array, scope),
      offsetof(zend_op_array, prototype),
      offsetof(zend_op_array, num_args),
      offsetof(zend_op_array, required_num_args),
      offsetof(zend_op_array, arg_info),
      offsetof(zend_op_array, attributes),
      offsetof(zend_op_array, ZEND_MAP_PTR(run_time_cache)),
      offsetof(zend_op_array, doc_comment),
      offsetof(zend_op_array, T),
      offsetof(zend_op_array, fn_flags2),
      offsetof(zend_op_array, prop_info),
      offsetof(zend_op_array, cache_size),
      offsetof(zend_op_array, last_var),
      offsetof(zend_op_array, last),
      offsetof(zend_op_array, opcodes),
      offsetof(zend_op_array, ZEND_MAP_PTR(static_variables_ptr)),
      offsetof(zend_op_array, static_variables),
      offsetof(zend_op_array, vars),
      offsetof(zend_op_array, refcount),
      offsetof(zend_op_array, last_live_range),
      offsetof(zend_op_array, last_try_catch),
      offsetof(zend_op_array, live_range),
      offsetof(zend_op_array, try_catch_array),
      offsetof(zend_op_array, filename),
      offsetof(zend_op_array, line_start),
      offsetof(zend_op_array, line_end),
      offsetof(zend_op_array, last_literal),
      offsetof(zend_op_array, num_dynamic_func_defs),
      offsetof(zend_op_array, literals),
      offsetof(zend_op_array, dynamic_func_defs),
      offsetof(zend_op_array, reserved),
  });
  EXPECT_EQ(sizeof(zend_op_array::reserved), 6 * sizeof(void*));
}

// The common elements lie at the same offsets in every member of the
// zend_function union, as PHP relies on (func->common.x for any function).
TEST_F(MockZendCompiledCodeTest, CommonElementsAreSharedByUserAndInternal) {
#define EXPECT_COMMON(field)                          \
  EXPECT_EQ(offsetof(zend_function, common.field),    \
            offsetof(zend_function, op_array.field)); \
  EXPECT_EQ(offsetof(zend_function, common.field),    \
            offsetof(zend_function, internal_function.field))
  EXPECT_COMMON(type);
  EXPECT_COMMON(fn_flags);
  EXPECT_COMMON(function_name);
  EXPECT_COMMON(scope);
  EXPECT_COMMON(prototype);
  EXPECT_COMMON(num_args);
  EXPECT_COMMON(required_num_args);
  EXPECT_COMMON(arg_info);
  EXPECT_COMMON(attributes);
  EXPECT_COMMON(ZEND_MAP_PTR(run_time_cache));
  EXPECT_COMMON(doc_comment);
  EXPECT_COMMON(T);
  EXPECT_COMMON(fn_flags2);
  EXPECT_COMMON(prop_info);
#undef EXPECT_COMMON
  ExpectFieldsInOrder({
      offsetof(zend_internal_function, type),
      offsetof(zend_internal_function, prop_info),
      offsetof(zend_internal_function, handler),
      offsetof(zend_internal_function, module),
      offsetof(zend_internal_function, frameless_function_infos),
      offsetof(zend_internal_function, reserved),
  });
}

TEST_F(MockZendCompiledCodeTest, OplineAndItsTablesHavePhpsLayout) {
  ExpectFieldsInOrder({
      offsetof(zend_op, handler),
      offsetof(zend_op, op1),
      offsetof(zend_op, op2),
      offsetof(zend_op, result),
      offsetof(zend_op, extended_value),
      offsetof(zend_op, lineno),
      offsetof(zend_op, opcode),
      offsetof(zend_op, op1_type),
      offsetof(zend_op, op2_type),
      offsetof(zend_op, result_type),
  });
  // 64-bit PHP: relative 32-bit jump and constant offsets.
  EXPECT_EQ(ZEND_USE_ABS_JMP_ADDR, 0);
  EXPECT_EQ(ZEND_USE_ABS_CONST_ADDR, 0);
  EXPECT_EQ(sizeof(znode_op), 4u);
  EXPECT_EQ(sizeof(zend_op), 32u);
  EXPECT_EQ(sizeof(zend_live_range), 12u);
  EXPECT_EQ(sizeof(zend_try_catch_element), 16u);
  ExpectFieldsInOrder({
      offsetof(zend_arg_info, name),
      offsetof(zend_arg_info, type),
      offsetof(zend_arg_info, default_value),
      offsetof(zend_arg_info, doc_comment),
  });
}

TEST_F(MockZendCompiledCodeTest, LayoutIsTheSameInCAndCxx) {
  EXPECT_EQ(compiled_c_sizeof_op_array(), sizeof(zend_op_array));
  EXPECT_EQ(compiled_c_offsetof_op_array_reserved(),
            offsetof(zend_op_array, reserved));
  EXPECT_EQ(compiled_c_sizeof_function(), sizeof(zend_function));
}

TEST_F(MockZendCompiledCodeTest, FlagsHavePhpsValues) {
  EXPECT_EQ(ZEND_USER_FUNCTION, 2);
  EXPECT_EQ(ZEND_EVAL_CODE, 4);
  EXPECT_TRUE(ZEND_USER_CODE(ZEND_USER_FUNCTION));
  EXPECT_TRUE(ZEND_USER_CODE(ZEND_EVAL_CODE));
  EXPECT_FALSE(ZEND_USER_CODE(ZEND_INTERNAL_FUNCTION));
  EXPECT_EQ(ZEND_ACC_IMMUTABLE, 1 << 7);
  EXPECT_EQ(ZEND_ACC_HAS_RETURN_TYPE, 1 << 13);
  EXPECT_EQ(ZEND_ACC_VARIADIC, 1 << 14);
  EXPECT_EQ(ZEND_ACC_CTOR, 1 << 21);
  EXPECT_EQ(ZEND_ACC_CLOSURE, 1 << 22);
  EXPECT_EQ(ZEND_ACC_GENERATOR, 1 << 24);
  EXPECT_EQ(ZEND_ACC_DONE_PASS_TWO, 1 << 25);
  EXPECT_EQ(ZEND_ACC_HEAP_RT_CACHE, 1 << 26);
  EXPECT_EQ(ZEND_ACC_STRICT_TYPES, 1u << 31);
  EXPECT_EQ(ZEND_CALL_HAS_THIS, static_cast<uint32_t>(IS_OBJECT_EX));
  EXPECT_EQ(ZEND_CALL_TOP_FUNCTION, 1u << 17);
  EXPECT_EQ(ZEND_CALL_TOP_CODE, (1u << 16) | (1u << 17));
  EXPECT_EQ(ZEND_CALL_RELEASE_THIS, 1u << 21);
  EXPECT_EQ(ZEND_CALL_CLOSURE, 1u << 22);
  EXPECT_EQ(ZEND_CALL_GENERATOR, 1u << 24);
  EXPECT_EQ(ZEND_FETCH_CLASS_NO_AUTOLOAD, 0x80);
  EXPECT_EQ(ZEND_LAST_CATCH, 1);
}

TEST_F(MockZendCompiledCodeTest, OpcodesHavePhpsNumbers) {
  EXPECT_EQ(ZEND_NOP, 0);
  EXPECT_EQ(ZEND_QM_ASSIGN, 31);
  EXPECT_EQ(ZEND_JMP, 42);
  EXPECT_EQ(ZEND_JMPZ_EX, 46);
  EXPECT_EQ(ZEND_RETURN, 62);
  EXPECT_EQ(ZEND_SEND_VAL, 65);
  EXPECT_EQ(ZEND_FE_RESET_R, 77);
  EXPECT_EQ(ZEND_FE_FETCH_R, 78);
  EXPECT_EQ(ZEND_CATCH, 107);
  EXPECT_EQ(ZEND_OP_DATA, 137);
  EXPECT_EQ(ZEND_DECLARE_LAMBDA_FUNCTION, 142);
  EXPECT_EQ(ZEND_FAST_CALL, 162);
  EXPECT_EQ(ZEND_COALESCE, 169);
  EXPECT_EQ(ZEND_MATCH, 195);
  EXPECT_EQ(ZEND_JMP_NULL, 198);
  EXPECT_EQ(ZEND_BIND_INIT_STATIC_OR_JMP, 203);
  EXPECT_EQ(ZEND_JMP_FRAMELESS, 208);
  EXPECT_EQ(ZEND_DECLARE_ATTRIBUTED_CONST, 210);
  EXPECT_EQ(ZEND_VM_LAST_OPCODE, 211);
}

TEST_F(MockZendCompiledCodeTest, OpArrayBuiltAndReadFromC) {
  EXPECT_EQ(compiled_c_op_array_check(), 0);
}

TEST_F(MockZendCompiledCodeTest, ConstantExpressionCopiedAndReleasedFromC) {
  EXPECT_EQ(compiled_c_ast_check(), 0);
}

// ---- Map pointers ----

TEST_F(MockZendCompiledCodeTest, MapPointersAreOfThePointerOrOffsetKind) {
  EXPECT_EQ(ZEND_MAP_PTR_KIND, ZEND_MAP_PTR_KIND_PTR_OR_OFFSET);
  zend_op_array op_array{};
  int value = 0;
  ZEND_MAP_PTR_INIT(op_array.run_time_cache, reinterpret_cast<void**>(&value));
  EXPECT_EQ(ZEND_MAP_PTR(op_array.run_time_cache),
            reinterpret_cast<void**>(&value));
  EXPECT_EQ(ZEND_MAP_PTR_GET(op_array.run_time_cache), &value);
  ZEND_MAP_PTR_SET(op_array.run_time_cache, nullptr);
  EXPECT_EQ(ZEND_MAP_PTR(op_array.run_time_cache), nullptr);
}

TEST_F(MockZendCompiledCodeTest, NewSlotIsAnOddOffsetHoldingNullUntilSet) {
  zend_op_array op_array{};
  // What ZEND_MAP_PTR_NEW does (its C form does not compile as C++, as in
  // PHP; compiled_code_c.c uses the macro).
  ZEND_MAP_PTR(op_array.static_variables_ptr) =
      static_cast<HashTable*>(zend_map_ptr_new());
  auto offset =
      reinterpret_cast<uintptr_t>(ZEND_MAP_PTR(op_array.static_variables_ptr));
  EXPECT_EQ(offset & 1u, 1u);
  EXPECT_TRUE(ZEND_MAP_PTR_IS_OFFSET(op_array.static_variables_ptr));
  EXPECT_EQ(ZEND_MAP_PTR_GET(op_array.static_variables_ptr), nullptr);
  HashTable marker{};
  ZEND_MAP_PTR_SET(op_array.static_variables_ptr, &marker);
  EXPECT_EQ(ZEND_MAP_PTR_GET(op_array.static_variables_ptr), &marker);
  // The field still holds the offset: the value lives in the table.
  EXPECT_EQ(
      reinterpret_cast<uintptr_t>(ZEND_MAP_PTR(op_array.static_variables_ptr)),
      offset);
  zend_map_ptr_reset();
  EXPECT_EQ(ZEND_MAP_PTR_GET(op_array.static_variables_ptr), nullptr);
}

TEST_F(MockZendCompiledCodeTest, SlotsKeepTheirValuesWhenTheTableGrows) {
  zend_op_array first{};
  ZEND_MAP_PTR(first.run_time_cache) = static_cast<void**>(zend_map_ptr_new());
  int value = 0;
  ZEND_MAP_PTR_SET(first.run_time_cache, reinterpret_cast<void**>(&value));
  const size_t before = CG(map_ptr_last);
  zend_map_ptr_extend(before + 1000);
  EXPECT_EQ(CG(map_ptr_last), before + 1000);
  EXPECT_GE(CG(map_ptr_size), before + 1000);
  EXPECT_EQ(ZEND_MAP_PTR_GET(first.run_time_cache), &value);
  EXPECT_EQ(ZEND_MAP_PTR_OFFSET2PTR(before * sizeof(void*) + 1)[0], nullptr);
  zend_op_array later{};
  ZEND_MAP_PTR(later.run_time_cache) = static_cast<void**>(zend_map_ptr_new());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(ZEND_MAP_PTR(later.run_time_cache)),
            (before + 1000) * sizeof(void*) + 1);
}

// ---- AST ----

TEST_F(MockZendCompiledCodeTest, AstKindsAndShapesArePhps) {
  EXPECT_EQ(ZEND_AST_ZVAL, 64);
  EXPECT_EQ(ZEND_AST_CONSTANT, 65);
  EXPECT_EQ(ZEND_AST_OP_ARRAY, 66);
  EXPECT_EQ(ZEND_AST_ARG_LIST, 128);
  EXPECT_EQ(ZEND_AST_VAR, 256);
  EXPECT_EQ(ZEND_AST_DIM, 512);
  zend_ast dim{};
  dim.kind = ZEND_AST_DIM;
  EXPECT_EQ(zend_ast_get_num_children(&dim), 2u);
  EXPECT_FALSE(zend_ast_is_list(&dim));
  EXPECT_EQ(zend_ast_size(2), offsetof(zend_ast, child) + 2 * sizeof(void*));
  EXPECT_EQ(sizeof(zend_ast_op_array), 16u);
  EXPECT_EQ(GC_AST(reinterpret_cast<zend_ast_ref*>(0x1000)),
            reinterpret_cast<zend_ast*>(0x1000 + sizeof(zend_ast_ref)));
}

// $a[FOO] as the compiler builds it: a DIM node over a value and a
// constant-name node; the copy shares the strings (a reference each).
TEST_F(MockZendCompiledCodeTest, CopyOfATreeHoldsItsOwnReferences) {
  zend_ast_zval base{};
  base.kind = ZEND_AST_ZVAL;
  ZVAL_STR(&base.val, zend_string_init("a", 1, 0));
  zend_ast_zval name{};
  name.kind = ZEND_AST_CONSTANT;
  ZVAL_STR(&name.val, zend_string_init("FOO", 3, 0));
  struct {
    zend_ast ast;
    zend_ast* second;
  } dim{};
  dim.ast.kind = ZEND_AST_DIM;
  dim.ast.lineno = 9;
  dim.ast.child[0] = reinterpret_cast<zend_ast*>(&base);
  dim.second = reinterpret_cast<zend_ast*>(&name);

  zend_ast_ref* ref = zend_ast_copy(&dim.ast);
  ASSERT_NE(ref, nullptr);
  EXPECT_EQ(GC_REFCOUNT(ref), 1u);
  EXPECT_EQ(GC_TYPE(ref), IS_CONSTANT_AST);
  zend_ast* copy = GC_AST(ref);
  EXPECT_EQ(copy->kind, ZEND_AST_DIM);
  EXPECT_EQ(copy->lineno, 9u);
  EXPECT_NE(copy->child[0], dim.ast.child[0]);
  EXPECT_EQ(copy->child[1]->kind, ZEND_AST_CONSTANT);
  EXPECT_EQ(zend_ast_get_str(copy->child[1]), Z_STR(name.val));
  EXPECT_EQ(GC_REFCOUNT(Z_STR(base.val)), 2u);
  EXPECT_EQ(GC_REFCOUNT(Z_STR(name.val)), 2u);

  zval constant;
  ZVAL_AST(&constant, ref);
  EXPECT_EQ(Z_ASTVAL(constant), copy);
  zval_ptr_dtor(&constant);
  EXPECT_EQ(GC_REFCOUNT(Z_STR(base.val)), 1u);
  zend_ast_destroy(&dim.ast);
}

TEST_F(MockZendCompiledCodeTest, CallableConversionIsCopiedWithItsArguments) {
  zend_ast_zval arg{};
  arg.kind = ZEND_AST_ZVAL;
  ZVAL_STR(&arg.val, zend_string_init("x", 1, 0));
  struct {
    zend_ast_list list;
    zend_ast* more[1];
  } args{};
  args.list.kind = ZEND_AST_ARG_LIST;
  args.list.children = 1;
  args.list.child[0] = reinterpret_cast<zend_ast*>(&arg);
  zend_ast_fcc fcc{};
  fcc.kind = ZEND_AST_CALLABLE_CONVERT;
  fcc.args = reinterpret_cast<zend_ast*>(&args);
  zend_ast_ref* ref = zend_ast_copy(reinterpret_cast<zend_ast*>(&fcc));
  ASSERT_NE(ref, nullptr);
  auto* copy = reinterpret_cast<zend_ast_fcc*>(GC_AST(ref));
  ASSERT_NE(copy->args, nullptr);
  EXPECT_NE(copy->args, fcc.args);
  EXPECT_EQ(zend_ast_get_list(copy->args)->children, 1u);
  EXPECT_EQ(GC_REFCOUNT(Z_STR(arg.val)), 2u);
  zend_ast_ref_destroy(ref);
  EXPECT_EQ(GC_REFCOUNT(Z_STR(arg.val)), 1u);
  zend_ast_destroy(reinterpret_cast<zend_ast*>(&fcc));
}

TEST_F(MockZendCompiledCodeTest, CopyOfADeclarationFailsWithACoreError) {
  const std::string message = UnsupportedMessage(
      "zend_ast_copy",
      "a declaration or compiler node exists only while PHP compiles, and it "
      "compiles no PHP code");
  ExpectFatalErrors({message});
  zend_ast_decl decl{};
  decl.kind = ZEND_AST_CLOSURE;
  EXPECT_EQ(zend_ast_copy(reinterpret_cast<zend_ast*>(&decl)), nullptr);
  ExpectOnlyError(E_CORE_ERROR, message);
}

// ---- Op arrays and the VM ----

TEST_F(MockZendCompiledCodeTest, StaticVariablesOfAnOpArrayAreDestroyed) {
  zend_op_array op_array{};
  HashTable* vars = zend_new_array(0);
  ZEND_MAP_PTR_INIT(op_array.static_variables_ptr, vars);
  zend_destroy_static_vars(&op_array);
  EXPECT_EQ(ZEND_MAP_PTR_GET(op_array.static_variables_ptr), nullptr);
  // The compiled defaults (static_variables itself) are not the copy.
  op_array.static_variables = zend_new_array(0);
  ZEND_MAP_PTR_INIT(op_array.static_variables_ptr, op_array.static_variables);
  zend_destroy_static_vars(&op_array);
  EXPECT_EQ(ZEND_MAP_PTR_GET(op_array.static_variables_ptr),
            op_array.static_variables);
  zend_array_destroy(op_array.static_variables);
}

TEST_F(MockZendCompiledCodeTest, FunctionAddRefCountsAUserFunction) {
  uint32_t refcount = 1;
  zend_function func{};
  func.op_array.type = ZEND_USER_FUNCTION;
  func.op_array.refcount = &refcount;
  function_add_ref(&func);
  EXPECT_EQ(refcount, 2u);
}

TEST_F(MockZendCompiledCodeTest, CompilingAStringFailsWithACoreError) {
  const std::string message =
      UnsupportedMessage("compile_string", "it compiles no PHP code");
  ExpectFatalErrors({message});
  zend_string* code = zend_string_init("return 1;", 9, 0);
  EXPECT_EQ(
      zend_compile_string(code, "eval", ZEND_COMPILE_POSITION_AFTER_OPEN_TAG),
      nullptr);
  zend_string_release(code);
  ExpectOnlyError(E_CORE_ERROR, message);
}

TEST_F(MockZendCompiledCodeTest, DestroyingAnOpArrayFailsWithACoreError) {
  const std::string message =
      UnsupportedMessage("destroy_op_array", "it compiles no PHP code");
  ExpectFatalErrors({message});
  zend_op_array op_array{};
  op_array.type = ZEND_USER_FUNCTION;
  destroy_op_array(&op_array);
  EXPECT_EQ(op_array.type, ZEND_USER_FUNCTION);
  ExpectOnlyError(E_CORE_ERROR, message);
}

TEST_F(MockZendCompiledCodeTest, SettingAnOpcodeHandlerFailsWithACoreError) {
  ExpectFatalErrors({NoOpcodes("zend_vm_set_opcode_handler"),
                     NoOpcodes("zend_vm_set_opcode_handler_ex")});
  zend_op opline{};
  opline.opcode = ZEND_JMP;
  zend_vm_set_opcode_handler(&opline);
  zend_vm_set_opcode_handler_ex(&opline, 0, 0, 0);
  EXPECT_EQ(opline.handler, nullptr);
  ASSERT_EQ(zend_mock_error_count(), 2u);
  EXPECT_EQ(std::string(zend_mock_error_message(0)),
            NoOpcodes("zend_vm_set_opcode_handler"));
  EXPECT_EQ(std::string(zend_mock_error_message(1)),
            NoOpcodes("zend_vm_set_opcode_handler_ex"));
}

TEST_F(MockZendCompiledCodeTest, RunningAUserFunctionFailsWithCoreErrors) {
  ExpectFatalErrors({NoOpcodes("zend_vm_stack_push_call_frame"),
                     NoOpcodes("zend_init_func_execute_data"),
                     NoOpcodes("execute_ex")});
  zend_function func{};
  func.op_array.type = ZEND_USER_FUNCTION;
  zend_execute_data* frame =
      zend_vm_stack_push_call_frame(ZEND_CALL_TOP_FUNCTION, &func, 0, nullptr);
  EXPECT_EQ(frame, nullptr);
  zval retval;
  ZVAL_UNDEF(&retval);
  zend_init_func_execute_data(frame, &func.op_array, &retval);
  zend_execute_ex(frame);
  EXPECT_EQ(Z_TYPE(retval), IS_UNDEF);
  EXPECT_EQ(zend_mock_error_count(), 3u);
}

TEST_F(MockZendCompiledCodeTest, RunningAUserFunctionInsideZendTryBailsOut) {
  ExpectFatalErrors({NoOpcodes("zend_vm_stack_push_call_frame")});
  zend_function func{};
  func.op_array.type = ZEND_USER_FUNCTION;
  volatile bool reached_after = false;
  volatile bool caught = false;
  zend_try {
    zend_vm_stack_push_call_frame(ZEND_CALL_TOP_FUNCTION, &func, 0, nullptr);
    reached_after = true;
  }
  zend_catch { caught = true; }
  zend_end_try();
  EXPECT_TRUE(caught);
  EXPECT_FALSE(reached_after);
}

// ---- Unfinished frames ----

TEST_F(MockZendCompiledCodeTest, FrameWithoutAFunctionHasNoRoots) {
  zend_execute_data frame{};
  zend_get_gc_buffer* buffer = zend_get_gc_buffer_create();
  EXPECT_EQ(zend_unfinished_execution_gc_ex(&frame, nullptr, buffer, false),
            nullptr);
  EXPECT_EQ(buffer->cur, buffer->start);
}

TEST_F(MockZendCompiledCodeTest, InternalFrameReportsTheThisItReleases) {
  zend_object* object = zend_objects_new(zend_standard_class_def);
  zend_function func{};
  func.type = ZEND_INTERNAL_FUNCTION;
  zend_execute_data frame{};
  frame.func = &func;
  ZVAL_OBJ(&frame.This, object);
  zend_get_gc_buffer* buffer = zend_get_gc_buffer_create();
  // A frame that does not own its $this reports nothing.
  EXPECT_EQ(zend_unfinished_execution_gc(&frame, nullptr, buffer), nullptr);
  EXPECT_EQ(buffer->cur, buffer->start);
  ZEND_ADD_CALL_FLAG(&frame, ZEND_CALL_RELEASE_THIS);
  EXPECT_EQ(zend_unfinished_execution_gc(&frame, nullptr, buffer), nullptr);
  ASSERT_EQ(buffer->cur - buffer->start, 1);
  EXPECT_EQ(Z_OBJ_P(buffer->start), object);
  OBJ_RELEASE(object);
}

TEST_F(MockZendCompiledCodeTest, UserFrameFailsWithACoreError) {
  ExpectFatalErrors({NoOpcodes("zend_unfinished_execution_gc_ex")});
  zend_function func{};
  func.type = ZEND_USER_FUNCTION;
  zend_execute_data frame{};
  frame.func = &func;
  zend_get_gc_buffer* buffer = zend_get_gc_buffer_create();
  EXPECT_EQ(zend_unfinished_execution_gc_ex(&frame, nullptr, buffer, true),
            nullptr);
  EXPECT_EQ(buffer->cur, buffer->start);
  ExpectOnlyError(E_CORE_ERROR, NoOpcodes("zend_unfinished_execution_gc_ex"));
}

// ---- Closures and classes ----

void ReturnSum(INTERNAL_FUNCTION_PARAMETERS) {
  zend_long sum = 0;
  for (uint32_t i = 1; i <= ZEND_NUM_ARGS(); i++) {
    sum += Z_LVAL_P(ZEND_CALL_ARG(execute_data, i));
  }
  RETURN_LONG(sum);
}

TEST_F(MockZendCompiledCodeTest, ClosureOfAnInternalFunctionCallsIt) {
  zend_function func{};
  func.internal_function.type = ZEND_INTERNAL_FUNCTION;
  func.internal_function.function_name = ZSTR_KNOWN(ZEND_STR_CLOSURE);
  func.internal_function.handler = ReturnSum;
  func.internal_function.fn_flags = ZEND_ACC_VARIADIC;
  zval closure;
  zend_create_closure(&closure, &func, nullptr, nullptr, nullptr);
  ASSERT_EQ(Z_TYPE(closure), IS_OBJECT);
  EXPECT_EQ(Z_OBJCE(closure), zend_ce_closure);
  const zend_function* def = zend_get_closure_method_def(Z_OBJ(closure));
  ASSERT_NE(def, nullptr);
  EXPECT_TRUE(def->common.fn_flags & ZEND_ACC_CLOSURE);
  EXPECT_TRUE(def->common.fn_flags & ZEND_ACC_VARIADIC);
  EXPECT_EQ(Z_TYPE_P(zend_get_closure_this_ptr(&closure)), IS_UNDEF);
  zval args[2];
  ZVAL_LONG(&args[0], 2);
  ZVAL_LONG(&args[1], 40);
  zval result;
  ASSERT_EQ(call_user_function(nullptr, nullptr, &closure, &result, 2, args),
            SUCCESS);
  EXPECT_EQ(Z_LVAL(result), 42);
  zval_ptr_dtor(&closure);
}

TEST_F(MockZendCompiledCodeTest, ClosureOfAUserFunctionFailsWithACoreError) {
  const std::string message = UnsupportedMessage(
      "zend_create_closure",
      "a closure of a user function needs its compiled code run, and it "
      "runs no PHP code");
  ExpectFatalErrors({message});
  zend_function func{};
  func.op_array.type = ZEND_USER_FUNCTION;
  zval closure;
  ZVAL_UNDEF(&closure);
  zend_create_closure(&closure, &func, nullptr, nullptr, nullptr);
  EXPECT_EQ(Z_TYPE(closure), IS_NULL);
  ExpectOnlyError(E_CORE_ERROR, message);
}

TEST_F(MockZendCompiledCodeTest, MethodDefOfANonClosureIsNull) {
  zend_object* object = zend_objects_new(zend_standard_class_def);
  EXPECT_EQ(zend_get_closure_method_def(object), nullptr);
  OBJ_RELEASE(object);
}

TEST_F(MockZendCompiledCodeTest, LookupClassExFindsARegisteredClass) {
  zend_string* name = zend_string_init("CLOSURE", 7, 0);
  EXPECT_EQ(zend_lookup_class_ex(name, nullptr, ZEND_FETCH_CLASS_NO_AUTOLOAD),
            zend_ce_closure);
  zend_string_release(name);
  zend_string* missing = zend_string_init("NoSuchClass", 11, 0);
  EXPECT_EQ(zend_lookup_class_ex(missing, nullptr, 0), nullptr);
  zend_string_release(missing);
}

// On 64-bit systems an operand names its literal by a byte offset from the
// opline, so opcodes and literals copied together keep their constants.
TEST_F(MockZendCompiledCodeTest, RuntimeConstantIsAnOffsetFromTheOpline) {
  struct {
    zend_op opline;
    zval literal;
  } block{};
  ZVAL_LONG(&block.literal, 42);
  block.opline.op1.constant =
      static_cast<uint32_t>(reinterpret_cast<char*>(&block.literal) -
                            reinterpret_cast<char*>(&block.opline));
  EXPECT_EQ(ZEND_USE_ABS_CONST_ADDR, 0);
  EXPECT_EQ(RT_CONSTANT(&block.opline, block.opline.op1), &block.literal);
  auto copy = block;
  EXPECT_EQ(Z_LVAL_P(RT_CONSTANT(&copy.opline, copy.opline.op1)), 42);
}

}  // namespace
