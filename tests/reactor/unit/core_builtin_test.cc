// ZendAsyncRef::core_builtin: linked into a program, the async extension is
// one of its built-in extensions, so PHP's own ways of starting the engine
// without naming a module (php_module_startup(sapi, NULL), php_embed_init)
// load it, as they load an extension compiled into PHP.

#include <gtest/gtest.h>

#include <climits>

extern "C" {
#include "SAPI.h"
#include "Zend/zend_async_API.h"
#include "Zend/zend_long.h"
#include "ext/async/php_async.h"
#include "php_main.h"
#include "sapi/embed/php_embed.h"
#include "zend_async_ref/registry_testing.h"
}

namespace {

class CoreBuiltinTest : public ::testing::Test {
 protected:
  void TearDown() override {
    php_embed_shutdown();
    php_module_shutdown();
    sapi_shutdown();
    zend_async_ref_reset_registry();
  }

  static void ExpectCleanRequest() {
    const php_mock_request_report report = php_mock_last_request_report();
    EXPECT_EQ(report.leaked_blocks, 0u);
    EXPECT_EQ(report.objects_alive_at_shutdown, 0u);
  }
};

TEST_F(CoreBuiltinTest, ModuleStartupWithoutModulesLoadsTheAsyncExtension) {
  sapi_startup(&php_mock_sapi_module);
  ASSERT_EQ(php_module_startup(&php_mock_sapi_module, nullptr), SUCCESS);
  EXPECT_EQ(zar_async_module_entry.module_started, 1);
  EXPECT_TRUE(zend_async_is_enabled());  // MINIT registered the scheduler
  ASSERT_EQ(php_request_startup(), SUCCESS);
  EXPECT_TRUE(ZEND_ASYNC_IS_READY);  // its RINIT ran
  php_request_shutdown(nullptr);
  ExpectCleanRequest();
}

// Upstream's C test harness (true-async/php-src sapi/asynctest) runs
// uv_run(&ASYNC_G(uvloop), UV_RUN_NOWAIT) at the start of a request, before
// anything in that request used the reactor: the loop must be live there,
// in every request, not the previous request's closed one.
TEST_F(CoreBuiltinTest, EveryRequestStartsWithALiveLoopAHarnessMayRun) {
  sapi_startup(&php_mock_sapi_module);
  ASSERT_EQ(php_module_startup(&php_mock_sapi_module, nullptr), SUCCESS);
  EXPECT_FALSE(ASYNC_G(reactor_started));  // no request, no loop
  for (int request = 0; request < 3; request++) {
    ASSERT_EQ(php_request_startup(), SUCCESS);
    EXPECT_TRUE(ASYNC_G(reactor_started));
    EXPECT_EQ(uv_run(&ASYNC_G(uvloop), UV_RUN_NOWAIT), 0);
    EXPECT_EQ(uv_loop_alive(&ASYNC_G(uvloop)), 0);
    php_request_shutdown(nullptr);
    ExpectCleanRequest();
    EXPECT_FALSE(ASYNC_G(reactor_started));
  }
}

TEST_F(CoreBuiltinTest, NamingTheBuiltinModuleAgainIsRefused) {
  sapi_startup(&php_mock_sapi_module);
  EXPECT_EQ(php_module_startup(&php_mock_sapi_module, &zar_async_module_entry),
            FAILURE);
}

TEST_F(CoreBuiltinTest, AnEmbeddedEngineRunsTimersOnAsyncGUvloop) {
  ASSERT_EQ(php_embed_init(0, nullptr), SUCCESS);
  EXPECT_TRUE(ZEND_ASYNC_IS_READY);
  zend_async_timer_event_t* saturated =
      zend_async_new_timer_event_fn(0, ZEND_ULONG_MAX - 100, false, 0);
  ASSERT_NE(saturated, nullptr);
  EXPECT_EQ(saturated->timeout, UINT_MAX);
  zend_async_timer_event_t* rounded =
      zend_async_new_timer_event_fn(0, 1500000, false, 0);
  ASSERT_NE(rounded, nullptr);
  EXPECT_EQ(rounded->timeout, 2u);
  EXPECT_TRUE(ASYNC_G(reactor_started));
  saturated->base.dispose(&saturated->base);
  rounded->base.dispose(&rounded->base);
  for (int i = 0; i < 3 && uv_run(&ASYNC_G(uvloop), UV_RUN_NOWAIT) != 0; i++) {
  }
  EXPECT_EQ(uv_loop_alive(&ASYNC_G(uvloop)), 0);
  php_embed_shutdown();
  ExpectCleanRequest();
  EXPECT_FALSE(ASYNC_G(reactor_started));
}

}  // namespace
