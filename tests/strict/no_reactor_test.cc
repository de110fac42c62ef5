// Strict mode and an extension that registers the scheduler and the pool
// but no reactor: the scheduler cannot launch, so an acquire that would
// have to wait outside a coroutine (and Async\Pool::acquire, which always
// launches first) is reported with the call and the launch's error.

#include <string>
#include <vector>

#include "core/observability.h"
#include "core/pool/registration.h"
#include "core/scheduler/async_classes.h"
#include "core/scheduler/registration.h"
#include "core/scheduler/scheduler.h"
#include "pdo_sim/client.h"
#include "tests/strict/support/strict_test.h"

namespace zar::strict_testing {
namespace {

zend_result Startup(INIT_FUNC_ARGS) {
  (void)type;
  (void)module_number;
  core::ObservabilityModuleStartup();
  if (!core::RegisterClasses() || !core::RegisterPoolExceptionClass() ||
      !core::RegisterPoolClasses() || !core::RegisterScheduler()) {
    return FAILURE;
  }
  core::RegisterPool();
  return SUCCESS;
}

zend_result Shutdown(SHUTDOWN_FUNC_ARGS) {
  (void)type;
  (void)module_number;
  core::ReleaseRequestState();
  core::ObservabilityModuleShutdown();
  core::ForgetPoolClasses();
  core::ForgetClasses();
  return SUCCESS;
}

zend_result RequestStartup(INIT_FUNC_ARGS) {
  (void)type;
  (void)module_number;
  ZEND_ASYNC_INITIALIZE;
  core::ObservabilityRequestStartup();
  return SUCCESS;
}

zend_result RequestShutdown(SHUTDOWN_FUNC_ARGS) {
  (void)type;
  (void)module_number;
  core::ReportLeftoversAtRequestEnd();
  core::ReleaseRequestState();
  core::ObservabilityRequestShutdown();
  return SUCCESS;
}

zend_module_entry no_reactor_module = {
    STANDARD_MODULE_HEADER,
    "scheduler_without_reactor",
    nullptr,
    Startup,
    Shutdown,
    RequestStartup,
    RequestShutdown,
    nullptr,
    "1.0",
    STANDARD_MODULE_PROPERTIES,
};

class NoReactorTest : public StrictTest {
 protected:
  std::vector<zend_module_entry*> Modules() override {
    return {&no_reactor_module};
  }
};

TEST_F(NoReactorTest, WaitingOutsideACoroutineNamesTheLaunchError) {
  RunMain([&] {
    zend_async_pool_t* pool = IntPool(1);
    zval held;
    ASSERT_TRUE(ZEND_ASYNC_POOL_ACQUIRE(pool, &held, 0));  // no wait
    zval resource;
    EXPECT_FALSE(ZEND_ASYNC_POOL_ACQUIRE(pool, &resource, 0));
    EXPECT_EQ(TakeException(),
              "Async\\AsyncException \"The scheduler cannot be started "
              "without the Reactor\"");
    EXPECT_EQ(Diagnostics(),
              Strings{"ZEND_ASYNC_POOL_ACQUIRE: Pool#1 Pool(idle=0, active=1, "
                      "reserved=0, max=1): cannot wait outside a coroutine: "
                      "the scheduler cannot be launched (Async\\AsyncException "
                      "\"The scheduler cannot be started without the "
                      "Reactor\")"});
    ZEND_ASYNC_POOL_RELEASE(pool, &held);
    ExpectInfoAndRelease(pool, "Pool(idle=1, active=0, reserved=0, max=1)");
  });
}

TEST_F(NoReactorTest, AsyncPoolAcquireNamesTheMethod) {
  RunMain([&] {
    zval object;
    ZVAL_OBJ(&object, PhpIntPool(1));
    pdo_sim::Zval resource = pdo_sim::CallMethod(&object, "acquire");
    EXPECT_TRUE(resource.undef());
    EXPECT_EQ(TakeException(),
              "Async\\AsyncException \"The scheduler cannot be started "
              "without the Reactor\"");
    EXPECT_EQ(Diagnostics(),
              Strings{"Async\\Pool::acquire: Pool#1 Pool(idle=0, active=0, "
                      "reserved=0, max=1): cannot acquire outside a "
                      "coroutine: the scheduler cannot be launched "
                      "(Async\\AsyncException \"The scheduler cannot be "
                      "started without the Reactor\")"});
    zval_ptr_dtor(&object);
  });
}

}  // namespace
}  // namespace zar::strict_testing
