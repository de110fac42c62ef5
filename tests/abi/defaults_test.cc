// What every exported function pointer does before any extension
// registers (the defaults of true-async/php-src Zend/zend_async_API.c,
// de8c19de).

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/abi/support/fake_async.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace zar::abi_testing {
namespace {

using ::testing::IsEmpty;

constexpr char kNotEnabled[] = "Error: Async API is not enabled";

class AbiDefaultsTest : public zar::testing::RequestFixture {};

TEST_F(AbiDefaultsTest, SpawnThrowsAsyncApiIsNotEnabled) {
  EXPECT_EQ(ZEND_ASYNC_SPAWN(), nullptr);
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);

  EXPECT_EQ(ZEND_ASYNC_SPAWN_WITH_PRIORITY(ZEND_COROUTINE_HI_PRIORITY),
            nullptr);
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);
}

TEST_F(AbiDefaultsTest, SuspendReturnsFalseSilently) {
  EXPECT_FALSE(ZEND_ASYNC_SUSPEND());
  EXPECT_FALSE(ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN(true));
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_THAT(ErrorLog(), IsEmpty());
}

TEST_F(AbiDefaultsTest, EnqueueThrowsAndReturnsFalse) {
  zend_coroutine_t coroutine = MakeCoroutine();
  EXPECT_FALSE(ZEND_ASYNC_ENQUEUE_COROUTINE(&coroutine));
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);
}

TEST_F(AbiDefaultsTest, ShutdownEngineShutdownAndLaunchReturnTrue) {
  EXPECT_TRUE(ZEND_ASYNC_SHUTDOWN());
  EXPECT_TRUE(ZEND_ASYNC_ENGINE_SHUTDOWN());
  EXPECT_TRUE(ZEND_ASYNC_SCHEDULER_LAUNCH());
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(ZEND_ASYNC_G(state), ZEND_ASYNC_OFF);
}

TEST_F(AbiDefaultsTest, CoroutineListAndAwaitingInfoAreNull) {
  zend_coroutine_t coroutine = MakeCoroutine();
  EXPECT_EQ(ZEND_ASYNC_GET_COROUTINES(), nullptr);
  EXPECT_EQ(ZEND_ASYNC_GET_AWAITING_INFO(&coroutine), nullptr);
  EXPECT_EQ(EG(exception), nullptr);
}

int microtask_handler_calls = 0;
void CountingMicrotask(zend_async_microtask_t*) { microtask_handler_calls++; }

TEST_F(AbiDefaultsTest, AddMicrotaskReturnsTrueAndLeavesItUntouched) {
  microtask_handler_calls = 0;
  zend_async_microtask_t microtask = {CountingMicrotask, nullptr, false, 1};

  EXPECT_TRUE(ZEND_ASYNC_ADD_MICROTASK(&microtask));

  EXPECT_EQ(microtask.ref_count, 1u);
  EXPECT_EQ(microtask_handler_calls, 0);
}

TEST_F(AbiDefaultsTest, FuturesChannelsAndGroupsThrow) {
  EXPECT_EQ(ZEND_ASYNC_NEW_FUTURE(false), nullptr);
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);
  EXPECT_EQ(ZEND_ASYNC_NEW_FUTURE_OBJ(nullptr), nullptr);
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);
  EXPECT_EQ(ZEND_ASYNC_NEW_CHANNEL(1, false, false), nullptr);
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);
  EXPECT_EQ(ZEND_ASYNC_NEW_CHANNEL_OBJ(nullptr), nullptr);
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);
  EXPECT_EQ(ZEND_ASYNC_NEW_GROUP(1, 0, nullptr), nullptr);
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);
}

TEST_F(AbiDefaultsTest, SpawnAndThrowThrowsAndReturnsFalse) {
  EXPECT_FALSE(ZEND_ASYNC_SPAWN_AND_THROW(nullptr, nullptr, 0));
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);
}

TEST_F(AbiDefaultsTest, NewContextThrowsContextApiIsNotEnabled) {
  EXPECT_EQ(ZEND_ASYNC_NEW_CONTEXT(nullptr), nullptr);
  EXPECT_EQ(TakeExceptionText(), "Error: Context API is not enabled");
}

TEST_F(AbiDefaultsTest, CoroutineContextIsCreatedLazilyThroughNewContext) {
  EXPECT_EQ(ZEND_ASYNC_GET_COROUTINE_CONTEXT(), nullptr);  // no coroutine
  EXPECT_EQ(EG(exception), nullptr);

  zend_coroutine_t coroutine = MakeCoroutine();
  ZEND_ASYNC_CURRENT_COROUTINE = &coroutine;
  EXPECT_EQ(ZEND_ASYNC_GET_COROUTINE_CONTEXT(), nullptr);
  EXPECT_EQ(TakeExceptionText(), "Error: Context API is not enabled");

  zend_async_context_t context = Zeroed<zend_async_context_t>();
  coroutine.context = &context;
  EXPECT_EQ(ZEND_ASYNC_GET_COROUTINE_CONTEXT(), &context);
  EXPECT_EQ(EG(exception), nullptr);
  ZEND_ASYNC_CURRENT_COROUTINE = nullptr;
}

TEST_F(AbiDefaultsTest, PoolApiThrowsUntilRegistered) {
  zend_async_pool_t pool = Zeroed<zend_async_pool_t>();
  zval value;
  ZVAL_UNDEF(&value);

  EXPECT_EQ(
      ZEND_ASYNC_NEW_POOL(nullptr, nullptr, nullptr, nullptr, nullptr, 0, 1, 0),
      nullptr);
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);
  EXPECT_EQ(ZEND_ASYNC_NEW_POOL_OBJ(&pool), nullptr);
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);
  EXPECT_FALSE(ZEND_ASYNC_POOL_ACQUIRE(&pool, &value, 0));
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);
  EXPECT_FALSE(ZEND_ASYNC_POOL_TRY_ACQUIRE(&pool, &value));
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);
  ZEND_ASYNC_POOL_RELEASE(&pool, &value);
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);
  ZEND_ASYNC_POOL_CLOSE(&pool);
  EXPECT_EQ(TakeExceptionText(), kNotEnabled);
  EXPECT_TRUE(Z_ISUNDEF(value));
}

TEST_F(AbiDefaultsTest, SocketListeningThrowsUntilRegistered) {
  EXPECT_EQ(ZEND_ASYNC_SOCKET_LISTEN("127.0.0.1", 8080, 16), nullptr);
  EXPECT_EQ(TakeExceptionText(), "Error: Socket listening API is not enabled");
  EXPECT_EQ(ZEND_ASYNC_SOCKET_LISTEN_FD(3, 16, 0, 0), nullptr);
  EXPECT_EQ(TakeExceptionText(), "Error: Socket listening API is not enabled");
}

TEST_F(AbiDefaultsTest, ClassTableMapsExceptionsToEngineClasses) {
  EXPECT_EQ(ZEND_ASYNC_GET_EXCEPTION_CE(ZEND_ASYNC_EXCEPTION_DEFAULT),
            zend_ce_exception);
  EXPECT_EQ(ZEND_ASYNC_GET_EXCEPTION_CE(ZEND_ASYNC_EXCEPTION_DNS),
            zend_ce_exception);
  EXPECT_EQ(ZEND_ASYNC_GET_EXCEPTION_CE(ZEND_ASYNC_EXCEPTION_POLL),
            zend_ce_exception);
  EXPECT_EQ(ZEND_ASYNC_GET_EXCEPTION_CE(ZEND_ASYNC_EXCEPTION_TIMEOUT),
            zend_ce_exception);
  EXPECT_EQ(ZEND_ASYNC_GET_EXCEPTION_CE(ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT),
            zend_ce_exception);
  EXPECT_EQ(ZEND_ASYNC_GET_EXCEPTION_CE(ZEND_ASYNC_EXCEPTION_CANCELLATION),
            zend_ce_error);

  for (zend_async_class type :
       {ZEND_ASYNC_CLASS_NO, ZEND_ASYNC_CLASS_AWAITABLE,
        ZEND_ASYNC_CLASS_COROUTINE, ZEND_ASYNC_CLASS_SCOPE,
        ZEND_ASYNC_CLASS_CONTEXT, ZEND_ASYNC_CLASS_SCOPE_PROVIDER,
        ZEND_ASYNC_CLASS_SPAWN_STRATEGY, ZEND_ASYNC_CLASS_TIMEOUT,
        ZEND_ASYNC_CLASS_COMPLETABLE, ZEND_ASYNC_CLASS_CHANNEL,
        ZEND_ASYNC_CLASS_FUTURE, ZEND_ASYNC_CLASS_GROUP, ZEND_ASYNC_CLASS_POOL,
        ZEND_ASYNC_EXCEPTION_DEADLOCK, ZEND_ASYNC_EXCEPTION_SERVICE_UNAVAILABLE,
        ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED,
        ZEND_ASYNC_EXCEPTION_THREAD_TRANSFER, ZEND_ASYNC_EXCEPTION_REMOTE}) {
    EXPECT_EQ(ZEND_ASYNC_GET_CE(type), nullptr) << "class id " << type;
  }
}

std::string main_stack_trace;
void AppendToTrace(void* arg) {
  main_stack_trace += static_cast<const char*>(arg);
}

TEST_F(AbiDefaultsTest, CallOnMainStackCallsTheFunctionRightAway) {
  main_stack_trace.clear();
  char text[] = "called";
  ZEND_ASYNC_CALL_ON_MAIN_STACK(AppendToTrace, text);
  EXPECT_EQ(main_stack_trace, "called");
}

TEST_F(AbiDefaultsTest, WakerFunctionsHaveBuiltInDefaults) {
  EXPECT_NE(zend_async_waker_new_fn, nullptr);
  EXPECT_NE(zend_async_waker_destroy_fn, nullptr);
}

TEST_F(AbiDefaultsTest, EverythingElseIsNull) {
  // Scheduler pointers without a stub.
  EXPECT_EQ(zend_async_new_coroutine_fn, nullptr);
  EXPECT_EQ(zend_async_new_scope_fn, nullptr);
  EXPECT_EQ(zend_async_resume_fn, nullptr);
  EXPECT_EQ(zend_async_cancel_fn, nullptr);
  EXPECT_EQ(zend_async_scope_await_after_cancellation_fn, nullptr);
  EXPECT_EQ(zend_async_new_iterator_fn, nullptr);
  EXPECT_EQ(zend_async_thread_snapshot_create_fn, nullptr);
  EXPECT_EQ(zend_async_thread_snapshot_destroy_fn, nullptr);
  EXPECT_EQ(zend_async_thread_run_fn, nullptr);
  EXPECT_EQ(zend_async_thread_load_result_fn, nullptr);
  EXPECT_EQ(zend_async_coroutine_get_execute_data_fn, nullptr);
  // Reactor.
  EXPECT_EQ(zend_async_reactor_startup_fn, nullptr);
  EXPECT_EQ(zend_async_reactor_shutdown_fn, nullptr);
  EXPECT_EQ(zend_async_reactor_execute_fn, nullptr);
  EXPECT_EQ(zend_async_reactor_loop_alive_fn, nullptr);
  EXPECT_EQ(zend_async_reactor_tick_fn, nullptr);
  EXPECT_EQ(zend_async_reactor_quiesce_fn, nullptr);
  EXPECT_EQ(zend_async_new_socket_event_fn, nullptr);
  EXPECT_EQ(zend_async_new_poll_event_fn, nullptr);
  EXPECT_EQ(zend_async_new_poll_proxy_event_fn, nullptr);
  EXPECT_EQ(zend_async_new_timer_event_fn, nullptr);
  EXPECT_EQ(zend_async_timer_rearm_fn, nullptr);
  EXPECT_EQ(zend_async_new_signal_event_fn, nullptr);
  EXPECT_EQ(zend_async_sigaction_fn, nullptr);
  EXPECT_EQ(zend_async_new_process_event_fn, nullptr);
  EXPECT_EQ(zend_async_new_thread_event_fn, nullptr);
  EXPECT_EQ(zend_async_new_filesystem_event_fn, nullptr);
  EXPECT_EQ(zend_async_getnameinfo_fn, nullptr);
  EXPECT_EQ(zend_async_getaddrinfo_fn, nullptr);
  EXPECT_EQ(zend_async_freeaddrinfo_fn, nullptr);
  EXPECT_EQ(zend_async_new_exec_event_fn, nullptr);
  EXPECT_EQ(zend_async_exec_fn, nullptr);
  EXPECT_EQ(zend_async_new_trigger_event_fn, nullptr);
  EXPECT_EQ(zend_async_available_parallelism_fn, nullptr);
  EXPECT_EQ(zend_async_now_fn, nullptr);
  // Thread pool.
  EXPECT_EQ(zend_async_new_task_fn, nullptr);
  EXPECT_EQ(zend_async_queue_task_fn, nullptr);
  EXPECT_EQ(zend_async_new_thread_pool_fn, nullptr);
  EXPECT_EQ(zend_async_start_thread_fn, nullptr);
  EXPECT_EQ(zend_async_thread_transfer_zval_fn, nullptr);
  EXPECT_EQ(zend_async_thread_load_zval_fn, nullptr);
  EXPECT_EQ(zend_async_thread_transfer_zval_toplevel_fn, nullptr);
  EXPECT_EQ(zend_async_thread_load_zval_toplevel_fn, nullptr);
  EXPECT_EQ(zend_async_thread_release_transferred_zval_fn, nullptr);
  EXPECT_EQ(zend_async_thread_release_transferred_zvals_fn, nullptr);
  EXPECT_EQ(zend_async_thread_xlat_put_fn, nullptr);
  EXPECT_EQ(zend_async_thread_defer_release_fn, nullptr);
  // Async IO.
  EXPECT_EQ(zend_async_io_create_fn, nullptr);
  EXPECT_EQ(zend_async_io_read_fn, nullptr);
  EXPECT_EQ(zend_async_io_write_fn, nullptr);
  EXPECT_EQ(zend_async_io_writev_fn, nullptr);
  EXPECT_EQ(zend_async_io_close_fn, nullptr);
  EXPECT_EQ(zend_async_io_await_fn, nullptr);
  EXPECT_EQ(zend_async_io_flush_fn, nullptr);
  EXPECT_EQ(zend_async_io_stat_fn, nullptr);
  EXPECT_EQ(zend_async_io_seek_fn, nullptr);
  EXPECT_EQ(zend_async_io_sendfile_fn, nullptr);
  EXPECT_EQ(zend_async_fs_open_fn, nullptr);
  EXPECT_EQ(zend_async_udp_sendto_fn, nullptr);
  EXPECT_EQ(zend_async_udp_try_send_fn, nullptr);
  EXPECT_EQ(zend_async_udp_recvfrom_fn, nullptr);
  EXPECT_EQ(zend_async_io_set_option_fn, nullptr);
  EXPECT_EQ(zend_async_udp_set_membership_fn, nullptr);
  EXPECT_EQ(zend_async_udp_bind_fn, nullptr);
}

TEST_F(AbiDefaultsTest, OptionalHooksAreGuardedByTheirMacros) {
  zend_coroutine_t coroutine = MakeCoroutine();
  ZEND_ASYNC_REACTOR_QUIESCE();  // NULL pointer: no call
  EXPECT_FALSE(ZEND_ASYNC_SIGACTION(2));
  EXPECT_EQ(ZEND_ASYNC_COROUTINE_GET_EXECUTE_DATA(&coroutine), nullptr);
}

// v0.24: with no fork hooks registered, BEFORE_FORK lets the fork happen
// and AFTER_FORK_CHILD does nothing.
TEST_F(AbiDefaultsTest,
       WithoutForkHooksBeforeForkAllowsAndAfterForkChildIsANoOp) {
  EXPECT_EQ(zend_async_before_fork_fn, nullptr);
  EXPECT_EQ(zend_async_after_fork_child_fn, nullptr);
  EXPECT_TRUE(ZEND_ASYNC_BEFORE_FORK());
  ZEND_ASYNC_AFTER_FORK_CHILD();
  EXPECT_EQ(EG(exception), nullptr);
}

int fork_hook_calls = 0;
bool RefuseFork() {
  fork_hook_calls += 10;
  return false;
}
void ChildForked() { fork_hook_calls += 1; }

TEST_F(AbiDefaultsTest, ForkRegisterInstallsBothHooksAndTheMacrosCallThem) {
  fork_hook_calls = 0;
  zend_async_fork_register(RefuseFork, ChildForked);
  EXPECT_EQ(zend_async_before_fork_fn, &RefuseFork);
  EXPECT_EQ(zend_async_after_fork_child_fn, &ChildForked);
  EXPECT_FALSE(ZEND_ASYNC_BEFORE_FORK());
  ZEND_ASYNC_AFTER_FORK_CHILD();
  EXPECT_EQ(fork_hook_calls, 11);

  // A later registration replaces both, NULL included.
  zend_async_fork_register(nullptr, nullptr);
  EXPECT_TRUE(ZEND_ASYNC_BEFORE_FORK());
  ZEND_ASYNC_AFTER_FORK_CHILD();
  EXPECT_EQ(fork_hook_calls, 11);
}

TEST_F(AbiDefaultsTest, NothingIsEnabled) {
  EXPECT_FALSE(zend_async_is_enabled());
  EXPECT_FALSE(zend_scheduler_is_enabled());
  EXPECT_FALSE(zend_async_reactor_is_enabled());
  EXPECT_FALSE(zend_async_thread_pool_is_enabled());
}

}  // namespace
}  // namespace zar::abi_testing
