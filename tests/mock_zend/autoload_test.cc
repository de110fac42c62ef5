// Tests of the class-loader surface (Zend/zend_autoload.h): with no
// loaders (the mock keeps none) lookups find nothing, and registering a
// loader fails with an E_CORE_ERROR naming the function.

#include <gtest/gtest.h>

#include <string>

#include "tests/mock_zend/support/engine_test.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "zend_autoload.h"
}

namespace {

using zar::mock_zend_testing::ExpectOnlyError;
using zar::mock_zend_testing::UnsupportedMessage;

class MockZendAutoloadTest : public zar::testing::RequestFixture {};

std::string Unsupported(const std::string& function) {
  return UnsupportedMessage(function, "it keeps no class loaders");
}

TEST_F(MockZendAutoloadTest, AutoloadFindsNoClass) {
  zend_string* name = zend_string_init(ZEND_STRL("Vendor\\Missing"), 0);
  zend_string* lc_name = zend_string_tolower(name);
  EXPECT_EQ(zend_perform_class_autoload(name, lc_name), nullptr);
  EXPECT_EQ(zend_perform_class_map_autoload(name, lc_name), nullptr);
  zend_string_release(lc_name);
  zend_string_release(name);
  EXPECT_EQ(zend_mock_error_count(), 0u);
}

TEST_F(MockZendAutoloadTest, TheLoaderMapIsAnEmptyArray) {
  zval loaders;
  zend_autoload_fcc_map_to_callable_zval_map(&loaders);
  ASSERT_EQ(Z_TYPE(loaders), IS_ARRAY);
  EXPECT_EQ(zend_hash_num_elements(Z_ARRVAL(loaders)), 0u);
  zval_ptr_dtor(&loaders);
}

TEST_F(MockZendAutoloadTest, UnregisteringFindsNoLoader) {
  zend_fcall_info_cache fcc{};
  EXPECT_FALSE(zend_autoload_unregister_class_loader(&fcc));
  zend_autoload_drop_autoload_map();
  EXPECT_EQ(zend_mock_error_count(), 0u);
}

TEST_F(MockZendAutoloadTest, RegisteringALoaderFailsWithACoreErrorNamingIt) {
  ExpectFatalErrors({Unsupported("zend_autoload_register_class_loader")});
  zend_fcall_info_cache fcc{};
  zend_autoload_register_class_loader(&fcc, false);
  ExpectOnlyError(E_CORE_ERROR,
                  Unsupported("zend_autoload_register_class_loader"));
}

TEST_F(MockZendAutoloadTest,
       DestroyingALoaderEntryFailsWithACoreErrorNamingIt) {
  ExpectFatalErrors({Unsupported("zend_autoload_callback_zval_destroy")});
  zval entry;
  ZVAL_NULL(&entry);
  zend_autoload_callback_zval_destroy(&entry);
  ExpectOnlyError(E_CORE_ERROR,
                  Unsupported("zend_autoload_callback_zval_destroy"));
}

}  // namespace
