// Tests of the property-hook helpers (zend_property_hooks.h) on objects
// without hooks, the only kind the mock has.

#include <gtest/gtest.h>

#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "zend_property_hooks.h"
}

namespace {

class MockZendPropertyHooksTest : public zar::testing::RequestFixture {};

TEST_F(MockZendPropertyHooksTest, BuildPropertiesHoldsTheDeclaredProperties) {
  zval obj;
  ASSERT_EQ(object_init_ex(&obj, zend_ce_exception), SUCCESS);
  zend_update_property_string(zend_ce_exception, Z_OBJ(obj),
                              ZEND_STRL("message"), "hello");
  zend_array* built = zend_hooked_object_build_properties(Z_OBJ(obj));
  ASSERT_NE(built, nullptr);
  EXPECT_EQ(GC_REFCOUNT(built), 1u);
  EXPECT_EQ(zend_hash_num_elements(built),
            static_cast<uint32_t>(zend_ce_exception->default_properties_count));
  zval* message = zend_hash_str_find(built, ZEND_STRL("message"));
  ASSERT_NE(message, nullptr);
  ASSERT_EQ(Z_TYPE_P(message), IS_STRING);
  EXPECT_STREQ(Z_STRVAL_P(message), "hello");
  EXPECT_EQ(GC_REFCOUNT(Z_STR_P(message)), 2u);  // the object's and ours
  zend_array_release(built);
  zval_ptr_dtor(&obj);
}

TEST_F(MockZendPropertyHooksTest, BuildPropertiesAddsTheDynamicProperties) {
  zval obj;
  object_init(&obj);  // stdClass: no declared properties
  zend_update_property_string(Z_OBJCE(obj), Z_OBJ(obj), ZEND_STRL("dyn"),
                              "value");
  zend_array* built = zend_hooked_object_build_properties(Z_OBJ(obj));
  EXPECT_EQ(zend_hash_num_elements(built), 1u);
  zval* dyn = zend_hash_str_find(built, ZEND_STRL("dyn"));
  ASSERT_NE(dyn, nullptr);
  EXPECT_STREQ(Z_STRVAL_P(dyn), "value");
  zend_array_release(built);
  zval_ptr_dtor(&obj);
}

TEST_F(MockZendPropertyHooksTest, GetIteratorFailsWithACoreErrorNamingIt) {
  // The only error, exactly (the fixture checks it):
  ExpectFatalErrors(
      {"zend_hooked_object_get_iterator() is not supported by the mock engine: "
       "it has no property iterators"});
  zval obj;
  ASSERT_EQ(object_init_ex(&obj, zend_ce_exception), SUCCESS);
  EXPECT_EQ(zend_hooked_object_get_iterator(zend_ce_exception, &obj, 0),
            nullptr);
  ASSERT_EQ(zend_mock_error_count(), 1u);
  EXPECT_EQ(zend_mock_error_type(0), E_CORE_ERROR);
  zval_ptr_dtor(&obj);
}

}  // namespace
