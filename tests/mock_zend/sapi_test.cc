// Tests of PHP's SAPI and process lifecycle in the mock: a SAPI module
// struct started and stopped through sapi_startup / php_module_startup /
// php_request_startup / php_request_shutdown / php_module_shutdown /
// sapi_shutdown, the module registry (built-in and additional extensions),
// the SAPI's callbacks (output, error log, flush, activate/deactivate,
// additional functions) and the embed SAPI.
//
// These tests run the lifecycle themselves, so they do not use the engine
// fixture; each one that runs a request checks that request's leak report.

#include <gtest/gtest.h>
#include <syslog.h>

#include <string>
#include <vector>

#include "mock_zend/inspect.h"
#include "tests/mock_zend/sapi_c_module.h"
#include "tests/mock_zend/support/engine_test.h"

extern "C" {
#include "SAPI.h"
#include "Zend/zend_long.h"
#include "php_main.h"
#include "sapi/embed/php_embed.h"
#include "zend_async_ref/registry_testing.h"
}

namespace {

using zar::mock_zend_testing::CallFunctionByName;
using zar::mock_zend_testing::LoggingHook;

std::vector<std::string> events;

constexpr char kMinit[] = "MINIT";
constexpr char kMshutdown[] = "MSHUTDOWN";
constexpr char kRinit[] = "RINIT";
constexpr char kRshutdown[] = "RSHUTDOWN";
constexpr char kBuiltinMinit[] = "MINIT builtin";

struct Globals {
  int value;
};
Globals module_globals = {-1};
void GlobalsCtor(void* globals) {
  events.push_back("GINIT");
  static_cast<Globals*>(globals)->value = 7;
}
void GlobalsDtor(void* globals) {
  events.push_back("GSHUTDOWN " +
                   std::to_string(static_cast<Globals*>(globals)->value));
}

zend_module_entry additional_module = {
    STANDARD_MODULE_HEADER,
    "additional",
    nullptr,
    LoggingHook<&events, kMinit, true>,
    LoggingHook<&events, kMshutdown>,
    LoggingHook<&events, kRinit>,
    LoggingHook<&events, kRshutdown>,
    nullptr,
    "1.0",
    sizeof(Globals),
    &module_globals,
    GlobalsCtor,
    GlobalsDtor,
    nullptr,
    STANDARD_MODULE_PROPERTIES_EX,
};

zend_module_entry builtin_module = {
    STANDARD_MODULE_HEADER,
    "builtin",
    nullptr,
    LoggingHook<&events, kBuiltinMinit, true>,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    "1.0",
    STANDARD_MODULE_PROPERTIES,
};

// The SAPI under test: every callback it has notes itself in `events`.
std::string output;
std::vector<std::pair<std::string, int>> logged;
int flushes = 0;

int SapiStartup(sapi_module_struct* sapi) {
  events.push_back("sapi startup");
  return php_module_startup(sapi, &additional_module);
}
int SapiActivate(void) {
  events.push_back("sapi activate");
  return SUCCESS;
}
int SapiDeactivate(void) {
  events.push_back("sapi deactivate");
  return SUCCESS;
}
size_t SapiUbWrite(const char* str, size_t len) {
  output.append(str, len);
  return len;
}
void SapiFlush(void* server_context) {
  (void)server_context;
  flushes++;
}
void SapiLog(const char* message, int syslog_type) {
  logged.emplace_back(message, syslog_type);
}

void SapiFunction(INTERNAL_FUNCTION_PARAMETERS) {
  (void)execute_data;
  RETURN_LONG(42);
}
ZEND_BEGIN_ARG_INFO_EX(arginfo_sapi_function, 0, 0, 0)
ZEND_END_ARG_INFO()
// clang-format off
const zend_function_entry kSapiFunctions[] = {
    ZEND_RAW_FENTRY("sapi_function", SapiFunction, arginfo_sapi_function, 0,
                    nullptr, nullptr)
    ZEND_FE_END};
// clang-format on

sapi_module_struct MakeSapi() {
  sapi_module_struct sapi = {const_cast<char*>("test"),
                             const_cast<char*>("the SAPI under test"),
                             SapiStartup,
                             php_module_shutdown_wrapper,
                             SapiActivate,
                             SapiDeactivate,
                             SapiUbWrite,
                             SapiFlush,
                             nullptr,
                             nullptr,
                             php_error,
                             nullptr,
                             nullptr,
                             nullptr,
                             nullptr,
                             nullptr,
                             nullptr,
                             SapiLog,
                             nullptr,
                             nullptr,
                             STANDARD_SAPI_MODULE_PROPERTIES};
  return sapi;
}

class SapiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    events.clear();
    output.clear();
    logged.clear();
    flushes = 0;
    module_globals.value = -1;
    zend_mock_errors_clear();
    sapi = MakeSapi();
  }
  void TearDown() override {
    // Whatever a test left running.
    php_module_shutdown();
    sapi_shutdown();
    php_mock_clear_builtin_extensions();
    php_register_internal_extensions_func = php_register_internal_extensions;
    zend_async_ref_reset_registry();
    zend_mock_errors_clear();
  }

  // The request just shut down leaked nothing.
  static void ExpectCleanRequest() {
    const php_mock_request_report report = php_mock_last_request_report();
    EXPECT_EQ(report.leaked_blocks, 0u);
    EXPECT_EQ(report.objects_alive_at_shutdown, 0u);
  }

  sapi_module_struct sapi;
};

TEST_F(SapiTest, SapiStartupCopiesTheStructAndClearsItsIniEntries) {
  sapi.ini_entries = "display_errors=1\n";
  sapi_startup(&sapi);
  EXPECT_EQ(sapi.ini_entries, nullptr);
  EXPECT_STREQ(sapi_module.name, "test");
  EXPECT_EQ(sapi_module.startup, &SapiStartup);
  EXPECT_TRUE(SG(sapi_started));
  sapi_shutdown();
  EXPECT_EQ(sapi_module.name, nullptr);
  EXPECT_FALSE(SG(sapi_started));
}

TEST_F(SapiTest, SapiStartupWithoutAStructIsRefused) {
  sapi_startup(nullptr);
  EXPECT_FALSE(SG(sapi_started));
  const std::vector<mock_zend::ReportedError> errors =
      mock_zend::ReportedErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].type, E_CORE_WARNING);
  EXPECT_EQ(errors[0].message, "sapi_startup() needs a SAPI module struct");
  sapi_shutdown();  // without a startup: nothing to do
}

TEST_F(SapiTest, TheWholeLifecycleRunsEveryHookInPhpsOrder) {
  sapi_startup(&sapi);
  ASSERT_EQ(sapi.startup(&sapi), SUCCESS);
  EXPECT_TRUE(php_module_started());
  ASSERT_EQ(php_request_startup(), SUCCESS);
  events.push_back("request");
  php_request_shutdown(nullptr);
  ExpectCleanRequest();
  EXPECT_EQ(sapi.shutdown(&sapi), SUCCESS);
  EXPECT_FALSE(php_module_started());
  sapi_shutdown();
  EXPECT_EQ(events, (std::vector<std::string>{
                        "sapi startup", "GINIT", "MINIT #0", "sapi activate",
                        "RINIT", "request", "RSHUTDOWN", "sapi deactivate",
                        "MSHUTDOWN", "GSHUTDOWN 7"}));
}

TEST_F(SapiTest, ModuleStartupWithoutASapiFails) {
  EXPECT_EQ(php_module_startup(nullptr, &additional_module), FAILURE);
  EXPECT_FALSE(php_module_started());
  EXPECT_TRUE(events.empty());
  const std::vector<mock_zend::ReportedError> errors =
      mock_zend::ReportedErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message,
            "php_module_startup() needs a SAPI module struct");
}

TEST_F(SapiTest, ModuleStartupCopiesTheSapiIntoSapiModule) {
  // Members set after sapi_startup() count, as in PHP.
  sapi_startup(&sapi);
  sapi.phpinfo_as_text = 1;
  ASSERT_EQ(php_module_startup(&sapi, nullptr), SUCCESS);
  EXPECT_EQ(sapi_module.phpinfo_as_text, 1);
}

TEST_F(SapiTest, BuiltinExtensionsStartBeforeTheAdditionalModule) {
  ASSERT_EQ(php_mock_add_builtin_extension(&builtin_module), SUCCESS);
  ASSERT_EQ(php_mock_add_builtin_extension(&builtin_module), SUCCESS);  // once
  sapi_startup(&sapi);
  ASSERT_EQ(php_module_startup(&sapi, &additional_module), SUCCESS);
  EXPECT_EQ(events, (std::vector<std::string>{"GINIT", "MINIT builtin #0",
                                              "MINIT #1"}));
}

TEST_F(SapiTest, AModuleLoadedTwiceIsRefused) {
  ASSERT_EQ(php_mock_add_builtin_extension(&additional_module), SUCCESS);
  sapi_startup(&sapi);
  EXPECT_EQ(php_module_startup(&sapi, &additional_module), FAILURE);
  const std::vector<mock_zend::ReportedError> errors =
      mock_zend::ReportedErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].type, E_CORE_WARNING);
  EXPECT_EQ(errors[0].message, "Module \"additional\" is already loaded");
  EXPECT_EQ(events, (std::vector<std::string>{"GINIT"}));  // no MINIT ran
}

TEST_F(SapiTest, BuiltinExtensionsCannotChangeWhileTheEngineRuns) {
  EXPECT_EQ(php_mock_add_builtin_extension(nullptr), FAILURE);
  sapi_startup(&sapi);
  ASSERT_EQ(php_module_startup(&sapi, nullptr), SUCCESS);
  EXPECT_EQ(php_mock_add_builtin_extension(&builtin_module), FAILURE);
  EXPECT_EQ(php_mock_clear_builtin_extensions(), FAILURE);
}

int RegisterBuiltinThroughTheSapi(void) {
  zend_module_entry* const modules[] = {nullptr, &builtin_module};
  return php_register_extensions(modules, 2);
}

TEST_F(SapiTest, ASapiMayReplaceTheInternalExtensionsRegistration) {
  php_register_internal_extensions_func = RegisterBuiltinThroughTheSapi;
  sapi_startup(&sapi);
  ASSERT_EQ(php_module_startup(&sapi, nullptr), SUCCESS);
  EXPECT_EQ(events, (std::vector<std::string>{"MINIT builtin #0"}));
}

TEST_F(SapiTest, RegisteringExtensionsOutsideStartupIsRefused) {
  zend_module_entry* const modules[] = {&builtin_module};
  EXPECT_EQ(php_register_extensions(modules, 1), FAILURE);
  EXPECT_TRUE(events.empty());
}

TEST_F(SapiTest, TheSapisAdditionalFunctionsAreRegistered) {
  sapi.additional_functions = kSapiFunctions;
  sapi_startup(&sapi);
  ASSERT_EQ(php_module_startup(&sapi, nullptr), SUCCESS);
  ASSERT_EQ(php_request_startup(), SUCCESS);
  zval result = CallFunctionByName("sapi_function");
  EXPECT_EQ(Z_LVAL(result), 42);
  php_request_shutdown(nullptr);
  ExpectCleanRequest();
}

TEST_F(SapiTest, PhpPrintfWritesThroughTheSapisUbWrite) {
  sapi_startup(&sapi);
  ASSERT_EQ(php_module_startup(&sapi, nullptr), SUCCESS);
  EXPECT_EQ(php_printf("%s=%d\n", "answer", 42), 10u);
  EXPECT_EQ(output, "answer=42\n");
}

TEST_F(SapiTest, PhpErrorReachesTheErrorLogAndTheSapisLogMessage) {
  sapi_startup(&sapi);
  ASSERT_EQ(php_module_startup(&sapi, nullptr), SUCCESS);
  php_error(E_WARNING, "disk %s", "full");
  const std::vector<mock_zend::ReportedError> errors =
      mock_zend::ReportedErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].type, E_WARNING);
  EXPECT_EQ(errors[0].message, "disk full");
  ASSERT_EQ(logged.size(), 1u);
  EXPECT_EQ(logged[0].first, "PHP Warning:  disk full");
  EXPECT_EQ(logged[0].second, LOG_WARNING);
}

TEST_F(SapiTest, SapiErrorIsPhpError) {
  sapi_startup(&sapi);
  sapi_module.sapi_error(E_NOTICE, "from %s", "the SAPI");
  const std::vector<mock_zend::ReportedError> errors =
      mock_zend::ReportedErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].type, E_NOTICE);
  EXPECT_EQ(errors[0].message, "from the SAPI");
  ASSERT_EQ(logged.size(), 1u);
  EXPECT_EQ(logged[0].second, LOG_NOTICE);
}

TEST_F(SapiTest, SapiFlushCallsTheSapisFlush) {
  EXPECT_EQ(sapi_flush(), FAILURE);  // no SAPI yet
  sapi_startup(&sapi);
  EXPECT_EQ(sapi_flush(), SUCCESS);
  EXPECT_EQ(flushes, 1);
}

TEST_F(SapiTest, ASapiWrittenInCRunsTheLifecycle) {
  ASSERT_EQ(c_sapi_run(), SUCCESS);
  EXPECT_STREQ(c_sapi_events, "startup;activate;request;deactivate;");
  EXPECT_FALSE(php_module_started());
  EXPECT_FALSE(SG(sapi_started));
  ExpectCleanRequest();
}

TEST_F(SapiTest, ZendUlongMaxIsTheLargestZendUlong) {
  EXPECT_EQ(ZEND_ULONG_MAX, UINT64_MAX);
  EXPECT_EQ(c_zend_ulong_max(), 18446744073709551615ull);
  EXPECT_EQ(static_cast<zend_ulong>(ZEND_ULONG_MAX + 1), 0u);
}

// ---- The embed SAPI ---------------------------------------------------------

TEST_F(SapiTest, EmbedInitStartsTheEngineAndARequest) {
  ASSERT_EQ(php_mock_add_builtin_extension(&additional_module), SUCCESS);
  char arg0[] = "embedded";
  char* argv[] = {arg0, nullptr};
  ASSERT_EQ(php_embed_init(1, argv), SUCCESS);
  EXPECT_STREQ(sapi_module.name, "embed");
  EXPECT_TRUE(EG(active));
  EXPECT_EQ(SG(request_info).argc, 1);
  EXPECT_EQ(SG(request_info).argv, argv);
  EXPECT_STREQ(php_embed_module.executable_location, "embedded");
  EXPECT_TRUE(SG(options) & SAPI_OPTION_NO_CHDIR);
  php_embed_shutdown();
  ExpectCleanRequest();
  EXPECT_FALSE(php_module_started());
  EXPECT_FALSE(SG(sapi_started));
  EXPECT_EQ(events,
            (std::vector<std::string>{"GINIT", "MINIT #0", "RINIT", "RSHUTDOWN",
                                      "MSHUTDOWN", "GSHUTDOWN 7"}));
}

TEST_F(SapiTest, EmbedInitWhileAnEngineRunsFails) {
  sapi_startup(&sapi);
  ASSERT_EQ(php_module_startup(&sapi, nullptr), SUCCESS);
  EXPECT_EQ(php_embed_init(0, nullptr), FAILURE);
  EXPECT_STREQ(sapi_module.name, "test");  // left alone
  php_embed_shutdown();                    // not started by embed: no-op
  EXPECT_TRUE(php_module_started());
}

TEST_F(SapiTest, EmbedWritesOutputToStdoutAndTheErrorLogToStderr) {
  ASSERT_EQ(php_embed_init(0, nullptr), SUCCESS);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  php_printf("hello %s\n", "embed");
  php_error(E_NOTICE, "noted");
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "hello embed\n");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "PHP Notice:  noted\n");
  php_embed_shutdown();
  ExpectCleanRequest();
}

bool body_ran = false;
bool after_bailout = false;

void RunEmbedBlockThatBailsOut() {
  PHP_EMBED_START_BLOCK(0, nullptr)
  body_ran = EG(active);
  zend_error(E_ERROR, "fatal inside the block");
  after_bailout = true;
  PHP_EMBED_END_BLOCK()
}

TEST_F(SapiTest, EmbedBlockRunsItsBodyInARequestAndCatchesABailout) {
  body_ran = false;
  after_bailout = false;
  RunEmbedBlockThatBailsOut();
  EXPECT_TRUE(body_ran);
  EXPECT_FALSE(after_bailout);
  EXPECT_FALSE(php_module_started());
  ExpectCleanRequest();
  const std::vector<mock_zend::ReportedError> errors =
      mock_zend::ReportedErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].type, E_ERROR);
}

}  // namespace
