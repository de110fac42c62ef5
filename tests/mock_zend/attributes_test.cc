// Tests of the attribute surface (Zend/zend_attributes.h): PHP's layout,
// target and flag values, ZEND_ATTRIBUTE_SIZE, and attribute tables as
// gen_stub.php's *_arginfo.h files build them on registered methods.

#include <gtest/gtest.h>

#include <cstddef>

#include "mock_zend/class_builder.h"
#include "tests/mock_zend/engine_headers_c.h"
#include "tests/mock_zend/support/engine_test.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "zend_attributes.h"
}

namespace {

using zar::mock_zend_testing::ExpectFieldsInOrder;

class MockZendAttributesTest : public zar::testing::RequestFixture {};

TEST_F(MockZendAttributesTest, FieldsAreInPhpsOrder) {
  ExpectFieldsInOrder({
      offsetof(zend_attribute, name),
      offsetof(zend_attribute, lcname),
      offsetof(zend_attribute, flags),
      offsetof(zend_attribute, lineno),
      offsetof(zend_attribute, offset),
      offsetof(zend_attribute, argc),
      offsetof(zend_attribute, args),
  });
  EXPECT_EQ(offsetof(zend_attribute_arg, name), 0u);
  EXPECT_EQ(offsetof(zend_attribute_arg, value), sizeof(void*));
}

TEST_F(MockZendAttributesTest, LayoutIsTheSameInCAndCxx) {
  EXPECT_EQ(surface_c_sizeof_attribute(), sizeof(zend_attribute));
}

TEST_F(MockZendAttributesTest, SizeCountsTheArgumentsPastTheFirst) {
  EXPECT_EQ(ZEND_ATTRIBUTE_SIZE(1), sizeof(zend_attribute));
  EXPECT_EQ(ZEND_ATTRIBUTE_SIZE(0),
            sizeof(zend_attribute) - sizeof(zend_attribute_arg));
  EXPECT_EQ(ZEND_ATTRIBUTE_SIZE(3),
            sizeof(zend_attribute) + 2 * sizeof(zend_attribute_arg));
}

TEST_F(MockZendAttributesTest, TargetsAndFlagsHavePhpsValues) {
  EXPECT_EQ(ZEND_ATTRIBUTE_TARGET_CLASS, 1);
  EXPECT_EQ(ZEND_ATTRIBUTE_TARGET_FUNCTION, 2);
  EXPECT_EQ(ZEND_ATTRIBUTE_TARGET_METHOD, 4);
  EXPECT_EQ(ZEND_ATTRIBUTE_TARGET_PROPERTY, 8);
  EXPECT_EQ(ZEND_ATTRIBUTE_TARGET_CLASS_CONST, 16);
  EXPECT_EQ(ZEND_ATTRIBUTE_TARGET_PARAMETER, 32);
  EXPECT_EQ(ZEND_ATTRIBUTE_TARGET_CONST, 64);
  EXPECT_EQ(ZEND_ATTRIBUTE_TARGET_ALL, 127);
  EXPECT_EQ(ZEND_ATTRIBUTE_IS_REPEATABLE, 128);
  EXPECT_EQ(ZEND_ATTRIBUTE_FLAGS, 255);
  EXPECT_EQ(ZEND_ATTRIBUTE_PERSISTENT, 1);
  EXPECT_EQ(ZEND_ATTRIBUTE_STRICT_TYPES, 2);
}

TEST_F(MockZendAttributesTest, ATableIsCopiedFromCAtItsSize) {
  EXPECT_EQ(surface_c_attribute_copy_check(), 0);
}

// A registered method of a new class, as an *_arginfo.h file finds it.
zend_function* RegisteredMethod() {
  zend_class_entry* ce = mock_zend::ClassBuilder("Attributed")
                             .Method("run", [](mock_zend::Call&) {})
                             .Build();
  return static_cast<zend_function*>(
      zend_hash_str_find_ptr(&ce->function_table, ZEND_STRL("run")));
}

TEST_F(MockZendAttributesTest,
       AFunctionAttributeOfAnInternalMethodIsPersistent) {
  zend_function* method = RegisteredMethod();
  ASSERT_NE(method, nullptr);
  zend_string* name = zend_string_init_interned(ZEND_STRL("Override"), true);
  zend_attribute* attr = zend_add_function_attribute(method, name, 0);
  zend_string_release_ex(name, true);
  ASSERT_NE(attr, nullptr);
  EXPECT_STREQ(ZSTR_VAL(attr->name), "Override");
  EXPECT_STREQ(ZSTR_VAL(attr->lcname), "override");
  EXPECT_EQ(attr->flags, static_cast<uint32_t>(ZEND_ATTRIBUTE_PERSISTENT));
  EXPECT_EQ(attr->offset, 0u);
  EXPECT_EQ(attr->argc, 0u);
  EXPECT_EQ(attr->validation_error, nullptr);
  EXPECT_TRUE(GC_FLAGS(attr->lcname) & IS_STR_PERSISTENT);
  ASSERT_NE(method->common.attributes, nullptr);
  EXPECT_EQ(zend_hash_num_elements(method->common.attributes), 1u);
  EXPECT_EQ(
      zend_get_attribute_str(method->common.attributes, ZEND_STRL("override")),
      attr);
}

TEST_F(MockZendAttributesTest, AParameterAttributeIsFoundAtItsParameterOnly) {
  zend_function* method = RegisteredMethod();
  ASSERT_NE(method, nullptr);
  zend_string* name =
      zend_string_init_interned(ZEND_STRL("SensitiveParameter"), true);
  zend_attribute* attr = zend_add_parameter_attribute(method, 1, name, 0);
  zend_string_release_ex(name, true);
  EXPECT_EQ(attr->offset, 2u);
  HashTable* attributes = method->common.attributes;
  EXPECT_EQ(zend_get_parameter_attribute_str(
                attributes, ZEND_STRL("sensitiveparameter"), 1),
            attr);
  EXPECT_EQ(zend_get_parameter_attribute_str(
                attributes, ZEND_STRL("sensitiveparameter"), 0),
            nullptr);
  EXPECT_EQ(zend_get_attribute_str(attributes, ZEND_STRL("sensitiveparameter")),
            nullptr);
}

TEST_F(MockZendAttributesTest, ARequestTableOwnsItsAttributesAndArguments) {
  HashTable* attributes = nullptr;
  zend_string* name = zend_string_init(ZEND_STRL("Vendor\\Tag"), false);
  zend_attribute* first = zend_add_attribute(&attributes, name, 2, 0, 0, 7);
  zend_string_release(name);
  ASSERT_NE(attributes, nullptr);
  EXPECT_EQ(first->lineno, 7u);
  EXPECT_EQ(first->args[0].name, nullptr);
  EXPECT_EQ(Z_TYPE(first->args[1].value), IS_UNDEF);
  first->args[0].name = zend_string_init(ZEND_STRL("label"), false);
  ZVAL_STRING(&first->args[0].value, "request string");
  ZVAL_LONG(&first->args[1].value, 3);
  zend_string* lcname = zend_string_init(ZEND_STRL("vendor\\tag"), false);
  EXPECT_EQ(zend_get_attribute(attributes, lcname), first);
  zend_string_release(lcname);
  // Destroying the table frees every string and value: the fixture's leak
  // check fails otherwise.
  zend_array_destroy(attributes);
}

}  // namespace
