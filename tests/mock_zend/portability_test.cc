// Tests of the build-surface macros extensions use (zend_portability.h,
// zend_alloc.h, zend_types.h, zend.h, zend_globals_macros.h): PHP's values.

#include <gtest/gtest.h>

#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "zend_globals_macros.h"
#include "zend_smart_str.h"
}

namespace {

ZEND_STATIC_ASSERT(sizeof(zend_long) == 8, "zend_long is 64-bit");

ZEND_TLS int tls_counter = 0;

int Bump() { return ++tls_counter; }

class MockZendPortabilityTest : public zar::testing::RequestFixture {};

TEST_F(MockZendPortabilityTest, TlsIsAFileStaticInANonZtsBuild) {
  EXPECT_EQ(Bump(), 1);
  EXPECT_EQ(Bump(), 2);
}

TEST_F(MockZendPortabilityTest, HeapGeometryIsPhps) {
  EXPECT_EQ(ZEND_MM_CHUNK_SIZE, size_t{2} * 1024 * 1024);
  EXPECT_EQ(ZEND_MM_PAGE_SIZE, 4096);
  EXPECT_EQ(ZEND_MM_PAGES, 512u);
}

TEST_F(MockZendPortabilityTest, ClassAndPropertyFlagsArePhps) {
  EXPECT_EQ(ZEND_ACC_READONLY, 1 << 7);
  EXPECT_EQ(ZEND_ACC_READONLY_CLASS, 1 << 16);
}

TEST_F(MockZendPortabilityTest, GcTypeInfoNamesTheType) {
  zend_string* s = zend_string_alloc(3, false);
  GC_TYPE_INFO(s) = GC_STRING;
  EXPECT_EQ(GC_TYPE(s), IS_STRING);
  EXPECT_TRUE(GC_FLAGS(s) & GC_NOT_COLLECTABLE);
  efree(s);
  EXPECT_EQ(GC_ARRAY, IS_ARRAY);
  EXPECT_EQ(GC_OBJECT, IS_OBJECT);
  EXPECT_EQ(GC_RESOURCE & GC_TYPE_MASK, IS_RESOURCE);
  EXPECT_EQ(GC_REFERENCE & GC_TYPE_MASK, IS_REFERENCE);
}

TEST_F(MockZendPortabilityTest, GlobalsMacrosHeaderGivesEg) {
  EXPECT_EQ(&EG(exception), &executor_globals.exception);
}

}  // namespace
