// Tests of the mock engine's closures: creation, captured values, data
// ownership and the Closure class.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "mock_zend/callable.h"
#include "mock_zend/inspect.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace {

class MockZendClosuresTest : public zar::testing::RequestFixture {};

int data_dtor_calls = 0;

void CountingDtor(void* data) {
  data_dtor_calls++;
  delete static_cast<int*>(data);
}

void ReturnData(zend_object* closure, zend_execute_data* execute_data,
                zval* return_value, void* data) {
  (void)execute_data;
  EXPECT_EQ(closure->ce, zend_ce_closure);
  ZVAL_LONG(return_value, *static_cast<int*>(data));
}

TEST_F(MockZendClosuresTest, NewClosureIsAClosureObjectWithRefcountOne) {
  zend_object* closure =
      zend_mock_closure_new(ReturnData, new int(5), CountingDtor);
  EXPECT_EQ(closure->ce, zend_ce_closure);
  EXPECT_EQ(GC_REFCOUNT(closure), 1u);
  EXPECT_EQ(mock_zend::ClassName(closure), "Closure");
  EXPECT_EQ(closure->handlers->clone_obj, nullptr);
  zval callable;
  ZVAL_OBJ(&callable, closure);
  zval result;
  EXPECT_EQ(
      call_user_function(nullptr, nullptr, &callable, &result, 0, nullptr),
      SUCCESS);
  EXPECT_EQ(Z_LVAL(result), 5);
  OBJ_RELEASE(closure);
}

TEST_F(MockZendClosuresTest, DataDestructorRunsOnceWhenTheClosureIsFreed) {
  data_dtor_calls = 0;
  zend_object* closure =
      zend_mock_closure_new(ReturnData, new int(1), CountingDtor);
  GC_ADDREF(closure);
  OBJ_RELEASE(closure);
  EXPECT_EQ(data_dtor_calls, 0);
  OBJ_RELEASE(closure);
  EXPECT_EQ(data_dtor_calls, 1);
}

TEST_F(MockZendClosuresTest, UsesAreCopiedAndReleasedWithTheClosure) {
  zval str;
  ZVAL_STRING(&str, "used");
  zval number;
  ZVAL_LONG(&number, 3);
  zend_object* closure =
      mock_zend::NewClosure([](mock_zend::Call&) {}, {&str, &number});
  EXPECT_EQ(zend_mock_closure_num_uses(closure), 2u);
  EXPECT_EQ(Z_STR_P(zend_mock_closure_use(closure, 0)), Z_STR(str));
  EXPECT_EQ(Z_LVAL_P(zend_mock_closure_use(closure, 1)), 3);
  EXPECT_EQ(zend_mock_closure_use(closure, 2), nullptr);
  EXPECT_EQ(Z_REFCOUNT(str), 2u);
  OBJ_RELEASE(closure);
  EXPECT_EQ(Z_REFCOUNT(str), 1u);
  zval_ptr_dtor(&str);
}

TEST_F(MockZendClosuresTest, ManyUsesGrowTheCaptureArray) {
  zend_object* closure = mock_zend::NewClosure([](mock_zend::Call&) {});
  for (zend_long i = 0; i < 20; i++) {
    zval value;
    ZVAL_LONG(&value, i);
    zend_mock_closure_add_use(closure, &value);
  }
  ASSERT_EQ(zend_mock_closure_num_uses(closure), 20u);
  for (uint32_t i = 0; i < 20; i++) {
    EXPECT_EQ(Z_LVAL_P(zend_mock_closure_use(closure, i)), i);
  }
  OBJ_RELEASE(closure);
}

TEST_F(MockZendClosuresTest, ClearUsesDropsTheCapturedValuesNow) {
  zval str;
  ZVAL_STRING(&str, "cleared");
  zend_object* closure = mock_zend::NewClosure([](mock_zend::Call&) {}, {&str});
  zend_mock_closure_clear_uses(closure);
  EXPECT_EQ(zend_mock_closure_num_uses(closure), 0u);
  EXPECT_EQ(Z_REFCOUNT(str), 1u);
  OBJ_RELEASE(closure);
  zval_ptr_dtor(&str);
}

TEST_F(MockZendClosuresTest, GetGcReportsTheUses) {
  zval object;
  object_init(&object);
  zend_object* closure =
      mock_zend::NewClosure([](mock_zend::Call&) {}, {&object});
  zval* table = nullptr;
  int n = 0;
  EXPECT_EQ(closure->handlers->get_gc(closure, &table, &n), nullptr);
  ASSERT_EQ(n, 1);
  EXPECT_EQ(Z_OBJ(table[0]), Z_OBJ(object));
  OBJ_RELEASE(closure);
  zval_ptr_dtor(&object);
}

TEST_F(MockZendClosuresTest, TheNativeBodyIsDestroyedWithTheClosure) {
  auto marker = std::make_shared<int>(0);
  zend_object* closure =
      mock_zend::NewClosure([marker](mock_zend::Call&) { (*marker)++; });
  EXPECT_EQ(marker.use_count(), 2);
  OBJ_RELEASE(closure);
  EXPECT_EQ(marker.use_count(), 1);
}

TEST_F(MockZendClosuresTest, ClosureCannotBeInstantiatedDirectly) {
  zval z;
  EXPECT_EQ(object_init_ex(&z, zend_ce_closure), FAILURE);
  EXPECT_EQ(mock_zend::ExceptionChain(EG(exception)),
            (std::vector<std::string>{
                "Error: Instantiation of class Closure is not allowed"}));
  zend_clear_exception();
}

TEST_F(MockZendClosuresTest, ClosureIsCallableThroughInvoke) {
  zend_object* closure = mock_zend::NewClosure(
      [](mock_zend::Call& call) { ZVAL_LONG(call.result(), 11); });
  zend_string* invoke = zend_string_init(ZEND_STRL("__invoke"), false);
  zval result;
  EXPECT_EQ(zend_call_method_if_exists(closure, invoke, &result, 0, nullptr),
            SUCCESS);
  EXPECT_EQ(Z_LVAL(result), 11);
  zend_string_release(invoke);
  OBJ_RELEASE(closure);
}

TEST_F(MockZendClosuresTest, CppExceptionsBecomeEngineErrors) {
  zval closure;
  mock_zend::MakeCallable(
      &closure, [](mock_zend::Call&) { throw std::runtime_error("from C++"); });
  zval result;
  EXPECT_EQ(call_user_function(nullptr, nullptr, &closure, &result, 0, nullptr),
            SUCCESS);
  EXPECT_EQ(
      mock_zend::ExceptionChain(EG(exception)),
      (std::vector<std::string>{"Error: C++ exception in closure: from C++"}));
  zend_clear_exception();
  zval_ptr_dtor(&closure);
}

}  // namespace
