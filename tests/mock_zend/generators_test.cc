// Tests of the generator surface (Zend/zend_generators.h): PHP's layout
// and flag values, and the functions the mock cannot run, which fail with
// an E_CORE_ERROR naming themselves.

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "tests/mock_zend/engine_headers_c.h"
#include "tests/mock_zend/support/engine_test.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "zend_generators.h"
}

namespace {

using zar::mock_zend_testing::ExpectFieldsInOrder;
using zar::mock_zend_testing::ExpectOnlyError;
using zar::mock_zend_testing::UnsupportedMessage;

class MockZendGeneratorsTest : public zar::testing::RequestFixture {};

std::string Unsupported(const std::string& function) {
  return UnsupportedMessage(function, "it runs no PHP generators");
}

TEST_F(MockZendGeneratorsTest, FieldsAreInPhpsOrder) {
  ExpectFieldsInOrder({
      offsetof(zend_generator, std),
      offsetof(zend_generator, execute_data),
      offsetof(zend_generator, frozen_call_stack),
      offsetof(zend_generator, value),
      offsetof(zend_generator, key),
      offsetof(zend_generator, retval),
      offsetof(zend_generator, send_target),
      offsetof(zend_generator, largest_used_integer_key),
      offsetof(zend_generator, values),
      offsetof(zend_generator, node),
      offsetof(zend_generator, execute_fake),
      offsetof(zend_generator, flags),
  });
  ExpectFieldsInOrder({
      offsetof(zend_generator_node, parent),
      offsetof(zend_generator_node, children),
      offsetof(zend_generator_node, child),
      offsetof(zend_generator_node, ptr),
  });
}

TEST_F(MockZendGeneratorsTest, LayoutIsTheSameInCAndCxx) {
  EXPECT_EQ(surface_c_sizeof_generator(), sizeof(zend_generator));
  EXPECT_EQ(surface_c_offsetof_generator_flags(),
            offsetof(zend_generator, flags));
}

TEST_F(MockZendGeneratorsTest, FlagsHavePhpsValues) {
  EXPECT_EQ(ZEND_GENERATOR_CURRENTLY_RUNNING, 0x1);
  EXPECT_EQ(ZEND_GENERATOR_FORCED_CLOSE, 0x2);
  EXPECT_EQ(ZEND_GENERATOR_AT_FIRST_YIELD, 0x4);
  EXPECT_EQ(ZEND_GENERATOR_DO_INIT, 0x8);
  EXPECT_EQ(ZEND_GENERATOR_IN_FIBER, 0x10);
}

TEST_F(MockZendGeneratorsTest, NoGeneratorClassIsRegistered) {
  EXPECT_EQ(zend_ce_generator, nullptr);
  EXPECT_EQ(zend_hash_str_find_ptr(EG(class_table), ZEND_STRL("generator")),
            nullptr);
}

TEST_F(MockZendGeneratorsTest, FrameGcFailsWithACoreErrorNamingIt) {
  ExpectFatalErrors({Unsupported("zend_generator_frame_gc")});
  zend_generator generator{};
  generator.flags = ZEND_GENERATOR_CURRENTLY_RUNNING;
  zend_get_gc_buffer* buffer = zend_get_gc_buffer_create();
  EXPECT_EQ(zend_generator_frame_gc(buffer, &generator), nullptr);
  EXPECT_EQ(buffer->cur, buffer->start);
  EXPECT_EQ(generator.flags, ZEND_GENERATOR_CURRENTLY_RUNNING);
  ExpectOnlyError(E_CORE_ERROR, Unsupported("zend_generator_frame_gc"));
}

TEST_F(MockZendGeneratorsTest, ResumeFailsWithACoreErrorNamingIt) {
  ExpectFatalErrors({Unsupported("zend_generator_resume")});
  zend_generator generator{};
  zend_generator_resume(&generator);
  ExpectOnlyError(E_CORE_ERROR, Unsupported("zend_generator_resume"));
}

TEST_F(MockZendGeneratorsTest, CloseFailsWithACoreErrorNamingIt) {
  ExpectFatalErrors({Unsupported("zend_generator_close")});
  zend_generator generator{};
  zend_generator_close(&generator, false);
  ExpectOnlyError(E_CORE_ERROR, Unsupported("zend_generator_close"));
}

TEST_F(MockZendGeneratorsTest, FrameGcInsideZendTryBailsOut) {
  ExpectFatalErrors({Unsupported("zend_generator_frame_gc")});
  zend_generator generator{};
  volatile bool reached_after = false;
  volatile bool caught = false;
  zend_try {
    zend_generator_frame_gc(zend_get_gc_buffer_create(), &generator);
    reached_after = true;
  }
  zend_catch { caught = true; }
  zend_end_try();
  EXPECT_TRUE(caught);
  EXPECT_FALSE(reached_after);
}

}  // namespace
