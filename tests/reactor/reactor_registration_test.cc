// The reactor's registration through zend_async_reactor_register, as the
// ABI shows it: the group enabled, every slot filled. (The reference's own
// module name and its re-registration: unit/reactor_internal_test.cc.)

#include "gtest/gtest.h"
#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {
namespace {

class ReactorRegistrationTest : public ReactorTest {};

TEST_F(ReactorRegistrationTest, EnablesTheReactorAndFillsEverySlot) {
  EXPECT_TRUE(zend_async_reactor_is_enabled());
  // The extension registers its scheduler too: the ABI is enabled as a
  // whole.
  EXPECT_TRUE(zend_async_is_enabled());

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
}

}  // namespace
}  // namespace zar::reactor_testing
