// Tests of the mock engine's internal enums and their per-request case
// objects.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mock_zend/inspect.h"
#include "tests/mock_zend/support/engine_test.h"
#include "tests/mock_zend/typed_properties_c.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace {

using mock_zend::ExceptionChain;
using zar::mock_zend_testing::ExpectOnlyError;

class MockZendEnumTest : public zar::testing::RequestFixture {
 protected:
  void SetUp() override {
    RequestFixture::SetUp();
    pure_ = zend_register_internal_enum("Async\\CircuitBreakerState", IS_UNDEF,
                                        nullptr);
    zend_enum_add_case_cstr(pure_, "ACTIVE", nullptr);
    zend_enum_add_case_cstr(pure_, "INACTIVE", nullptr);
    backed_ = zend_register_internal_enum("Priority", IS_LONG, nullptr);
    zval value;
    ZVAL_LONG(&value, 10);
    zend_enum_add_case_cstr(backed_, "High", &value);
    string_backed_ = zend_register_internal_enum("Color", IS_STRING, nullptr);
    ZVAL_STRING(&value, "red");
    zend_enum_add_case_cstr(string_backed_, "Red", &value);
    zval_ptr_dtor(&value);
  }

  zend_class_entry* pure_ = nullptr;
  zend_class_entry* backed_ = nullptr;
  zend_class_entry* string_backed_ = nullptr;
};

TEST_F(MockZendEnumTest, EnumClassesAreFinalEnumsImplementingTheInterfaces) {
  EXPECT_TRUE(pure_->ce_flags & ZEND_ACC_ENUM);
  EXPECT_TRUE(pure_->ce_flags & ZEND_ACC_FINAL);
  EXPECT_TRUE(instanceof_function(pure_, zend_ce_unit_enum));
  EXPECT_FALSE(instanceof_function(pure_, zend_ce_backed_enum));
  EXPECT_TRUE(instanceof_function(backed_, zend_ce_backed_enum));
  EXPECT_EQ(backed_->enum_backing_type, IS_LONG);
  EXPECT_EQ(pure_->default_properties_count, 1);
  EXPECT_EQ(backed_->default_properties_count, 2);
}

TEST_F(MockZendEnumTest, ACaseIsTheSameObjectWithinARequest) {
  zend_object* first = zend_enum_get_case_cstr(pure_, "ACTIVE");
  ASSERT_NE(first, nullptr);
  zend_string* name = zend_string_init(ZEND_STRL("ACTIVE"), false);
  EXPECT_EQ(zend_enum_get_case(pure_, name), first);
  zend_string_release(name);
  EXPECT_NE(zend_enum_get_case_cstr(pure_, "INACTIVE"), first);
  EXPECT_EQ(first->ce, pure_);
  EXPECT_EQ(GC_REFCOUNT(first), 1u);  // the engine's reference
}

TEST_F(MockZendEnumTest, CaseObjectsCarryTheirNameAndValue) {
  zend_object* active = zend_enum_get_case_cstr(pure_, "ACTIVE");
  EXPECT_STREQ(Z_STRVAL_P(zend_enum_fetch_case_name(active)), "ACTIVE");
  zend_object* high = zend_enum_get_case_cstr(backed_, "High");
  EXPECT_STREQ(Z_STRVAL_P(zend_enum_fetch_case_name(high)), "High");
  zval* value =
      zend_read_property(backed_, high, ZEND_STRL("value"), true, nullptr);
  EXPECT_EQ(Z_LVAL_P(value), 10);
  zend_object* red = zend_enum_get_case_cstr(string_backed_, "Red");
  value = zend_read_property(string_backed_, red, ZEND_STRL("value"), true,
                             nullptr);
  EXPECT_STREQ(Z_STRVAL_P(value), "red");
}

TEST_F(MockZendEnumTest, UnknownCasesAreNull) {
  EXPECT_EQ(zend_enum_get_case_cstr(pure_, "active"), nullptr);
  EXPECT_EQ(zend_enum_get_case_cstr(pure_, "MISSING"), nullptr);
}

TEST_F(MockZendEnumTest, ANewRequestGetsFreshCaseObjectsAndNoLeak) {
  zend_object* first = zend_enum_get_case_cstr(pure_, "ACTIVE");
  const uint32_t first_handle = first->handle;
  ASSERT_NE(first, nullptr);
  zend_enum_get_case_cstr(backed_, "High");
  const php_mock_request_report report = ShutdownRequest();
  EXPECT_EQ(report.objects_alive_at_shutdown, 0u);
  EXPECT_EQ(report.leaked_blocks, 0u);

  EXPECT_EQ(zend_enum_get_case_cstr(pure_, "ACTIVE"), nullptr);  // no request

  ASSERT_EQ(php_request_startup(), SUCCESS);
  zend_object* again = zend_enum_get_case_cstr(pure_, "ACTIVE");
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->handle, first_handle);  // a new object in a new store
  EXPECT_EQ(GC_REFCOUNT(again), 1u);
  EXPECT_STREQ(Z_STRVAL_P(zend_enum_fetch_case_name(again)), "ACTIVE");
  php_request_shutdown(nullptr);
  EXPECT_EQ(php_mock_last_request_report().objects_alive_at_shutdown, 0u);
  EXPECT_EQ(php_mock_last_request_report().leaked_blocks, 0u);
}

TEST_F(MockZendEnumTest, EnumsCannotBeInstantiatedOrCloned) {
  zval z;
  EXPECT_EQ(object_init_ex(&z, pure_), FAILURE);
  zend_clear_exception();
  zend_object* active = zend_enum_get_case_cstr(pure_, "ACTIVE");
  EXPECT_EQ(active->handlers->clone_obj, nullptr);
}

TEST_F(MockZendEnumTest, CasePropertiesAreTypedReadonlyAsInPhp) {
  auto* name = static_cast<zend_property_info*>(
      zend_hash_str_find_ptr(&backed_->properties_info, ZEND_STRL("name")));
  auto* value = static_cast<zend_property_info*>(
      zend_hash_str_find_ptr(&backed_->properties_info, ZEND_STRL("value")));
  ASSERT_NE(name, nullptr);
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(name->flags,
            static_cast<uint32_t>(ZEND_ACC_PUBLIC | ZEND_ACC_READONLY));
  EXPECT_EQ(ZEND_TYPE_PURE_MASK(name->type),
            static_cast<uint32_t>(MAY_BE_STRING));
  EXPECT_EQ(ZEND_TYPE_PURE_MASK(value->type),
            static_cast<uint32_t>(MAY_BE_LONG));
  EXPECT_EQ(name->offset, OBJ_PROP_TO_OFFSET(0));
  EXPECT_EQ(value->offset, OBJ_PROP_TO_OFFSET(1));
  EXPECT_TRUE(backed_->ce_flags & ZEND_ACC_NO_DYNAMIC_PROPERTIES);
  EXPECT_EQ(Z_PROP_FLAG_P(&backed_->default_properties_table[0]),
            IS_PROP_UNINIT);
}

TEST_F(MockZendEnumTest, FetchCaseValueIsTheBackingValue) {
  zend_object* high = zend_enum_get_case_cstr(backed_, "High");
  ASSERT_EQ(Z_TYPE_P(zend_enum_fetch_case_value(high)), IS_LONG);
  EXPECT_EQ(Z_LVAL_P(zend_enum_fetch_case_value(high)), 10);
  zend_object* red = zend_enum_get_case_cstr(string_backed_, "Red");
  EXPECT_STREQ(Z_STRVAL_P(zend_enum_fetch_case_value(red)), "red");
  EXPECT_EQ(typed_properties_c_enum_check(backed_), 0);
}

TEST_F(MockZendEnumTest, CaseByValueFindsTheCaseObject) {
  zend_object* found = nullptr;
  EXPECT_EQ(zend_enum_get_case_by_value(&found, backed_, 10, nullptr, false),
            SUCCESS);
  EXPECT_EQ(found, zend_enum_get_case_cstr(backed_, "High"));
  zend_string* red = zend_string_init(ZEND_STRL("red"), false);
  EXPECT_EQ(zend_enum_get_case_by_value(&found, string_backed_, 0, red, false),
            SUCCESS);
  EXPECT_EQ(found, zend_enum_get_case_cstr(string_backed_, "Red"));
  zend_string_release(red);
  EXPECT_EQ(EG(exception), nullptr);
}

TEST_F(MockZendEnumTest, AMissingBackingValueIsAValueErrorUnlessTried) {
  zend_object* found = zend_enum_get_case_cstr(backed_, "High");
  EXPECT_EQ(zend_enum_get_case_by_value(&found, backed_, 99, nullptr, true),
            SUCCESS);
  EXPECT_EQ(found, nullptr);
  EXPECT_EQ(EG(exception), nullptr);

  EXPECT_EQ(zend_enum_get_case_by_value(&found, backed_, 99, nullptr, false),
            FAILURE);
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (std::vector<std::string>{
                "ValueError: 99 is not a valid backing value for enum "
                "Priority"}));
  zend_clear_exception();
  zend_string* blue = zend_string_init(ZEND_STRL("blue"), false);
  EXPECT_EQ(zend_enum_get_case_by_value(&found, string_backed_, 0, blue, false),
            FAILURE);
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (std::vector<std::string>{
                "ValueError: \"blue\" is not a valid backing value for enum "
                "Color"}));
  zend_clear_exception();
  zend_string_release(blue);
}

TEST_F(MockZendEnumTest, CaseByValueOfAPureEnumIsAValueError) {
  zend_object* found = nullptr;
  EXPECT_EQ(zend_enum_get_case_by_value(&found, pure_, 0, nullptr, true),
            FAILURE);
  EXPECT_EQ(found, nullptr);
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (std::vector<std::string>{
                "ValueError: Async\\CircuitBreakerState is not a backed "
                "enum"}));
  zend_clear_exception();
}

TEST_F(MockZendEnumTest, RedefiningACaseIsAnError) {
  ExpectFatalErrors(
      {"Cannot redefine class constant Async\\CircuitBreakerState::ACTIVE"});
  zend_enum_add_case_cstr(pure_, "ACTIVE", nullptr);
  ExpectOnlyError(E_CORE_ERROR,
                  "Cannot redefine class constant "
                  "Async\\CircuitBreakerState::ACTIVE");
}

}  // namespace
