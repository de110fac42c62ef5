// Tests of php.ini lookups (main/php_ini.h): the mock has no php.ini.

#include <gtest/gtest.h>

#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "main/php_ini.h"
}

namespace {

class MockZendIniTest : public zar::testing::RequestFixture {};

TEST_F(MockZendIniTest, NothingIsConfigured) {
  zend_long l = 7;
  double d = 7.0;
  char* s = const_cast<char*>("set");
  EXPECT_EQ(cfg_get_long("memory_limit", &l), FAILURE);
  EXPECT_EQ(l, 0);
  EXPECT_EQ(cfg_get_double("precision", &d), FAILURE);
  EXPECT_EQ(d, 0.0);
  EXPECT_EQ(cfg_get_string("error_log", &s), FAILURE);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(cfg_get_entry(ZEND_STRL("error_log")), nullptr);
  EXPECT_EQ(PHP_INI_ALL, PHP_INI_USER | PHP_INI_PERDIR | PHP_INI_SYSTEM);
}

}  // namespace
