// Tests of the mock PHP lifecycle: module and request hooks in PHP's
// order, shutdown callbacks, the request report, and the RAII helpers.

#include "mock_zend/lifecycle.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "mock_zend/callable.h"
#include "mock_zend/class_builder.h"
#include "mock_zend/inspect.h"
#include "tests/mock_zend/support/engine_test.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace {

using zar::mock_zend_testing::CallFunctionByName;
using zar::mock_zend_testing::LoggingHook;

std::vector<std::string> events;
bool fail_minit = false;

zend_result FirstMinit(INIT_FUNC_ARGS) {
  events.push_back("MINIT first #" + std::to_string(module_number) + " type " +
                   std::to_string(type));
  return SUCCESS;
}
zend_result SecondMinit(INIT_FUNC_ARGS) {
  (void)type;
  events.push_back("MINIT second #" + std::to_string(module_number));
  return fail_minit ? FAILURE : SUCCESS;
}
constexpr char kFirstMshutdown[] = "MSHUTDOWN first";
constexpr char kFirstRinit[] = "RINIT first";
constexpr char kFirstRshutdown[] = "RSHUTDOWN first";
constexpr char kSecondMshutdown[] = "MSHUTDOWN second";
constexpr char kSecondRinit[] = "RINIT second";
constexpr char kSecondRshutdown[] = "RSHUTDOWN second";

void ModuleFunction(INTERNAL_FUNCTION_PARAMETERS) {
  (void)execute_data;
  RETURN_LONG(99);
}
ZEND_BEGIN_ARG_INFO_EX(arginfo_module_function, 0, 0, 0)
ZEND_END_ARG_INFO()
// clang-format off
const zend_function_entry kModuleFunctions[] = {
    ZEND_RAW_FENTRY("module_function", ModuleFunction, arginfo_module_function,
                    0, nullptr, nullptr)
    ZEND_FE_END};
// clang-format on

zend_module_entry first_module = {
    STANDARD_MODULE_HEADER,
    "first",
    kModuleFunctions,
    FirstMinit,
    LoggingHook<&events, kFirstMshutdown, true>,
    LoggingHook<&events, kFirstRinit>,
    LoggingHook<&events, kFirstRshutdown>,
    nullptr,
    "1.0",
    STANDARD_MODULE_PROPERTIES,
};

zend_module_entry second_module = {
    STANDARD_MODULE_HEADER,
    "second",
    nullptr,
    SecondMinit,
    LoggingHook<&events, kSecondMshutdown>,
    LoggingHook<&events, kSecondRinit>,
    LoggingHook<&events, kSecondRshutdown>,
    nullptr,
    "1.0",
    STANDARD_MODULE_PROPERTIES,
};

class MockZendLifecycleTest : public zar::testing::RequestFixture {
 protected:
  std::vector<zend_module_entry*> Modules() override {
    events.clear();
    fail_minit = false;
    return {&first_module, &second_module};
  }
};

TEST(MockZendLifecycle, HooksRunInPhpsOrder) {
  events.clear();
  fail_minit = false;
  {
    mock_zend::Engine engine({&first_module, &second_module});
    ASSERT_TRUE(engine.started());
    {
      mock_zend::Request request;
      EXPECT_TRUE(request.RunMain([] { events.push_back("main"); }));
      const zend_mm_leak_info leaks = request.Finish();
      EXPECT_EQ(leaks.leaked_blocks, 0u);
      events.push_back("request finished");
    }
  }
  EXPECT_EQ(events,
            (std::vector<std::string>{
                "MINIT first #0 type 1", "MINIT second #1", "RINIT first",
                "RINIT second", "main", "RSHUTDOWN second", "RSHUTDOWN first",
                "request finished", "MSHUTDOWN second", "MSHUTDOWN first #0"}));
  EXPECT_FALSE(php_module_started());
}

// PHP's zend_deactivate calls ZEND_ASYNC_ENGINE_SHUTDOWN() after
// shutdown_executor(): after RSHUTDOWN, once every object is destroyed.
TEST(MockZendLifecycle, TheEngineShutdownHookRunsOnceAfterTheObjectStore) {
  events.clear();
  fail_minit = false;
  const zend_async_engine_shutdown_t saved = zend_async_engine_shutdown_fn;
  {
    mock_zend::Engine engine({&first_module, &second_module});
    ASSERT_TRUE(engine.started());
    zend_async_engine_shutdown_fn = [] {
      events.push_back("engine shutdown, " +
                       std::to_string(zend_objects_store_live_count()) +
                       " objects alive");
      return true;
    };
    {
      mock_zend::Request request;
      // Left alive: the object store destroys it.
      (void)zend_objects_new(zend_standard_class_def);
      const zend_mm_leak_info leaks = request.Finish();
      EXPECT_EQ(leaks.leaked_blocks, 0u);
      EXPECT_EQ(php_mock_last_request_report().objects_alive_at_shutdown, 1u);
    }
    zend_async_engine_shutdown_fn = saved;
  }
  EXPECT_EQ(events, (std::vector<std::string>{
                        "MINIT first #0 type 1", "MINIT second #1",
                        "RINIT first", "RINIT second", "RSHUTDOWN second",
                        "RSHUTDOWN first", "engine shutdown, 0 objects alive",
                        "MSHUTDOWN second", "MSHUTDOWN first #0"}));
}

TEST(MockZendLifecycle,
     AFailingMinitFailsStartupAndOnlyStartedModulesShutDown) {
  events.clear();
  fail_minit = true;
  {
    mock_zend::Engine engine({&first_module, &second_module});
    EXPECT_FALSE(engine.started());
    EXPECT_TRUE(php_module_started());
  }
  fail_minit = false;
  EXPECT_FALSE(php_module_started());
  EXPECT_EQ(events, (std::vector<std::string>{"MINIT first #0 type 1",
                                              "MINIT second #1",
                                              "MSHUTDOWN first #0"}));
}

TEST(MockZendLifecycle, ClassBuilderMethodBodiesAreFreedAtModuleShutdown) {
  auto marker = std::make_shared<int>(0);
  {
    mock_zend::Engine engine;
    mock_zend::ClassBuilder("Holder")
        .Method("run", [marker](mock_zend::Call&) {})
        .Build();
    EXPECT_EQ(marker.use_count(), 2);
  }
  EXPECT_EQ(marker.use_count(), 1);
}

TEST_F(MockZendLifecycleTest, StartingAgainIsANoOpThatSucceedsAsInPhp) {
  EXPECT_TRUE(php_module_started());
  events.clear();
  EXPECT_EQ(php_module_startup(&php_mock_sapi_module, &first_module), SUCCESS);
  EXPECT_TRUE(events.empty());  // no MINIT ran again
  mock_zend::Engine second;
  EXPECT_FALSE(second.started());
}

TEST_F(MockZendLifecycleTest, ModuleFunctionsAreRegisteredAtStartup) {
  zval result = CallFunctionByName("module_function");
  EXPECT_EQ(Z_LVAL(result), 99);
}

TEST_F(MockZendLifecycleTest, ShutdownCallbacksRunInOrderBeforeRshutdown) {
  php_mock_register_shutdown_callback(
      [](void* arg) {
        static_cast<std::vector<std::string>*>(arg)->push_back("callback 1");
      },
      &events);
  php_mock_register_shutdown_callback(
      [](void* arg) {
        static_cast<std::vector<std::string>*>(arg)->push_back("callback 2");
      },
      &events);
  ShutdownRequest();
  EXPECT_EQ(events, (std::vector<std::string>{
                        "MINIT first #0 type 1", "MINIT second #1",
                        "RINIT first", "RINIT second", "callback 1",
                        "callback 2", "RSHUTDOWN second", "RSHUTDOWN first"}));
}

TEST_F(MockZendLifecycleTest, CallbacksOfAnEndedRequestDoNotRunAgain) {
  int calls = 0;
  php_mock_register_shutdown_callback(
      [](void* arg) { ++*static_cast<int*>(arg); }, &calls);
  ShutdownRequest();
  ASSERT_EQ(php_request_startup(), SUCCESS);
  php_request_shutdown(nullptr);
  EXPECT_EQ(calls, 1);
}

TEST_F(MockZendLifecycleTest, ObjectsReleasedByAShutdownCallbackAreNotLeaks) {
  static zval global;
  object_init(&global);
  php_mock_register_shutdown_callback([](void*) { zval_ptr_dtor(&global); },
                                      nullptr);
  const php_mock_request_report report = ShutdownRequest();
  EXPECT_EQ(report.objects_alive_at_shutdown, 0u);
  EXPECT_FALSE(report.bailed_out);
}

TEST_F(MockZendLifecycleTest, AnExceptionLeftInFlightIsReportedAtShutdown) {
  ExpectUncaught("Exception: never caught");
  zend_throw_exception(nullptr, "never caught", 0);
  const php_mock_request_report report = ShutdownRequest();
  EXPECT_EQ(report.objects_alive_at_shutdown, 0u);
  const std::vector<mock_zend::ReportedError> errors =
      mock_zend::ReportedErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].type, E_ERROR);
  EXPECT_EQ(errors[0].message, "Uncaught Exception: never caught");
}

TEST_F(MockZendLifecycleTest, RequestStateIsResetBetweenRequests) {
  EXPECT_TRUE(EG(active));
  zend_object* object = zend_objects_new(zend_standard_class_def);
  EXPECT_EQ(object->handle, 1u);
  OBJ_RELEASE(object);
  ShutdownRequest();
  EXPECT_FALSE(EG(active));
  EXPECT_EQ(php_request_startup(), SUCCESS);
  EXPECT_EQ(php_request_startup(), FAILURE);  // already active
  object = zend_objects_new(zend_standard_class_def);
  EXPECT_EQ(object->handle, 1u);
  OBJ_RELEASE(object);
  php_request_shutdown(nullptr);
}

TEST_F(MockZendLifecycleTest, AsyncStateFollowsTheRequest) {
  EXPECT_TRUE(RunMain([] {}));
  EXPECT_TRUE(ZEND_ASYNC_IS_READY);  // ZEND_ASYNC_INITIALIZE after main
  ShutdownRequest();
  EXPECT_TRUE(ZEND_ASYNC_IS_OFF);  // ZEND_ASYNC_DEACTIVATE at shutdown
}

TEST_F(MockZendLifecycleTest, ExecutingLocationDefaultsToNoActiveFile) {
  EXPECT_STREQ(zend_get_executed_filename(), "[no active file]");
  EXPECT_EQ(zend_get_executed_filename_ex(), nullptr);
  EXPECT_EQ(zend_get_executed_lineno(), 0u);
  zend_mock_set_location("/app/index.php", 3);
  EXPECT_STREQ(zend_get_executed_filename(), "/app/index.php");
  zend_string* interned = zend_get_executed_filename_ex();
  ASSERT_NE(interned, nullptr);
  EXPECT_TRUE(ZSTR_IS_INTERNED(interned));
  EXPECT_STREQ(ZSTR_VAL(interned), "/app/index.php");
  EXPECT_EQ(zend_get_executed_lineno(), 3u);
  zend_mock_set_location(nullptr, 0);
}

TEST_F(MockZendLifecycleTest, PhpPrintfWritesToStdout) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(php_printf("%s=%d\n", "answer", 42), 10u);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "answer=42\n");
}

}  // namespace
