// Tests of PHP's module-globals macros (zend_API.h, zend_modules.h, php.h)
// as a C extension uses them: see module_globals_c.c.

#include <gtest/gtest.h>

#include "tests/mock_zend/module_globals_c.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace {

class MockZendModuleGlobalsTest : public zar::testing::RequestFixture {};

TEST_F(MockZendModuleGlobalsTest, MacrosDeclareConstructAndAccessTheGlobals) {
  EXPECT_EQ(surface_c_module_globals_check(), 0);
}

TEST_F(MockZendModuleGlobalsTest, ModuleEntryRecordsTheGlobalsAndTheirCtor) {
  EXPECT_EQ(surface_c_module_entry_check(), 0);
}

// ZEND_BEGIN/END_MODULE_GLOBALS in C++, as in a C++ extension.
ZEND_BEGIN_MODULE_GLOBALS(cxx_surface)
zend_long hits;
ZEND_END_MODULE_GLOBALS(cxx_surface)
ZEND_DECLARE_MODULE_GLOBALS(cxx_surface)
#define CXX_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(cxx_surface, v)

TEST_F(MockZendModuleGlobalsTest, AccessorAndBulkNameTheSameObject) {
  CXX_G(hits) = 3;
  EXPECT_EQ(cxx_surface_globals.hits, 3);
  EXPECT_EQ(ZEND_MODULE_GLOBALS_BULK(cxx_surface), &cxx_surface_globals);
  ZEND_MODULE_GLOBALS_BULK(cxx_surface)->hits++;
  EXPECT_EQ(CXX_G(hits), 4);
}

}  // namespace
