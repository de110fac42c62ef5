// Registration rules of the six register functions (true-async/php-src
// Zend/zend_async_API.c, de8c19de: zend_async_scheduler_register() and the
// other five), the enable probes, zend_async_api_shutdown() and the
// registry reset.

#include "tests/abi/support/registration.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/abi/support/fake_async.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "zend_async_ref/registry_testing.h"
}

namespace zar::abi_testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Module names. Two arrays with the same text are two different modules.
char module_a[] = "ext_a";
char module_b[] = "ext_b";
char module_a_twin[] = "ext_a";

// Distinguishable implementations.
bool LaunchA() { return true; }
bool LaunchB() { return true; }
zend_coroutine_t* SpawnA(zend_async_scope_t*, zend_object*, int32_t) {
  return nullptr;
}
zend_async_waker_t* CustomWakerNew(zend_coroutine_t*) { return nullptr; }
void CustomWakerDestroy(zend_coroutine_t*) {}
bool StartupA() { return true; }
bool StartupB() { return true; }
void QuiesceA() {}
uint64_t NowA() { return 1; }
bool QueueTaskA(zend_async_task_t*) { return true; }
bool QueueTaskB(zend_async_task_t*) { return true; }
zend_async_thread_pool_t* NewThreadPoolA(int32_t, int32_t, const zend_fcall_t*,
                                         bool, int32_t) {
  return nullptr;
}
void PoolCloseA(zend_async_pool_t*) {}
void PoolCloseB(zend_async_pool_t*) {}
zend_async_listen_event_t* ListenA(const char*, int, int, uint32_t, size_t) {
  return nullptr;
}
zend_async_listen_event_t* ListenB(const char*, int, int, uint32_t, size_t) {
  return nullptr;
}
bool IoCloseA(zend_async_io_t*) { return true; }
bool IoCloseB(zend_async_io_t*) { return true; }

// The E_CORE_ERROR of a registration that would override another module's.
std::string OverrideMessage(const std::string& group, const std::string& module,
                            const std::string& previous) {
  return "The module " + module + " is trying to override " + group +
         ", which was registered by the module " + previous + ".";
}
// The same as the error log has it.
std::string OverrideError(const std::string& group, const std::string& module,
                          const std::string& previous) {
  return "E_CORE_ERROR: " + OverrideMessage(group, module, previous);
}

class AbiRegistrationTest : public zar::testing::RequestFixture {
 protected:
  // The request still has to end, and its shutdown calls the scheduler's
  // suspend: put the defaults back before the fixture ends it.
  void TearDown() override {
    zend_async_ref_reset_registry();
    RequestFixture::TearDown();
  }
};

// ---- Scheduler --------------------------------------------------------------

TEST_F(AbiRegistrationTest, FirstSchedulerRegistrationInstallsItsPointers) {
  EXPECT_FALSE(zend_scheduler_is_enabled());

  EXPECT_TRUE(RegisterScheduler(
      module_a, false, {.scheduler_launch = LaunchA, .spawn = SpawnA}));

  EXPECT_TRUE(zend_scheduler_is_enabled());
  EXPECT_EQ(zend_async_scheduler_launch_fn, &LaunchA);
  EXPECT_EQ(zend_async_spawn_fn, &SpawnA);
  // Every other pointer is copied as given, NULL included.
  EXPECT_EQ(zend_async_suspend_fn, nullptr);
  EXPECT_EQ(zend_async_new_context_fn, nullptr);
  EXPECT_EQ(zend_async_get_class_ce_fn, nullptr);
  EXPECT_EQ(zend_async_add_microtask_fn, nullptr);
  EXPECT_THAT(ErrorLog(), IsEmpty());
}

TEST_F(AbiRegistrationTest,
       SecondSchedulerFromAnotherModuleIsRejectedWithCoreError) {
  ExpectFatalErrors({OverrideMessage("Scheduler", "ext_b", "ext_a")});
  ASSERT_TRUE(
      RegisterScheduler(module_a, false, {.scheduler_launch = LaunchA}));

  EXPECT_FALSE(
      RegisterScheduler(module_b, false, {.scheduler_launch = LaunchB}));

  EXPECT_THAT(ErrorLog(),
              ElementsAre(OverrideError("Scheduler", "ext_b", "ext_a")));
  EXPECT_EQ(zend_async_scheduler_launch_fn, &LaunchA);
}

TEST_F(AbiRegistrationTest, SchedulerIdentityIsTheModulePointerNotItsText) {
  ExpectFatalErrors({OverrideMessage("Scheduler", "ext_a", "ext_a")});
  ASSERT_TRUE(
      RegisterScheduler(module_a, false, {.scheduler_launch = LaunchA}));

  EXPECT_FALSE(
      RegisterScheduler(module_a_twin, false, {.scheduler_launch = LaunchB}));

  EXPECT_THAT(ErrorLog(),
              ElementsAre(OverrideError("Scheduler", "ext_a", "ext_a")));
  EXPECT_EQ(zend_async_scheduler_launch_fn, &LaunchA);
}

TEST_F(AbiRegistrationTest, SchedulerLockIsReleasedBeforeTheOverrideError) {
  ExpectFatalErrors({OverrideMessage("Scheduler", "ext_b", "ext_a")});
  ASSERT_TRUE(
      RegisterScheduler(module_a, false, {.scheduler_launch = LaunchA}));
  ASSERT_FALSE(
      RegisterScheduler(module_b, false, {.scheduler_launch = LaunchB}));

  // The failed attempt left the lock free: an override now goes through.
  EXPECT_TRUE(RegisterScheduler(module_b, true, {.scheduler_launch = LaunchB}));
  EXPECT_EQ(zend_async_scheduler_launch_fn, &LaunchB);
}

TEST_F(AbiRegistrationTest, SchedulerOverrideReplacesEveryPointer) {
  ASSERT_TRUE(RegisterScheduler(
      module_a, false, {.scheduler_launch = LaunchA, .spawn = SpawnA}));

  EXPECT_TRUE(RegisterScheduler(module_b, true, {.scheduler_launch = LaunchB}));

  EXPECT_EQ(zend_async_scheduler_launch_fn, &LaunchB);
  EXPECT_EQ(zend_async_spawn_fn, nullptr);
  EXPECT_THAT(ErrorLog(), IsEmpty());
}

TEST_F(AbiRegistrationTest,
       SameSchedulerModuleReturnsTrueChangesNothingAndKeepsTheLock) {
  ASSERT_TRUE(
      RegisterScheduler(module_a, false, {.scheduler_launch = LaunchA}));

  EXPECT_TRUE(
      RegisterScheduler(module_a, false, {.scheduler_launch = LaunchB}));
  EXPECT_EQ(zend_async_scheduler_launch_fn, &LaunchA);

  // The same-module path leaves the lock held: every later registration of
  // the group fails silently, even with allow_override.
  EXPECT_FALSE(
      RegisterScheduler(module_b, true, {.scheduler_launch = LaunchB}));
  EXPECT_FALSE(
      RegisterScheduler(module_a, false, {.scheduler_launch = LaunchB}));
  EXPECT_EQ(zend_async_scheduler_launch_fn, &LaunchA);
  EXPECT_THAT(ErrorLog(), IsEmpty());
}

TEST_F(AbiRegistrationTest, SchedulerNullWakerFunctionsFallBackToTheDefaults) {
  const zend_async_waker_new_t default_new = zend_async_waker_new_fn;
  const zend_async_waker_destroy_t default_destroy =
      zend_async_waker_destroy_fn;
  ASSERT_NE(default_new, nullptr);
  ASSERT_NE(default_destroy, nullptr);

  ASSERT_TRUE(RegisterScheduler(
      module_a, false,
      {.waker_new = CustomWakerNew, .waker_destroy = CustomWakerDestroy}));
  EXPECT_EQ(zend_async_waker_new_fn, &CustomWakerNew);
  EXPECT_EQ(zend_async_waker_destroy_fn, &CustomWakerDestroy);

  ASSERT_TRUE(RegisterScheduler(module_b, true, {}));
  EXPECT_EQ(zend_async_waker_new_fn, default_new);
  EXPECT_EQ(zend_async_waker_destroy_fn, default_destroy);
}

// ---- Reactor ----------------------------------------------------------------

TEST_F(AbiRegistrationTest, FirstReactorRegistrationInstallsItsPointers) {
  EXPECT_FALSE(zend_async_reactor_is_enabled());

  EXPECT_TRUE(
      RegisterReactor(module_a, false,
                      {.startup = StartupA, .quiesce = QuiesceA, .now = NowA}));

  EXPECT_TRUE(zend_async_reactor_is_enabled());
  EXPECT_EQ(zend_async_reactor_startup_fn, &StartupA);
  EXPECT_EQ(zend_async_reactor_quiesce_fn, &QuiesceA);
  EXPECT_EQ(zend_async_now_fn, &NowA);
  EXPECT_EQ(zend_async_new_timer_event_fn, nullptr);
  EXPECT_THAT(ErrorLog(), IsEmpty());
}

TEST_F(AbiRegistrationTest,
       SecondReactorFromAnotherModuleIsRejectedAndKeepsTheLockHeld) {
  ExpectFatalErrors({OverrideMessage("Reactor", "ext_b", "ext_a")});
  ASSERT_TRUE(RegisterReactor(module_a, false, {.startup = StartupA}));

  EXPECT_FALSE(RegisterReactor(module_b, false, {.startup = StartupB}));
  EXPECT_THAT(ErrorLog(),
              ElementsAre(OverrideError("Reactor", "ext_b", "ext_a")));

  // Unlike the scheduler, the reactor's error path keeps its lock: even an
  // override now fails silently.
  EXPECT_FALSE(RegisterReactor(module_b, true, {.startup = StartupB}));
  EXPECT_EQ(ErrorLog().size(), 1u);
  EXPECT_EQ(zend_async_reactor_startup_fn, &StartupA);
}

TEST_F(AbiRegistrationTest, ReactorOverrideReplacesEveryPointer) {
  ASSERT_TRUE(
      RegisterReactor(module_a, false, {.startup = StartupA, .now = NowA}));

  EXPECT_TRUE(RegisterReactor(module_b, true, {.startup = StartupB}));

  EXPECT_EQ(zend_async_reactor_startup_fn, &StartupB);
  EXPECT_EQ(zend_async_now_fn, nullptr);
}

TEST_F(AbiRegistrationTest, SameReactorModuleReturnsTrueAndKeepsTheLock) {
  ASSERT_TRUE(RegisterReactor(module_a, false, {.startup = StartupA}));

  EXPECT_TRUE(RegisterReactor(module_a, false, {.startup = StartupB}));
  EXPECT_EQ(zend_async_reactor_startup_fn, &StartupA);

  EXPECT_FALSE(RegisterReactor(module_b, true, {.startup = StartupB}));
  EXPECT_EQ(zend_async_reactor_startup_fn, &StartupA);
  EXPECT_THAT(ErrorLog(), IsEmpty());
}

// ---- Enable probes
// ------------------------------------------------------------

TEST_F(AbiRegistrationTest, AsyncIsEnabledOnlyWithSchedulerAndReactor) {
  EXPECT_FALSE(zend_async_is_enabled());
  EXPECT_FALSE(ZEND_ASYNC_IS_ENABLED());

  ASSERT_TRUE(RegisterScheduler(module_a, false, {}));
  EXPECT_FALSE(zend_async_is_enabled());
  EXPECT_TRUE(zend_scheduler_is_enabled());
  EXPECT_FALSE(zend_async_reactor_is_enabled());

  ASSERT_TRUE(RegisterReactor(module_b, false, {}));
  EXPECT_TRUE(zend_async_is_enabled());
  EXPECT_TRUE(ZEND_ASYNC_IS_ENABLED());
  EXPECT_TRUE(ZEND_ASYNC_REACTOR_IS_ENABLED());
}

// ---- Thread pool
// --------------------------------------------------------------

TEST_F(AbiRegistrationTest, ThreadPoolIsEnabledByItsQueueTaskPointer) {
  EXPECT_FALSE(zend_async_thread_pool_is_enabled());

  RegisterThreadPool(module_a, false, {.queue_task = QueueTaskA});

  EXPECT_TRUE(zend_async_thread_pool_is_enabled());
  EXPECT_EQ(zend_async_queue_task_fn, &QueueTaskA);

  // A registration without queue_task disables it again.
  RegisterThreadPool(module_a, true, {});
  EXPECT_FALSE(zend_async_thread_pool_is_enabled());
}

TEST_F(AbiRegistrationTest,
       ThreadPoolFromAnotherModuleReportsCoreErrorAndStillOverwrites) {
  ExpectFatalErrors({OverrideMessage("Thread Pool", "ext_b", "ext_a"),
                     OverrideMessage("Thread Pool", "ext_a", "ext_b")});
  RegisterThreadPool(module_a, false, {.queue_task = QueueTaskA});

  RegisterThreadPool(module_b, false, {.queue_task = QueueTaskB});

  EXPECT_THAT(ErrorLog(),
              ElementsAre(OverrideError("Thread Pool", "ext_b", "ext_a")));
  EXPECT_EQ(zend_async_queue_task_fn, &QueueTaskB);

  // ext_b is now the registered module.
  RegisterThreadPool(module_a, false, {.queue_task = QueueTaskA});
  EXPECT_EQ(ErrorLog().back(), OverrideError("Thread Pool", "ext_a", "ext_b"));
  EXPECT_EQ(zend_async_queue_task_fn, &QueueTaskA);
}

TEST_F(AbiRegistrationTest, ThreadPoolHasNoLockAndNoSameModuleCheck) {
  ExpectFatalErrors({OverrideMessage("Thread Pool", "ext_a", "ext_a")});
  RegisterThreadPool(module_a, false, {.queue_task = QueueTaskA});

  RegisterThreadPool(module_a, false, {.queue_task = QueueTaskB});
  EXPECT_THAT(ErrorLog(),
              ElementsAre(OverrideError("Thread Pool", "ext_a", "ext_a")));
  EXPECT_EQ(zend_async_queue_task_fn, &QueueTaskB);

  RegisterThreadPool(module_b, true, {.queue_task = QueueTaskA});
  EXPECT_EQ(ErrorLog().size(), 1u);
  EXPECT_EQ(zend_async_queue_task_fn, &QueueTaskA);
}

// ---- Pool API
// -----------------------------------------------------------------

TEST_F(AbiRegistrationTest, PoolApiRegistrationReplacesTheSixStubs) {
  RegisterPoolApi(module_a, false, {.close = PoolCloseA});

  EXPECT_EQ(zend_async_pool_close_fn, &PoolCloseA);
  EXPECT_EQ(zend_async_new_pool_fn, nullptr);
  EXPECT_EQ(zend_async_new_pool_obj_fn, nullptr);
  EXPECT_EQ(zend_async_pool_acquire_fn, nullptr);
  EXPECT_EQ(zend_async_pool_try_acquire_fn, nullptr);
  EXPECT_EQ(zend_async_pool_release_fn, nullptr);
  EXPECT_THAT(ErrorLog(), IsEmpty());
}

TEST_F(AbiRegistrationTest, PoolApiSameModuleTwiceReportsCoreErrorAndKeeps) {
  ExpectFatalErrors({OverrideMessage("Pool API", "ext_a", "ext_a")});
  RegisterPoolApi(module_a, false, {.close = PoolCloseA});

  RegisterPoolApi(module_a, false, {.close = PoolCloseB});

  EXPECT_THAT(ErrorLog(),
              ElementsAre(OverrideError("Pool API", "ext_a", "ext_a")));
  EXPECT_EQ(zend_async_pool_close_fn, &PoolCloseA);
}

TEST_F(AbiRegistrationTest, PoolApiFromAnotherModuleIsRejectedWithoutOverride) {
  ExpectFatalErrors({OverrideMessage("Pool API", "ext_b", "ext_a")});
  RegisterPoolApi(module_a, false, {.close = PoolCloseA});

  RegisterPoolApi(module_b, false, {.close = PoolCloseB});
  EXPECT_THAT(ErrorLog(),
              ElementsAre(OverrideError("Pool API", "ext_b", "ext_a")));
  EXPECT_EQ(zend_async_pool_close_fn, &PoolCloseA);

  // No lock: an override right after goes through.
  RegisterPoolApi(module_b, true, {.close = PoolCloseB});
  EXPECT_EQ(zend_async_pool_close_fn, &PoolCloseB);
  EXPECT_EQ(ErrorLog().size(), 1u);
}

// ---- Socket listening -----------------------------------------------------

TEST_F(AbiRegistrationTest, SocketListeningFirstRegistrationSucceeds) {
  EXPECT_TRUE(
      zend_async_socket_listening_register(module_a, false, ListenA, nullptr));
  EXPECT_EQ(zend_async_socket_listen_fn, &ListenA);
  EXPECT_EQ(zend_async_socket_listen_fd_fn, nullptr);
}

TEST_F(AbiRegistrationTest,
       SocketListeningNeverReleasesItsLockSoOnlyTheFirstRegistrationWins) {
  ASSERT_TRUE(
      zend_async_socket_listening_register(module_a, false, ListenA, nullptr));

  EXPECT_FALSE(
      zend_async_socket_listening_register(module_b, true, ListenB, nullptr));
  EXPECT_FALSE(
      zend_async_socket_listening_register(module_a, false, ListenB, nullptr));
  EXPECT_EQ(zend_async_socket_listen_fn, &ListenA);
  EXPECT_THAT(ErrorLog(), IsEmpty());
}

// ---- Async IO
// -----------------------------------------------------------------

TEST_F(AbiRegistrationTest, IoRegistrationReleasesItsLockOnSuccess) {
  ASSERT_TRUE(RegisterIo(module_a, false, {.close = IoCloseA}));
  EXPECT_EQ(zend_async_io_close_fn, &IoCloseA);

  EXPECT_TRUE(RegisterIo(module_b, true, {.close = IoCloseB}));
  EXPECT_EQ(zend_async_io_close_fn, &IoCloseB);
  EXPECT_EQ(zend_async_io_read_fn, nullptr);
}

TEST_F(AbiRegistrationTest,
       IoFromAnotherModuleIsRejectedWithCoreErrorAndKeepsTheLockHeld) {
  ExpectFatalErrors({OverrideMessage("Async IO API", "ext_b", "ext_a")});
  ASSERT_TRUE(RegisterIo(module_a, false, {.close = IoCloseA}));

  EXPECT_FALSE(RegisterIo(module_b, false, {.close = IoCloseB}));
  EXPECT_THAT(ErrorLog(),
              ElementsAre(OverrideError("Async IO API", "ext_b", "ext_a")));

  EXPECT_FALSE(RegisterIo(module_b, true, {.close = IoCloseB}));
  EXPECT_EQ(ErrorLog().size(), 1u);
  EXPECT_EQ(zend_async_io_close_fn, &IoCloseA);
}

TEST_F(AbiRegistrationTest, SameIoModuleReturnsTrueAndKeepsTheLock) {
  ASSERT_TRUE(RegisterIo(module_a, false, {.close = IoCloseA}));

  EXPECT_TRUE(RegisterIo(module_a, false, {.close = IoCloseB}));
  EXPECT_EQ(zend_async_io_close_fn, &IoCloseA);

  EXPECT_FALSE(RegisterIo(module_b, true, {.close = IoCloseB}));
  EXPECT_EQ(zend_async_io_close_fn, &IoCloseA);
}

// ---- zend_async_api_shutdown ----------------------------------------------

TEST_F(AbiRegistrationTest, ApiShutdownResetsExactlyTheListedGuards) {
  ExpectFatalErrors({OverrideMessage("Async IO API", "ext_b", "ext_a")});
  ASSERT_TRUE(
      RegisterScheduler(module_a, false, {.scheduler_launch = LaunchA}));
  ASSERT_TRUE(RegisterReactor(module_a, false,
                              {.startup = StartupA, .quiesce = QuiesceA}));
  RegisterThreadPool(
      module_a, false,
      {.queue_task = QueueTaskA, .new_thread_pool = NewThreadPoolA});
  RegisterPoolApi(module_a, false, {.close = PoolCloseA});
  ASSERT_TRUE(RegisterIo(module_a, false, {.close = IoCloseA}));

  zend_async_api_shutdown();

  // Reset: scheduler, reactor, pool and thread pool names; two pointers.
  EXPECT_FALSE(zend_scheduler_is_enabled());
  EXPECT_FALSE(zend_async_reactor_is_enabled());
  EXPECT_EQ(zend_async_new_thread_pool_fn, nullptr);
  EXPECT_EQ(zend_async_reactor_quiesce_fn, nullptr);
  // Not reset: every other pointer.
  EXPECT_EQ(zend_async_scheduler_launch_fn, &LaunchA);
  EXPECT_EQ(zend_async_reactor_startup_fn, &StartupA);
  EXPECT_EQ(zend_async_queue_task_fn, &QueueTaskA);
  EXPECT_EQ(zend_async_pool_close_fn, &PoolCloseA);
  EXPECT_EQ(zend_async_io_close_fn, &IoCloseA);

  // The reset names accept another module without an override error.
  EXPECT_TRUE(
      RegisterScheduler(module_b, false, {.scheduler_launch = LaunchB}));
  EXPECT_TRUE(RegisterReactor(module_b, false, {.startup = StartupB}));
  RegisterThreadPool(module_b, false, {.queue_task = QueueTaskB});
  RegisterPoolApi(module_b, false, {.close = PoolCloseB});
  EXPECT_THAT(ErrorLog(), IsEmpty());

  // The IO name is not reset.
  EXPECT_FALSE(RegisterIo(module_b, false, {.close = IoCloseB}));
  EXPECT_THAT(ErrorLog(),
              ElementsAre(OverrideError("Async IO API", "ext_b", "ext_a")));
}

TEST_F(AbiRegistrationTest, ApiShutdownDoesNotReleaseRegistrationLocks) {
  ASSERT_TRUE(RegisterScheduler(module_a, false, {}));
  ASSERT_TRUE(RegisterScheduler(module_a, false, {}));  // lock left held

  zend_async_api_shutdown();

  EXPECT_FALSE(zend_scheduler_is_enabled());
  EXPECT_FALSE(RegisterScheduler(module_b, false, {}));
  EXPECT_FALSE(zend_scheduler_is_enabled());
}

TEST_F(AbiRegistrationTest, ApiShutdownLeavesTheSocketListeningNameAndLock) {
  ASSERT_TRUE(
      zend_async_socket_listening_register(module_a, false, ListenA, nullptr));
  zend_async_api_shutdown();
  EXPECT_FALSE(
      zend_async_socket_listening_register(module_b, true, ListenB, nullptr));
  EXPECT_EQ(zend_async_socket_listen_fn, &ListenA);
}

// ---- zend_async_ref_reset_registry ---------------------------------------

TEST_F(AbiRegistrationTest, ResetRegistryRestoresProcessStartDefaults) {
  const zend_async_spawn_t spawn = zend_async_spawn_fn;
  const zend_async_new_context_t new_context = zend_async_new_context_fn;
  const zend_async_waker_new_t waker_new = zend_async_waker_new_fn;
  const zend_async_pool_close_t pool_close = zend_async_pool_close_fn;
  const zend_async_socket_listen_t listen = zend_async_socket_listen_fn;
  const zend_async_call_on_main_stack_t on_main =
      zend_async_call_on_main_stack_fn;

  ASSERT_TRUE(RegisterScheduler(
      module_a, false, {.spawn = SpawnA, .waker_new = CustomWakerNew}));
  ASSERT_TRUE(RegisterScheduler(module_a, false, {}));  // scheduler lock held
  ASSERT_TRUE(RegisterReactor(module_a, false, {.startup = StartupA}));
  RegisterThreadPool(module_a, false, {.queue_task = QueueTaskA});
  RegisterPoolApi(module_a, false, {.close = PoolCloseA});
  ASSERT_TRUE(
      zend_async_socket_listening_register(module_a, false, ListenA, nullptr));
  ASSERT_TRUE(RegisterIo(module_a, false, {.close = IoCloseA}));
  zend_async_call_on_main_stack_fn = nullptr;

  zend_async_ref_reset_registry();

  EXPECT_EQ(zend_async_spawn_fn, spawn);
  EXPECT_EQ(zend_async_new_context_fn, new_context);
  EXPECT_EQ(zend_async_waker_new_fn, waker_new);
  EXPECT_EQ(zend_async_pool_close_fn, pool_close);
  EXPECT_EQ(zend_async_socket_listen_fn, listen);
  EXPECT_EQ(zend_async_call_on_main_stack_fn, on_main);
  EXPECT_EQ(zend_async_reactor_startup_fn, nullptr);
  EXPECT_EQ(zend_async_queue_task_fn, nullptr);
  EXPECT_EQ(zend_async_io_close_fn, nullptr);
  EXPECT_FALSE(zend_async_is_enabled());
  EXPECT_FALSE(zend_scheduler_is_enabled());
  EXPECT_FALSE(zend_async_thread_pool_is_enabled());

  // Every group accepts a first registration again (all four locks free).
  EXPECT_TRUE(RegisterScheduler(module_b, false, {}));
  EXPECT_TRUE(RegisterReactor(module_b, false, {}));
  EXPECT_TRUE(
      zend_async_socket_listening_register(module_b, false, ListenB, nullptr));
  EXPECT_TRUE(RegisterIo(module_b, false, {}));
  RegisterPoolApi(module_b, false, {});
  RegisterThreadPool(module_b, false, {});
  EXPECT_THAT(ErrorLog(), IsEmpty());
}

// ---- Version and heartbeat ------------------------------------------------

TEST_F(AbiRegistrationTest, VersionIsZeroTwentySixZero) {
  EXPECT_EQ(ZEND_ASYNC_API_VERSION_MAJOR, 0);
  EXPECT_EQ(ZEND_ASYNC_API_VERSION_MINOR, 26);
  EXPECT_EQ(ZEND_ASYNC_API_VERSION_PATCH, 0);
  EXPECT_EQ(ZEND_ASYNC_API_VERSION_NUMBER, 0x001A00);
  EXPECT_EQ(ZEND_ASYNC_API_VERSION_NUMBER, 6656);
  EXPECT_EQ(zend_async_get_api_version_number(), 6656);
  EXPECT_STREQ(ZEND_ASYNC_API, "TrueAsync ABI v0.26.0");
  EXPECT_STREQ(zend_async_get_api_version(), "TrueAsync ABI v0.26.0");
}

int heartbeat_calls = 0;
void HeartbeatA() { heartbeat_calls++; }
void HeartbeatB() {}

TEST_F(AbiRegistrationTest, HeartbeatHandlerSetReturnsThePreviousOne) {
  heartbeat_calls = 0;
  EXPECT_EQ(zend_async_get_heartbeat_handler(), nullptr);

  EXPECT_EQ(zend_async_set_heartbeat_handler(HeartbeatA), nullptr);
  EXPECT_EQ(zend_async_get_heartbeat_handler(), &HeartbeatA);
  ZEND_ASYNC_SCHEDULER_HEARTBEAT;
  EXPECT_EQ(heartbeat_calls, 1);

  EXPECT_EQ(zend_async_set_heartbeat_handler(HeartbeatB), &HeartbeatA);
  EXPECT_EQ(zend_async_set_heartbeat_handler(nullptr), &HeartbeatB);
  ZEND_ASYNC_SCHEDULER_HEARTBEAT;  // no handler: nothing happens
  EXPECT_EQ(heartbeat_calls, 1);
}

TEST_F(AbiRegistrationTest, HeartbeatFlagIsSetOnlyByHandlersAndClearedByWait) {
  EXPECT_FALSE(ZEND_ASYNC_SCHEDULER_ALIVE);
  zend_atomic_bool_store(&ZEND_ASYNC_G(heartbeat), true);
  EXPECT_TRUE(ZEND_ASYNC_SCHEDULER_ALIVE);
  ZEND_ASYNC_SCHEDULER_WAIT;
  EXPECT_FALSE(ZEND_ASYNC_SCHEDULER_ALIVE);
}

}  // namespace
}  // namespace zar::abi_testing
