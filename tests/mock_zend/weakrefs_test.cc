// Tests of the weak-reference surface (Zend/zend_weakrefs.h): PHP's
// WeakReference class with its methods, which fail with an E_CORE_ERROR
// naming themselves (the mock keeps no weak references).

#include <gtest/gtest.h>

#include <string>

#include "mock_zend/class_builder.h"
#include "tests/mock_zend/support/engine_test.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "zend_weakrefs.h"
}

namespace {

using zar::mock_zend_testing::ExpectOnlyError;
using zar::mock_zend_testing::UnsupportedMessage;

class MockZendWeakrefsTest : public zar::testing::RequestFixture {};

std::string Unsupported(const std::string& method) {
  return UnsupportedMessage(method, "it keeps no weak references");
}

zend_function* Method(const char* name, size_t len) {
  return static_cast<zend_function*>(
      zend_hash_str_find_ptr(&zend_ce_weakref->function_table, name, len));
}

TEST_F(MockZendWeakrefsTest, WeakReferenceIsAFinalClassWithPhpsMethods) {
  ASSERT_NE(zend_ce_weakref, nullptr);
  EXPECT_STREQ(ZSTR_VAL(zend_ce_weakref->name), "WeakReference");
  EXPECT_EQ(zend_hash_str_find_ptr(EG(class_table), ZEND_STRL("weakreference")),
            zend_ce_weakref);
  EXPECT_TRUE(zend_ce_weakref->ce_flags & ZEND_ACC_FINAL);
  EXPECT_TRUE(zend_ce_weakref->ce_flags & ZEND_ACC_NOT_SERIALIZABLE);
  zend_function* create = Method(ZEND_STRL("create"));
  ASSERT_NE(create, nullptr);
  EXPECT_TRUE(create->common.fn_flags & ZEND_ACC_STATIC);
  EXPECT_EQ(create->common.required_num_args, 1u);
  zend_function* get = Method(ZEND_STRL("get"));
  ASSERT_NE(get, nullptr);
  EXPECT_FALSE(get->common.fn_flags & ZEND_ACC_STATIC);
}

TEST_F(MockZendWeakrefsTest, CreateFailsWithACoreErrorNamingIt) {
  ExpectFatalErrors({Unsupported("WeakReference::create")});
  zend_class_entry* ce = mock_zend::ClassBuilder("Referent").Build();
  zval referent;
  object_init_ex(&referent, ce);
  zval result;
  ZVAL_UNDEF(&result);
  zend_call_known_function(Method(ZEND_STRL("create")), nullptr,
                           zend_ce_weakref, &result, 1, &referent, nullptr);
  EXPECT_EQ(Z_TYPE(result), IS_NULL);
  zval_ptr_dtor(&referent);
  ExpectOnlyError(E_CORE_ERROR, Unsupported("WeakReference::create"));
}

TEST_F(MockZendWeakrefsTest, GetFailsWithACoreErrorNamingIt) {
  ExpectFatalErrors({Unsupported("WeakReference::get")});
  zval result;
  ZVAL_UNDEF(&result);
  zend_call_known_function(Method(ZEND_STRL("get")), nullptr, zend_ce_weakref,
                           &result, 0, nullptr, nullptr);
  EXPECT_EQ(Z_TYPE(result), IS_NULL);
  ExpectOnlyError(E_CORE_ERROR, Unsupported("WeakReference::get"));
}

}  // namespace
