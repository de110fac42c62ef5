// Tests of the mock engine's parameter parsing and argument errors: exact
// PHP 8 messages.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mock_zend/inspect.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace {

// Functions under test. Each parses its parameters with the fast ZPP
// macros, as an extension would, and returns what it parsed.

void TakeIntString(INTERNAL_FUNCTION_PARAMETERS) {
  zend_long count = 0;
  zend_string* label = nullptr;
  ZEND_PARSE_PARAMETERS_START(1, 2)
  Z_PARAM_LONG(count)
  Z_PARAM_OPTIONAL
  Z_PARAM_STR(label)
  ZEND_PARSE_PARAMETERS_END();
  (void)label;
  RETURN_LONG(count);
}

void TakeExactlyOne(INTERNAL_FUNCTION_PARAMETERS) {
  bool flag = false;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_BOOL(flag)
  ZEND_PARSE_PARAMETERS_END();
  RETURN_BOOL(flag);
}

void TakeDouble(INTERNAL_FUNCTION_PARAMETERS) {
  double value = 0;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_DOUBLE(value)
  ZEND_PARSE_PARAMETERS_END();
  RETURN_DOUBLE(value);
}

void TakeObjects(INTERNAL_FUNCTION_PARAMETERS) {
  zend_object* throwable = nullptr;
  zval* maybe = nullptr;
  HashTable* options = nullptr;
  ZEND_PARSE_PARAMETERS_START(1, 3)
  Z_PARAM_OBJ_OF_CLASS(throwable, zend_ce_throwable)
  Z_PARAM_OPTIONAL
  Z_PARAM_OBJECT_OF_CLASS_OR_NULL(maybe, zend_ce_exception)
  Z_PARAM_ARRAY_HT_OR_NULL(options)
  ZEND_PARSE_PARAMETERS_END();
  (void)throwable;
  (void)maybe;
  (void)options;
  RETURN_TRUE;
}

void TakeCallback(INTERNAL_FUNCTION_PARAMETERS) {
  zend_fcall_info fci;
  zend_fcall_info_cache fcc;
  zend_fcall_info fci2;
  zend_fcall_info_cache fcc2;
  ZEND_PARSE_PARAMETERS_START(1, 2)
  Z_PARAM_FUNC(fci, fcc)
  Z_PARAM_OPTIONAL
  Z_PARAM_FUNC_OR_NULL(fci2, fcc2)
  ZEND_PARSE_PARAMETERS_END();
  RETURN_TRUE;
}

// Returns its argument, or "" when it is null (Z_PARAM_ZVAL_OR_NULL gives
// NULL for null).
void TakeZvalOrNull(INTERNAL_FUNCTION_PARAMETERS) {
  zval* value = reinterpret_cast<zval*>(1);
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_ZVAL_OR_NULL(value)
  ZEND_PARSE_PARAMETERS_END();
  if (value == nullptr) RETURN_EMPTY_STRING();
  RETURN_COPY(value);
}

void TakeNothing(INTERNAL_FUNCTION_PARAMETERS) {
  ZEND_PARSE_PARAMETERS_NONE();
  RETURN_TRUE;
}

void PoolConstruct(INTERNAL_FUNCTION_PARAMETERS) {
  (void)return_value;
  zend_long min = Z_LVAL_P(ZEND_CALL_ARG(execute_data, 6));
  if (min < 0) zend_argument_value_error(6, "must be >= %d", 0);
}

void TypeErrorOnFirst(INTERNAL_FUNCTION_PARAMETERS) {
  (void)execute_data;
  (void)return_value;
  zend_argument_type_error(1, "must be %s", "positive");
}

void CountError(INTERNAL_FUNCTION_PARAMETERS) {
  (void)execute_data;
  (void)return_value;
  zend_argument_count_error("custom %s", "count");
}

ZEND_BEGIN_ARG_INFO_EX(arginfo_int_string, 0, 0, 1)
ZEND_ARG_TYPE_INFO(0, count, IS_LONG, 0)
ZEND_ARG_TYPE_INFO(0, label, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_one, 0, 0, 1)
ZEND_ARG_TYPE_INFO(0, flag, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_objects, 0, 0, 1)
ZEND_ARG_OBJ_INFO(0, error, Throwable, 0)
ZEND_ARG_OBJ_INFO(0, maybe, Exception, 1)
ZEND_ARG_TYPE_INFO(0, options, IS_ARRAY, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_callback, 0, 0, 1)
ZEND_ARG_CALLABLE_INFO(0, callback, 0)
ZEND_ARG_CALLABLE_INFO(0, fallback, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_none, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_pool_construct, 0, 0, 1)
ZEND_ARG_CALLABLE_INFO(0, factory, 0)
ZEND_ARG_CALLABLE_INFO(0, destructor, 1)
ZEND_ARG_CALLABLE_INFO(0, healthcheck, 1)
ZEND_ARG_CALLABLE_INFO(0, beforeAcquire, 1)
ZEND_ARG_CALLABLE_INFO(0, beforeRelease, 1)
ZEND_ARG_TYPE_INFO(0, min, IS_LONG, 0)
ZEND_END_ARG_INFO()

// clang-format off
const zend_function_entry kFunctions[] = {
    ZEND_RAW_FENTRY("take_int_string", TakeIntString, arginfo_int_string, 0,
                    nullptr, nullptr)
    ZEND_RAW_FENTRY("take_exactly_one", TakeExactlyOne, arginfo_one, 0,
                    nullptr, nullptr)
    ZEND_RAW_FENTRY("take_double", TakeDouble, arginfo_one, 0, nullptr, nullptr)
    ZEND_RAW_FENTRY("take_objects", TakeObjects, arginfo_objects, 0,
                    nullptr, nullptr)
    ZEND_RAW_FENTRY("take_callback", TakeCallback, arginfo_callback, 0,
                    nullptr, nullptr)
    ZEND_RAW_FENTRY("take_nothing", TakeNothing, arginfo_none, 0,
                    nullptr, nullptr)
    ZEND_RAW_FENTRY("take_zval_or_null", TakeZvalOrNull, arginfo_one, 0,
                    nullptr, nullptr)
    ZEND_RAW_FENTRY("type_error_on_first", TypeErrorOnFirst, arginfo_none, 0,
                    nullptr, nullptr)
    ZEND_RAW_FENTRY("count_error", CountError, arginfo_none, 0,
                    nullptr, nullptr)
    ZEND_FE_END};
// clang-format on

// clang-format off
const zend_function_entry kPoolMethods[] = {
    ZEND_RAW_FENTRY("__construct", PoolConstruct, arginfo_pool_construct,
                    ZEND_ACC_PUBLIC, nullptr, nullptr)
    ZEND_FE_END};
// clang-format on

class MockZendZppTest : public zar::testing::RequestFixture {
 protected:
  void SetUp() override {
    RequestFixture::SetUp();
    zend_register_functions(nullptr, kFunctions, nullptr, MODULE_PERSISTENT);
  }

  // Calls `function` with `args`; returns "Class: message" of what it threw,
  // or "returned <value>".
  std::string Call(const char* function, std::vector<zval> args) {
    zval name;
    ZVAL_STRING(&name, function);
    zval result;
    EXPECT_EQ(
        call_user_function(nullptr, nullptr, &name, &result,
                           static_cast<uint32_t>(args.size()), args.data()),
        SUCCESS);
    zval_ptr_dtor(&name);
    for (zval& arg : args) zval_ptr_dtor(&arg);
    if (zend_object* exception = mock_zend::TakeException()) {
      std::string chain = mock_zend::ExceptionChain(exception)[0];
      OBJ_RELEASE(exception);
      return chain;
    }
    std::string described = "returned " + mock_zend::Describe(&result);
    zval_ptr_dtor(&result);
    return described;
  }

  static zval Long(zend_long v) {
    zval z;
    ZVAL_LONG(&z, v);
    return z;
  }
  static zval Str(const char* s) {
    zval z;
    ZVAL_STRING(&z, s);
    return z;
  }
  static zval Double(double d) {
    zval z;
    ZVAL_DOUBLE(&z, d);
    return z;
  }
  static zval Bool(bool b) {
    zval z;
    ZVAL_BOOL(&z, b);
    return z;
  }
  static zval Null() {
    zval z;
    ZVAL_NULL(&z);
    return z;
  }
};

TEST_F(MockZendZppTest, TooFewArgumentsGiveAtLeast) {
  EXPECT_EQ(Call("take_int_string", {}),
            "ArgumentCountError: take_int_string() expects at least 1 "
            "argument, 0 given");
}

TEST_F(MockZendZppTest, TooManyArgumentsGiveAtMost) {
  EXPECT_EQ(Call("take_int_string", {Long(1), Str("a"), Long(3)}),
            "ArgumentCountError: take_int_string() expects at most 2 "
            "arguments, 3 given");
}

TEST_F(MockZendZppTest, WrongCountWithFixedArityGivesExactly) {
  EXPECT_EQ(Call("take_exactly_one", {Long(1), Long(2)}),
            "ArgumentCountError: take_exactly_one() expects exactly 1 "
            "argument, 2 given");
  EXPECT_EQ(Call("take_nothing", {Long(1)}),
            "ArgumentCountError: take_nothing() expects exactly 0 arguments, "
            "1 given");
}

TEST_F(MockZendZppTest, WrongTypeNamesTheArgumentTheTypeAndTheValue) {
  EXPECT_EQ(Call("take_int_string", {Str("abc")}),
            "TypeError: take_int_string(): Argument #1 ($count) must be of "
            "type int, string given");
  EXPECT_EQ(Call("take_int_string", {Long(1), Long(2)}),
            "TypeError: take_int_string(): Argument #2 ($label) must be of "
            "type string, int given");
  EXPECT_EQ(Call("take_exactly_one", {Null()}),
            "TypeError: take_exactly_one(): Argument #1 ($flag) must be of "
            "type bool, null given");
}

TEST_F(MockZendZppTest, ClassArgumentsNameTheExpectedClassAndTheGivenOne) {
  zval object;
  object_init(&object);
  zval copy;
  ZVAL_COPY(&copy, &object);
  EXPECT_EQ(Call("take_objects", {copy}),
            "TypeError: take_objects(): Argument #1 ($error) must be of type "
            "Throwable, stdClass given");
  zval error;
  object_init_ex(&error, zend_ce_error);
  ZVAL_COPY(&copy, &object);
  zval error_copy;
  ZVAL_COPY(&error_copy, &error);
  EXPECT_EQ(Call("take_objects", {error_copy, copy}),
            "TypeError: take_objects(): Argument #2 ($maybe) must be of type "
            "?Exception, stdClass given");
  ZVAL_COPY(&error_copy, &error);
  EXPECT_EQ(Call("take_objects", {error_copy, Null(), Long(1)}),
            "TypeError: take_objects(): Argument #3 ($options) must be of "
            "type ?array, int given");
  ZVAL_COPY(&error_copy, &error);
  EXPECT_EQ(Call("take_objects", {error_copy, Null(), Null()}),
            "returned bool(true)");
  zval_ptr_dtor(&error);
  zval_ptr_dtor(&object);
}

TEST_F(MockZendZppTest, CallbackArgumentsMustBeValidCallbacks) {
  EXPECT_EQ(Call("take_callback", {Long(5)}),
            "TypeError: take_callback(): Argument #1 ($callback) must be a "
            "valid callback, int given");
  EXPECT_EQ(Call("take_callback", {Str("take_nothing"), Bool(true)}),
            "TypeError: take_callback(): Argument #2 ($fallback) must be a "
            "valid callback or null, true given");
  EXPECT_EQ(Call("take_callback", {Str("take_nothing"), Null()}),
            "returned bool(true)");
}

TEST_F(MockZendZppTest, IntegerParametersAcceptIntegralValuesOnly) {
  EXPECT_EQ(Call("take_int_string", {Double(3.0)}), "returned int(3)");
  EXPECT_EQ(Call("take_int_string", {Bool(true)}), "returned int(1)");
  EXPECT_EQ(Call("take_int_string", {Str(" 42 ")}), "returned int(42)");
  EXPECT_EQ(Call("take_int_string", {Double(3.5)}),
            "TypeError: take_int_string(): Argument #1 ($count) must be of "
            "type int, float given");
  EXPECT_EQ(Call("take_int_string", {Str("4x")}),
            "TypeError: take_int_string(): Argument #1 ($count) must be of "
            "type int, string given");
}

TEST_F(MockZendZppTest, BoolAndDoubleParametersAcceptScalars) {
  EXPECT_EQ(Call("take_exactly_one", {Long(2)}), "returned bool(true)");
  EXPECT_EQ(Call("take_exactly_one", {Str("0")}), "returned bool(false)");
  EXPECT_EQ(Call("take_exactly_one", {Str("")}), "returned bool(false)");
  EXPECT_EQ(Call("take_double", {Long(2)}), "returned float(2)");
  EXPECT_EQ(Call("take_double", {Str("2.5")}), "returned float(2.5)");
}

TEST_F(MockZendZppTest, ArgumentValueErrorNamesTheMethodAndTheArgument) {
  zend_class_entry ce;
  INIT_NS_CLASS_ENTRY(ce, "Async", "Pool", kPoolMethods);
  zend_class_entry* pool = zend_register_internal_class(&ce);
  zval args[6];
  for (int i = 0; i < 5; i++) ZVAL_NULL(&args[i]);
  ZVAL_LONG(&args[5], -1);
  zval object;
  object_init_ex(&object, pool);
  zend_call_known_instance_method(pool->constructor, Z_OBJ(object), nullptr, 6,
                                  args);
  zend_object* error = mock_zend::TakeException();
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(mock_zend::ExceptionChain(error),
            (std::vector<std::string>{
                "ValueError: Async\\Pool::__construct(): Argument #6 ($min) "
                "must be >= 0"}));
  OBJ_RELEASE(error);
  zval_ptr_dtor(&object);
}

TEST_F(MockZendZppTest, ArgumentTypeAndCountErrorsUseTheirClasses) {
  EXPECT_EQ(Call("type_error_on_first", {}),
            "TypeError: type_error_on_first(): Argument #1 must be positive");
  EXPECT_EQ(Call("count_error", {}), "ArgumentCountError: custom count");
}

TEST_F(MockZendZppTest, ClosureArgumentsHaveNoName) {
  std::string message;
  zval closure;
  zend_object* c = zend_mock_closure_new(
      [](zend_object*, zend_execute_data*, zval*, void*) {
        zend_argument_value_error(2, "must not be empty");
      },
      nullptr, nullptr);
  ZVAL_OBJ(&closure, c);
  zval result;
  call_user_function(nullptr, nullptr, &closure, &result, 0, nullptr);
  zend_object* error = mock_zend::TakeException();
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(mock_zend::ExceptionMessage(error),
            "{closure}(): Argument #2 must not be empty");
  OBJ_RELEASE(error);
  zval_ptr_dtor(&closure);
}

TEST_F(MockZendZppTest, ZvalOrNullGivesNullForNullAndTheValueOtherwise) {
  EXPECT_EQ(Call("take_zval_or_null", {Null()}), "returned string(\"\")");
  EXPECT_EQ(Call("take_zval_or_null", {Long(5)}), "returned int(5)");
}

}  // namespace
