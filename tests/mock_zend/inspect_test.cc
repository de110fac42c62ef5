// Tests of the C++ inspection helpers over the mock engine.

#include "mock_zend/inspect.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "zend_async_ref/testing/request_fixture.h"

namespace {

using mock_zend::Describe;

class MockZendInspectTest : public zar::testing::RequestFixture {};

TEST_F(MockZendInspectTest, DescribeRendersEachKindOfValue) {
  zval z;
  ZVAL_LONG(&z, 42);
  EXPECT_EQ(Describe(&z), "int(42)");
  ZVAL_DOUBLE(&z, 3.14);
  EXPECT_EQ(Describe(&z), "float(3.14)");
  ZVAL_TRUE(&z);
  EXPECT_EQ(Describe(&z), "bool(true)");
  ZVAL_NULL(&z);
  EXPECT_EQ(Describe(&z), "null");
  ZVAL_UNDEF(&z);
  EXPECT_EQ(Describe(&z), "undef");
  ZVAL_STRING(&z, "x");
  EXPECT_EQ(Describe(&z), "string(\"x\")");
  zval_ptr_dtor(&z);
  array_init(&z);
  add_next_index_long(&z, 1);
  add_next_index_long(&z, 2);
  EXPECT_EQ(Describe(&z), "array(2)");
  zval_ptr_dtor(&z);
  object_init(&z);
  EXPECT_EQ(Describe(&z), "object(stdClass)#1");
  zval_ptr_dtor(&z);
  ZVAL_PTR(&z, nullptr);
  EXPECT_EQ(Describe(&z).rfind("ptr(", 0), 0u);
}

TEST_F(MockZendInspectTest, ExceptionChainListsOutermostFirst) {
  zend_throw_exception(zend_ce_exception, "inner", 0);
  zend_throw_error(zend_ce_value_error, "outer");
  zend_object* taken = mock_zend::TakeException();
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(
      mock_zend::ExceptionChain(taken),
      (std::vector<std::string>{"ValueError: outer", "Exception: inner"}));
  EXPECT_EQ(mock_zend::ExceptionMessage(taken), "outer");
  EXPECT_EQ(mock_zend::ClassName(taken), "ValueError");
  OBJ_RELEASE(taken);
  EXPECT_EQ(mock_zend::TakeException(), nullptr);
}

TEST_F(MockZendInspectTest, ReportedErrorsMirrorTheLogUntilCleared) {
  zend_error(E_NOTICE, "one");
  zend_error(E_WARNING, "two");
  const std::vector<mock_zend::ReportedError> errors =
      mock_zend::ReportedErrors();
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[1].type, E_WARNING);
  EXPECT_EQ(errors[1].message, "two");
  mock_zend::ClearReportedErrors();
  EXPECT_TRUE(mock_zend::ReportedErrors().empty());
}

}  // namespace
