// Tests of the phpinfo() table helpers (ext/standard/info.h), text form.

#include <gtest/gtest.h>

#include <string>

#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "ext/standard/info.h"
}

namespace {

class MockZendInfoTest : public zar::testing::RequestFixture {};

void Minfo(zend_module_entry* module) {
  (void)module;
  php_info_print_table_start();
  php_info_print_table_header(2, "Feature", "enabled");
  php_info_print_table_row(2, "Version", "1.2.3");
  php_info_print_table_row(3, "Empty", "", nullptr);
  php_info_print_table_end();
}

TEST_F(MockZendInfoTest, TablesPrintAsPhpsTextPhpinfo) {
  zend_module_entry module{};
  module.name = "demo";
  module.info_func = Minfo;
  testing::internal::CaptureStdout();
  php_info_print_module(&module);
  fflush(stdout);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out,
            "\ndemo\n"
            "\n"
            "Feature => enabled\n"
            "Version => 1.2.3\n"
            "Empty => no value => no value\n");
}

TEST_F(MockZendInfoTest, ModuleWithoutMinfoPrintsNothing) {
  zend_module_entry module{};
  module.name = "silent";
  testing::internal::CaptureStdout();
  php_info_print_module(&module);
  fflush(stdout);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
}

}  // namespace
