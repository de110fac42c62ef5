// Tests of the engine names php-async and true-async/server use beyond the
// core headers: constants (Zend/zend_constants.h), debug backtraces
// (Zend/zend_builtin_functions.h), INI lookups (Zend/zend_ini.h), PHP's core
// and compiler globals and the compile-time position (main/php_globals.h,
// Zend/zend_compile.h), the unwinding objects (Zend/zend_exceptions.h), and
// the zval, array, string and parameter helpers, several of them used from
// C11 (engine_misc_c.c).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mock_zend/inspect.h"
#include "support/engine_test.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "Zend/zend_builtin_functions.h"
#include "Zend/zend_constants.h"
#include "Zend/zend_ini.h"
#include "main/php_globals.h"
#include "main/php_variables.h"
#include "php.h"
#include "tests/mock_zend/engine_misc_c.h"
}

namespace {

using namespace std::string_literals;
using zar::mock_zend_testing::CallFunctionByName;
using zar::mock_zend_testing::ExpectOnlyError;
using zar::mock_zend_testing::UnsupportedMessage;

// "Class: message" of the exception in flight (taken and released), or ""
// when nothing was thrown.
std::string TakeThrown() {
  zend_object* exception = mock_zend::TakeException();
  if (exception == nullptr) return "";
  std::string thrown = mock_zend::ExceptionChain(exception)[0];
  OBJ_RELEASE(exception);
  return thrown;
}

// An array as "[key => value, ...]" (a string key shown, an integer key
// not), recursively; any other value as mock_zend::Describe shows it.
std::string Render(const zval* value) {
  if (Z_TYPE_P(value) != IS_ARRAY) return mock_zend::Describe(value);
  std::string out = "[";
  zend_string* key;
  zval* entry;
  ZEND_HASH_FOREACH_STR_KEY_VAL(Z_ARRVAL_P(value), key, entry) {
    if (out.size() > 1) out += ", ";
    if (key != nullptr) out += std::string(ZSTR_VAL(key)) + " => ";
    out += Render(entry);
  }
  ZEND_HASH_FOREACH_END();
  return out + "]";
}

// ---- Constants ----

class MockZendConstantsTest : public zar::testing::RequestFixture {};

TEST_F(MockZendConstantsTest, RegisteredConstantIsFoundByItsCaseSensitiveName) {
  const int module_number = 3;
  REGISTER_LONG_CONSTANT("MISC_ANSWER", 42, CONST_PERSISTENT);
  zval* value = zend_get_constant_str(ZEND_STRL("MISC_ANSWER"));
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(Z_TYPE_P(value), IS_LONG);
  EXPECT_EQ(Z_LVAL_P(value), 42);
  EXPECT_EQ(zend_get_constant_str(ZEND_STRL("misc_answer")), nullptr);
  zend_constant* c = zend_get_constant_ptr(
      zend_string_init_interned(ZEND_STRL("MISC_ANSWER"), true));
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(ZEND_CONSTANT_FLAGS(c), CONST_PERSISTENT);
  EXPECT_EQ(ZEND_CONSTANT_MODULE_NUMBER(c), 3);
  EXPECT_EQ(std::string(ZSTR_VAL(c->name)), "MISC_ANSWER");
}

TEST_F(MockZendConstantsTest, NamespaceOfAConstantIsCaseInsensitive) {
  const int module_number = 0;
  REGISTER_NS_BOOL_CONSTANT("Vendor\\Pkg", "ENABLED", true, CONST_PERSISTENT);
  EXPECT_NE(zend_get_constant_str(ZEND_STRL("VENDOR\\pkg\\ENABLED")), nullptr);
  EXPECT_EQ(zend_get_constant_str(ZEND_STRL("Vendor\\Pkg\\enabled")), nullptr);
}

TEST_F(MockZendConstantsTest, RegisteringADefinedNameWarnsAndReturnsNull) {
  zend_register_double_constant(ZEND_STRL("MISC_PI"), 3.5, CONST_PERSISTENT, 0);
  zend_constant c;
  ZVAL_STR(&c.value, zend_string_init(ZEND_STRL("other"), false));
  Z_CONSTANT_FLAGS(c.value) = 0;
  c.name = zend_string_init(ZEND_STRL("MISC_PI"), false);
  EXPECT_EQ(zend_register_constant(&c), nullptr);
  ExpectOnlyError(E_WARNING, "Constant MISC_PI already defined");
  EXPECT_EQ(Z_DVAL_P(zend_get_constant_str(ZEND_STRL("MISC_PI"))), 3.5);
}

TEST_F(MockZendConstantsTest, NonPersistentConstantsGoWithTheRequest) {
  zend_register_string_constant(ZEND_STRL("MISC_KEPT"), "kept",
                                CONST_PERSISTENT, 0);
  zend_register_null_constant(ZEND_STRL("MISC_REQUEST"), 0, 0);
  EXPECT_NE(zend_get_constant_str(ZEND_STRL("MISC_REQUEST")), nullptr);
  php_request_shutdown(nullptr);
  ASSERT_EQ(php_request_startup(), SUCCESS);
  EXPECT_EQ(zend_get_constant_str(ZEND_STRL("MISC_REQUEST")), nullptr);
  zval* kept = zend_get_constant_str(ZEND_STRL("MISC_KEPT"));
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(std::string(Z_STRVAL_P(kept)), "kept");
}

// ---- Backtraces ----

std::string last_trace;

void Traced(INTERNAL_FUNCTION_PARAMETERS) {
  zend_long options = 0;
  zend_long skip = 0;
  ZEND_PARSE_PARAMETERS_START(2, 2)
  Z_PARAM_LONG(options)
  Z_PARAM_LONG(skip)
  ZEND_PARSE_PARAMETERS_END();
  zval trace;
  zend_fetch_debug_backtrace(&trace, static_cast<int>(skip),
                             static_cast<int>(options), 0);
  last_trace = Render(&trace);
  zval_ptr_dtor(&trace);
  RETURN_NULL();
}

ZEND_BEGIN_ARG_INFO_EX(arginfo_traced, 0, 0, 2)
ZEND_ARG_TYPE_INFO(0, options, IS_LONG, 0)
ZEND_ARG_TYPE_INFO(0, skip, IS_LONG, 0)
ZEND_END_ARG_INFO()

// clang-format off
const zend_function_entry kTracedFunctions[] = {
    ZEND_RAW_FENTRY("misc_traced", Traced, arginfo_traced, 0, nullptr, nullptr)
    ZEND_FE_END};
// clang-format on

class MockZendBacktraceTest : public zar::testing::RequestFixture {
 protected:
  void SetUp() override {
    RequestFixture::SetUp();
    zend_register_functions(nullptr, kTracedFunctions, nullptr,
                            MODULE_PERSISTENT);
    last_trace.clear();
  }

  void CallTraced(zend_long options, zend_long skip) {
    zval args[2];
    ZVAL_LONG(&args[0], options);
    ZVAL_LONG(&args[1], skip);
    zval result = CallFunctionByName("misc_traced", 2, args);
    zval_ptr_dtor(&result);
  }
};

TEST_F(MockZendBacktraceTest, FrameOfAnInternalFunctionNamesItAndItsArgs) {
  CallTraced(0, 0);
  EXPECT_EQ(last_trace,
            "[[function => string(\"misc_traced\"), args => [int(0), "
            "int(0)]]]");
}

TEST_F(MockZendBacktraceTest, IgnoreArgsLeavesTheArgumentsOut) {
  CallTraced(DEBUG_BACKTRACE_IGNORE_ARGS, 0);
  EXPECT_EQ(last_trace, "[[function => string(\"misc_traced\")]]");
}

TEST_F(MockZendBacktraceTest, SkipLastLeavesOutTheInnermostFrames) {
  CallTraced(DEBUG_BACKTRACE_PROVIDE_OBJECT, 1);
  EXPECT_EQ(last_trace, "[]");
}

TEST_F(MockZendBacktraceTest, OutsideAnyCallTheBacktraceIsEmpty) {
  zval trace;
  zend_fetch_debug_backtrace(&trace, 0, DEBUG_BACKTRACE_PROVIDE_OBJECT, 0);
  EXPECT_EQ(Render(&trace), "[]");
  zval_ptr_dtor(&trace);
}

// ---- INI ----

class MockZendIniLookupTest : public zar::testing::RequestFixture {};

TEST_F(MockZendIniLookupTest, UnregisteredSettingsAreUnknown) {
  bool exists = true;
  EXPECT_EQ(zend_ini_long_literal("error_reporting"), 0);
  EXPECT_EQ(zend_ini_str_literal("error_reporting"), nullptr);
  EXPECT_EQ(zend_ini_double(ZEND_STRL("precision"), false), 0.0);
  EXPECT_EQ(zend_ini_str_ex(ZEND_STRL("precision"), false, &exists), nullptr);
  EXPECT_FALSE(exists);
  EXPECT_EQ(INI_STR("memory_limit"), nullptr);
  EXPECT_FALSE(INI_BOOL("display_errors"));
  EXPECT_EQ(zend_ini_get_value(ZSTR_KNOWN(ZEND_STR_PATH)), nullptr);
}

// The engine with the misc_ini module of engine_misc_c.c.
class MockZendIniModuleTest : public zar::testing::RequestFixture {
 protected:
  std::vector<zend_module_entry*> Modules() override {
    return {&surface_c_ini_module_entry};
  }
};

TEST_F(MockZendIniModuleTest, RegisteredDefaultsReachTheGlobalsAndLookups) {
  EXPECT_EQ(surface_c_ini_globals_check(), 0);
  bool exists = false;
  zend_string* limit = zend_ini_str_ex(ZEND_STRL("misc.limit"), false, &exists);
  EXPECT_TRUE(exists);
  ASSERT_NE(limit, nullptr);
  EXPECT_EQ(std::string(ZSTR_VAL(limit)), "8K");
  EXPECT_EQ(zend_ini_double(ZEND_STRL("misc.limit"), false), 8.0);
  zend_string* name = zend_string_init(ZEND_STRL("misc.enabled"), false);
  zend_string* enabled = zend_ini_get_value(name);
  zend_string_release(name);
  ASSERT_NE(enabled, nullptr);
  EXPECT_EQ(std::string(ZSTR_VAL(enabled)), "1");
}

TEST_F(MockZendIniModuleTest, UnregisteringForgetsTheModulesDirectives) {
  zend_unregister_ini_entries(surface_c_ini_module_entry.module_number);
  EXPECT_EQ(zend_ini_str(ZEND_STRL("misc.label"), false), nullptr);
  EXPECT_EQ(INI_INT("misc.limit"), 0);
}

TEST_F(MockZendIniModuleTest, ADirectiveCannotBeRegisteredTwice) {
  static const zend_ini_entry_def kTwice[] = {
      {"misc.fresh", nullptr, nullptr, nullptr, nullptr, "x", nullptr, 1, 10,
       ZEND_INI_ALL},
      {"misc.label", nullptr, nullptr, nullptr, nullptr, "y", nullptr, 1, 10,
       ZEND_INI_ALL},
      {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, 0, 0}};
  EXPECT_EQ(zend_register_ini_entries(kTwice, 99), FAILURE);
  EXPECT_EQ(zend_ini_str(ZEND_STRL("misc.fresh"), false), nullptr);
  EXPECT_EQ(std::string(INI_STR("misc.label")), "main");
}

TEST_F(MockZendIniModuleTest, MinfoShowsTheDirectivesAsPhpinfoDoes) {
  zar::mock_zend_testing::CapturedOutput output;
  surface_c_ini_module_entry.info_func(&surface_c_ini_module_entry);
  EXPECT_EQ(output.text(),
            "\nDirective => Local Value => Master Value\n"
            "misc.enabled => On => On\n"
            "misc.limit => 8K => 8K\n"
            "misc.label => main => main\n");
}

TEST_F(MockZendIniModuleTest, ParseBoolKnowsPhpsWordsAndNumbers) {
  for (const char* yes : {"1", "On", "YES", "true", "2"}) {
    zend_string* str = zend_string_init(yes, strlen(yes), false);
    EXPECT_TRUE(zend_ini_parse_bool(str)) << yes;
    zend_string_release(str);
  }
  for (const char* no : {"0", "off", "no", "", "false"}) {
    zend_string* str = zend_string_init(no, strlen(no), false);
    EXPECT_FALSE(zend_ini_parse_bool(str)) << no;
    zend_string_release(str);
  }
}

TEST_F(MockZendIniModuleTest, IterableParameterTakesArraysAndTraversables) {
  zval array;
  array_init(&array);
  add_next_index_long(&array, 1);
  zval count = CallFunctionByName("c_misc_iterable", 1, &array);
  EXPECT_EQ(Z_LVAL(count), 1);
  zval_ptr_dtor(&array);
  zval number;
  ZVAL_LONG(&number, 3);
  zval result = CallFunctionByName("c_misc_iterable", 1, &number);
  EXPECT_EQ(TakeThrown(),
            "TypeError: c_misc_iterable(): Argument #1 ($items) must be of "
            "type Traversable|array, int given");
  zval_ptr_dtor(&result);
}

// ---- PHP's core and compiler globals, the compile-time position ----

class MockZendGlobalsTest : public zar::testing::RequestFixture {};

TEST_F(MockZendGlobalsTest, LastErrorIsTheLatestReportedError) {
  EXPECT_EQ(PG(last_error_message), nullptr);
  zend_error(E_NOTICE, "first");
  zend_mock_set_location("/srv/app.php", 12);
  zend_error(E_WARNING, "second %d", 2);
  zend_mock_set_location(nullptr, 0);
  ASSERT_NE(PG(last_error_message), nullptr);
  EXPECT_EQ(std::string(ZSTR_VAL(PG(last_error_message))), "second 2");
  EXPECT_EQ(PG(last_error_type), E_WARNING);
  EXPECT_EQ(std::string(ZSTR_VAL(PG(last_error_file))), "/srv/app.php");
  EXPECT_EQ(PG(last_error_lineno), 12);
  zend_mock_errors_clear();
}

TEST_F(MockZendGlobalsTest, LastErrorWithoutAScriptIsInAnUnknownFile) {
  EXPECT_EQ(surface_c_last_error_check(), 0);
  zend_mock_errors_clear();
}

TEST_F(MockZendGlobalsTest, LastErrorIsClearedAtRequestShutdown) {
  zend_error(E_WARNING, "gone");
  php_request_shutdown(nullptr);
  EXPECT_EQ(PG(last_error_message), nullptr);
  EXPECT_EQ(PG(last_error_file), nullptr);
  EXPECT_EQ(PG(last_error_type), 0);
  ASSERT_EQ(php_request_startup(), SUCCESS);
  zend_mock_errors_clear();
}

TEST_F(MockZendGlobalsTest, NothingIsBeingCompiled) {
  EXPECT_FALSE(zend_is_compiling());
  EXPECT_EQ(zend_get_compiled_filename(), nullptr);
  EXPECT_EQ(zend_get_compiled_lineno(), 0);
  EXPECT_EQ(CG(function_table), EG(function_table));
  EXPECT_EQ(CG(class_table), EG(class_table));
}

TEST_F(MockZendGlobalsTest, DirnameCutsThePathToItsDirectory) {
  const auto dirname = [](std::string path) {
    path.push_back('\0');
    const size_t len = zend_dirname(path.data(), path.size() - 1);
    EXPECT_EQ(len, strlen(path.c_str())) << path;
    return std::string(path.c_str());
  };
  EXPECT_EQ(dirname("/var/www/index.php"), "/var/www");
  EXPECT_EQ(dirname("/var/www/"), "/var");
  EXPECT_EQ(dirname("a//b"), "a");
  EXPECT_EQ(dirname("index.php"), ".");
  EXPECT_EQ(dirname("/index.php"), "/");
  EXPECT_EQ(dirname("///"), "/");
  char empty[1] = {'\0'};
  EXPECT_EQ(zend_dirname(empty, 0), 0u);
}

TEST_F(MockZendGlobalsTest, C11CodeSeesIniConstantsGlobalsAndPortability) {
  zend_register_functions(nullptr, surface_c_misc_functions(), nullptr,
                          MODULE_PERSISTENT);
  EXPECT_EQ(surface_c_misc_check(), 0);
}

// ---- Unwinding objects ----

class MockZendUnwindExitTest : public zar::testing::RequestFixture {};

TEST_F(MockZendUnwindExitTest, EachExitObjectIsRecognizedOnlyAsItself) {
  zend_object* unwind = zend_create_unwind_exit();
  zend_object* graceful = zend_create_graceful_exit();
  EXPECT_TRUE(zend_is_unwind_exit(unwind));
  EXPECT_FALSE(zend_is_graceful_exit(unwind));
  EXPECT_TRUE(zend_is_graceful_exit(graceful));
  EXPECT_FALSE(zend_is_unwind_exit(graceful));
  EXPECT_EQ(std::string(ZSTR_VAL(unwind->ce->name)), "UnwindExit");
  EXPECT_EQ(std::string(ZSTR_VAL(graceful->ce->name)), "GracefulExit");
  EXPECT_FALSE(instanceof_function(unwind->ce, zend_ce_throwable));
  EXPECT_EQ(zend_lookup_class(unwind->ce->name), nullptr);
  OBJ_RELEASE(unwind);
  OBJ_RELEASE(graceful);
}

TEST_F(MockZendUnwindExitTest, ExceptionsAreNotExitObjects) {
  zend_object* exception = zend_throw_exception(nullptr, "plain", 0);
  EXPECT_FALSE(zend_is_unwind_exit(exception));
  EXPECT_FALSE(zend_is_graceful_exit(exception));
  zend_clear_exception();
}

TEST_F(MockZendUnwindExitTest, UncaughtUnwindExitEndsItsStackSilently) {
  zend_throw_unwind_exit();
  ASSERT_NE(EG(exception), nullptr);
  EXPECT_TRUE(zend_is_unwind_exit(EG(exception)));
  zend_exception_error(EG(exception), E_ERROR);
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(zend_mock_error_count(), 0u);
}

TEST_F(MockZendUnwindExitTest, GracefulExitLeftInFlightIsNotReported) {
  zend_throw_graceful_exit();
  EXPECT_TRUE(zend_is_graceful_exit(EG(exception)));
}

// ---- zval, array, string and parameter helpers ----

class MockZendHelpersTest : public zar::testing::RequestFixture {
 protected:
  void SetUp() override {
    RequestFixture::SetUp();
    zend_register_functions(nullptr, surface_c_misc_functions(), nullptr,
                            MODULE_PERSISTENT);
  }
};

TEST_F(MockZendHelpersTest, StringArrayAndVariadicParametersParseFromC) {
  zval args[4];
  ZVAL_STRINGL(&args[0], "a\0b", 3);
  array_init(&args[1]);
  add_next_index_long(&args[1], 1);
  add_next_index_long(&args[1], 2);
  ZVAL_LONG(&args[2], 3);
  ZVAL_TRUE(&args[3]);
  zval result = CallFunctionByName("c_misc_describe", 4, args);
  EXPECT_EQ(Render(&result),
            "[s => string(\"a\0b\"), count => float(2), rest => int(2), "
            "named => bool(false)]"s);
  zval_ptr_dtor(&result);
  for (zval& arg : args) zval_ptr_dtor(&arg);
}

TEST_F(MockZendHelpersTest, StringParameterRejectsAnArray) {
  zval args[2];
  array_init(&args[0]);
  array_init(&args[1]);
  zval result = CallFunctionByName("c_misc_describe", 2, args);
  EXPECT_EQ(TakeThrown(),
            "TypeError: c_misc_describe(): Argument #1 ($s) must be of type "
            "string, array given");
  zval_ptr_dtor(&result);
  for (zval& arg : args) zval_ptr_dtor(&arg);
}

TEST_F(MockZendHelpersTest, SeparatedArrayIsChangedWithoutTouchingTheShared) {
  zval shared;
  array_init(&shared);
  add_next_index_long(&shared, 1);
  zval result = CallFunctionByName("c_misc_appended", 1, &shared);
  EXPECT_EQ(Render(&shared), "[int(1)]");
  EXPECT_EQ(Render(&result), "[int(1), int(4)]");
  EXPECT_EQ(GC_REFCOUNT(Z_ARR(shared)), 1u);
  zval_ptr_dtor(&result);
  zval_ptr_dtor(&shared);
}

TEST_F(MockZendHelpersTest, AllocaTakesTheHeapOnlyAboveItsLimit) {
  zval size;
  ZVAL_LONG(&size, 64);
  zval small = CallFunctionByName("c_misc_alloca", 1, &size);
  EXPECT_EQ(Z_TYPE(small), IS_FALSE);
  ZVAL_LONG(&size, ZEND_ALLOCA_MAX_SIZE + 1);
  zval large = CallFunctionByName("c_misc_alloca", 1, &size);
  EXPECT_EQ(Z_TYPE(large), IS_TRUE);
}

TEST_F(MockZendHelpersTest, ReturnZvalCopiesMovesOrUnwrapsAReference) {
  zval value;
  ZVAL_STR(&value, zend_string_init(ZEND_STRL("v"), false));
  zval copied;
  ZVAL_ZVAL(&copied, &value, 1, 0);
  EXPECT_EQ(Z_REFCOUNT(value), 2u);
  zval_ptr_dtor(&copied);
  zval ref;
  ZVAL_NEW_REF(&ref, &value);
  zval unwrapped;
  ZVAL_ZVAL(&unwrapped, &ref, 0, 1);  // the reference goes, the value stays
  EXPECT_EQ(Z_TYPE(unwrapped), IS_STRING);
  EXPECT_EQ(Z_REFCOUNT(unwrapped), 1u);
  zval_ptr_dtor(&unwrapped);
}

TEST_F(MockZendHelpersTest, AssocAndObjectAppendersStoreWhatTheyAreGiven) {
  zval array;
  array_init(&array);
  add_assoc_double(&array, "ratio", 0.5);
  add_assoc_stringl(&array, "raw", "x\0y", 3);
  zval object;
  object_init(&object);
  EXPECT_EQ(add_next_index_object(&array, Z_OBJ(object)), SUCCESS);
  EXPECT_EQ(
      Render(&array),
      "[ratio => float(0.5), raw => string(\"x\0y\"), object(stdClass)#"s +
          std::to_string(Z_OBJ(object)->handle) + "]");
  zval_ptr_dtor(&array);
}

TEST_F(MockZendHelpersTest, TryGetStringIsNullWhenTheConversionThrows) {
  zval object;
  object_init(&object);
  EXPECT_EQ(zval_try_get_string(&object), nullptr);
  EXPECT_EQ(TakeThrown(),
            "Error: Object of class stdClass could not be converted to string");
  zval number;
  ZVAL_LONG(&number, -7);
  zend_string* text = zval_try_get_string(&number);
  EXPECT_EQ(std::string(ZSTR_VAL(text)), "-7");
  zend_string_release(text);
  zval_ptr_dtor(&object);
}

TEST_F(MockZendHelpersTest, ConvertToStringReplacesTheValueInPlace) {
  zval value;
  ZVAL_DOUBLE(&value, 1.5);
  convert_to_string(&value);
  ASSERT_EQ(Z_TYPE(value), IS_STRING);
  EXPECT_EQ(std::string(Z_STRVAL(value)), "1.5");
  zval_ptr_dtor(&value);
}

TEST_F(MockZendHelpersTest, InlineHashIsPhpsDjbHashWithTheTopBitSet) {
  // DJBX33A: 5381 * 33 + 'a', with bit 63 set as PHP's hashes have it.
  EXPECT_EQ(zend_inline_hash_func(ZEND_STRL("a")),
            (UINT64_C(5381) * 33 + 'a') | (UINT64_C(1) << 63));
  EXPECT_EQ(zend_inline_hash_func("", 0), UINT64_C(5381) | (UINT64_C(1) << 63));
}

TEST_F(MockZendHelpersTest, GcBufferTakesTablesButNotImmutableOnes) {
  zend_get_gc_buffer* buffer = zend_get_gc_buffer_create();
  zval array;
  array_init(&array);
  zval shared;
  array_init(&shared);
  GC_ADD_FLAGS(Z_ARR(shared), GC_IMMUTABLE);  // as an immutable table is
  zend_get_gc_buffer_add_ht(buffer, Z_ARRVAL(shared));
  zend_get_gc_buffer_add_ht(buffer, Z_ARRVAL(array));
  GC_DEL_FLAGS(Z_ARR(shared), GC_IMMUTABLE);
  zval* table;
  int n;
  zend_get_gc_buffer_use(buffer, &table, &n);
  ASSERT_EQ(n, 1);
  EXPECT_EQ(Z_ARR(table[0]), Z_ARR(array));
  zval_ptr_dtor(&array);
  zval_ptr_dtor(&shared);
}

TEST_F(MockZendHelpersTest, SignalNamesComeWithZendH) {
  EXPECT_EQ(SIGHUP, 1);
  EXPECT_NE(SIGTERM, SIGHUP);
}

TEST_F(MockZendHelpersTest, AllocatorNeverReportsAnOutOfMemoryBailout) {
  EXPECT_FALSE(zend_alloc_pop_is_oom());
}

TEST_F(MockZendHelpersTest, TreatDataFailsLoudlyAndFreesTheString) {
  const std::string message = UnsupportedMessage(
      "php_default_treat_data",
      "the mock has no request input nor PHP's variable registration");
  ExpectFatalErrors({message});
  zval array;
  array_init(&array);
  php_default_treat_data(PARSE_STRING, estrdup("a=1&b=2"), &array);
  ExpectOnlyError(E_CORE_ERROR, message);
  EXPECT_EQ(zend_hash_num_elements(Z_ARRVAL(array)), 0u);
  zval_ptr_dtor(&array);
}

// php-async passes an ABI callback's void *result to Z_TRY_ADDREF_P.
TEST_F(MockZendHelpersTest, TryAddrefAndDelrefTakeAVoidPointerFromC) {
  EXPECT_EQ(surface_c_void_result_check(), 0);
}

// PHP's table layout: -nTableMask hash slots before the buckets, in one
// block that HT_GET_DATA_ADDR/HT_SET_DATA_ADDR move and HT_USED_SIZE sizes.
TEST_F(MockZendHelpersTest, TableDataBlockCopiesAndRepointsAsPhpLaysItOut) {
  EXPECT_EQ(surface_c_table_data_copy_check(), 0);
}

// PHP's string flag values (zend_types.h), past GC_PERSISTENT_LOCAL.
TEST_F(MockZendHelpersTest, StringFlagsHavePhpsValues) {
  EXPECT_EQ(IS_STR_PERMANENT, 1 << 8);
  EXPECT_EQ(IS_STR_VALID_UTF8, 1 << 9);
  EXPECT_EQ(IS_STR_CLASS_NAME_MAP_PTR, GC_PROTECTED);
  zend_string* s = zend_string_init("x", 1, 0);
  EXPECT_FALSE(ZSTR_IS_VALID_UTF8(s));
  GC_ADD_FLAGS(s, IS_STR_VALID_UTF8);
  EXPECT_TRUE(ZSTR_IS_VALID_UTF8(s));
  zend_string_release(s);
  EXPECT_EQ(ZEND_MM_ALIGNED_SIZE_EX(13, 16), 16u);
  EXPECT_EQ(ZEND_MM_ALIGNED_SIZE_EX(32, 16), 32u);
}

}  // namespace
