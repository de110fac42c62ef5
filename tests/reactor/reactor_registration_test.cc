// The reactor's registration through zend_async_reactor_register.

#include <cstring>

#include "core/reactor.h"
#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

class ReactorRegistrationTest : public ReactorTest {};

TEST_F(ReactorRegistrationTest, ModuleNameNamesTheReactorAndItsVersion) {
  EXPECT_STREQ(zar::core::kReactorModuleName,
               "zend-async-ref libuv reactor v0.1.0");
}

TEST_F(ReactorRegistrationTest, EnablesTheReactorAndFillsEverySlot) {
  EXPECT_TRUE(zend_async_reactor_is_enabled());
  // No scheduler in this module: the ABI is not enabled as a whole.
  EXPECT_FALSE(zend_async_is_enabled());

  EXPECT_NE(zend_async_reactor_startup_fn, nullptr);
  EXPECT_NE(zend_async_reactor_shutdown_fn, nullptr);
  EXPECT_NE(zend_async_reactor_execute_fn, nullptr);
  EXPECT_NE(zend_async_reactor_loop_alive_fn, nullptr);
  EXPECT_NE(zend_async_reactor_quiesce_fn, nullptr);
  EXPECT_NE(zend_async_new_socket_event_fn, nullptr);
  EXPECT_NE(zend_async_new_poll_event_fn, nullptr);
  EXPECT_NE(zend_async_new_poll_proxy_event_fn, nullptr);
  EXPECT_NE(zend_async_new_timer_event_fn, nullptr);
  EXPECT_NE(zend_async_timer_rearm_fn, nullptr);
  EXPECT_NE(zend_async_new_signal_event_fn, nullptr);
  EXPECT_NE(zend_async_new_process_event_fn, nullptr);
  EXPECT_NE(zend_async_new_thread_event_fn, nullptr);
  EXPECT_NE(zend_async_new_filesystem_event_fn, nullptr);
  EXPECT_NE(zend_async_getnameinfo_fn, nullptr);
  EXPECT_NE(zend_async_getaddrinfo_fn, nullptr);
  EXPECT_NE(zend_async_freeaddrinfo_fn, nullptr);
  EXPECT_NE(zend_async_new_exec_event_fn, nullptr);
  EXPECT_NE(zend_async_exec_fn, nullptr);
  EXPECT_NE(zend_async_new_trigger_event_fn, nullptr);
  EXPECT_NE(zend_async_available_parallelism_fn, nullptr);
  EXPECT_NE(zend_async_now_fn, nullptr);
  // Set directly by an implementation, not by the reactor registration.
  EXPECT_EQ(zend_async_reactor_tick_fn, nullptr);
  EXPECT_EQ(zend_async_sigaction_fn, nullptr);
}

TEST_F(ReactorRegistrationTest, RegisteringAgainFromTheSameModuleIsRefused) {
  // The ABI's lock quirk: a same-module registration returns true and keeps
  // the lock held, so the one after it returns false.
  EXPECT_TRUE(zar::core::RegisterReactor());
  EXPECT_FALSE(zar::core::RegisterReactor());
}

}  // namespace
}  // namespace zar::reactor_testing
