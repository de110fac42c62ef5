// Tests of main/php_config.h: the mock's one configuration, non-ZTS.

#include <gtest/gtest.h>

#include "tests/mock_zend/engine_headers_c.h"
#include "tests/mock_zend/gnu_source_c.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "php_config.h"
}

namespace {

class MockZendPhpConfigTest : public zar::testing::RequestFixture {};

TEST_F(MockZendPhpConfigTest, TheConfigurationIsNonZts) {
  EXPECT_EQ(surface_c_php_config_zts(), 0);
#ifdef ZTS
  ADD_FAILURE() << "ZTS is defined after php_config.h";
#endif
}

// PHP's configure makes the GNU/POSIX API visible before any system header,
// so an extension built without -D_GNU_SOURCE still sees sigjmp_buf,
// realpath() and gmtime_r() after php.h.
TEST_F(MockZendPhpConfigTest,
       PhpHMakesTheGnuApiVisibleWithoutTheCommandLineDefine) {
  EXPECT_EQ(surface_c_gnu_api_check(), 0);
}

}  // namespace
