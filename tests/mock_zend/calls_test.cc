// Tests of the mock engine's calls: frames, callables, zend_call_function
// and method calls.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "mock_zend/callable.h"
#include "mock_zend/class_builder.h"
#include "mock_zend/inspect.h"
#include "tests/mock_zend/support/engine_test.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace {

using zar::mock_zend_testing::CallFunctionByName;

using mock_zend::Call;
using mock_zend::ExceptionChain;

class MockZendCallsTest : public zar::testing::RequestFixture {
 protected:
  // Calls `callable` with `args`; returns the result (UNDEF on exception).
  zval CallIt(zval* callable, std::vector<zval> args = {}) {
    zval result;
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    EXPECT_EQ(zend_fcall_info_init(callable, 0, &fci, &fcc, nullptr, nullptr),
              SUCCESS);
    fci.retval = &result;
    fci.params = args.data();
    fci.param_count = static_cast<uint32_t>(args.size());
    EXPECT_EQ(zend_call_function(&fci, &fcc), SUCCESS);
    return result;
  }

  std::string CallableName(zval* callable) {
    zend_string* name = zend_get_callable_name(callable);
    std::string result(ZSTR_VAL(name), ZSTR_LEN(name));
    zend_string_release(name);
    return result;
  }

  std::string InitError(zval* callable) {
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    char* error = nullptr;
    EXPECT_EQ(zend_fcall_info_init(callable, 0, &fci, &fcc, nullptr, &error),
              FAILURE);
    EXPECT_EQ(EG(exception), nullptr);
    std::string result = error != nullptr ? error : "(no error)";
    efree(error);
    return result;
  }
};

void Sum(INTERNAL_FUNCTION_PARAMETERS) {
  zend_long total = 0;
  for (uint32_t i = 1; i <= ZEND_NUM_ARGS(); i++) {
    total += Z_LVAL_P(ZEND_CALL_ARG(execute_data, i));
  }
  RETURN_LONG(total);
}

ZEND_BEGIN_ARG_INFO_EX(arginfo_sum, 0, 0, 0)
ZEND_END_ARG_INFO()

// clang-format off
const zend_function_entry kFunctions[] = {
    ZEND_RAW_FENTRY("sum", Sum, arginfo_sum, 0, nullptr, nullptr)
    ZEND_FE_END};
// clang-format on

TEST_F(MockZendCallsTest, ClosureReceivesItsArgumentsAndReturnsItsResult) {
  zval closure;
  mock_zend::MakeCallable(&closure, [](Call& call) {
    ASSERT_EQ(call.argc(), 2u);
    ZVAL_LONG(call.result(),
              Z_LVAL_P(call.arg(0)) * 10 + Z_LVAL_P(call.arg(1)));
  });
  zval args[2];
  ZVAL_LONG(&args[0], 4);
  ZVAL_LONG(&args[1], 2);
  zval result = CallIt(&closure, {args[0], args[1]});
  EXPECT_EQ(Z_TYPE(result), IS_LONG);
  EXPECT_EQ(Z_LVAL(result), 42);
  zval_ptr_dtor(&closure);
}

TEST_F(MockZendCallsTest, ClosureReadsTheValuesItUses) {
  zval captured;
  ZVAL_STRING(&captured, "captured");
  zval closure;
  mock_zend::MakeCallable(&closure,
                          [](Call& call) {
                            EXPECT_EQ(call.self(), nullptr);
                            EXPECT_NE(call.closure(), nullptr);
                            ZVAL_COPY(call.result(), call.use(0));
                          },
                          {&captured});
  EXPECT_EQ(Z_REFCOUNT(captured), 2u);
  zval result = CallIt(&closure);
  EXPECT_EQ(Z_STR(result), Z_STR(captured));
  zval_ptr_dtor(&result);
  zval_ptr_dtor(&closure);
  EXPECT_EQ(Z_REFCOUNT(captured), 1u);
  zval_ptr_dtor(&captured);
}

TEST_F(MockZendCallsTest, ExceptionInTheCalleeLeavesSuccessAndAnUndefResult) {
  zval closure;
  mock_zend::MakeCallable(&closure, [](Call& call) {
    ZVAL_STRING(call.result(), "discarded");
    zend_throw_error(nullptr, "callee failed");
  });
  zval result = CallIt(&closure);
  EXPECT_EQ(Z_TYPE(result), IS_UNDEF);
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (std::vector<std::string>{"Error: callee failed"}));
  zend_clear_exception();
  zval_ptr_dtor(&closure);
}

TEST_F(MockZendCallsTest, CallWithAnExceptionPendingDoesNotRunTheCallee) {
  int calls = 0;
  zval closure;
  mock_zend::MakeCallable(&closure, [&](Call&) { calls++; });
  zend_throw_exception(nullptr, "pending", 0);
  zval result;
  ZVAL_LONG(&result, 1);
  zend_fcall_info fci = empty_fcall_info;
  fci.size = sizeof(fci);
  ZVAL_COPY_VALUE(&fci.function_name, &closure);
  fci.retval = &result;
  EXPECT_EQ(zend_call_function(&fci, nullptr), SUCCESS);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(Z_TYPE(result), IS_UNDEF);
  zend_clear_exception();
  zval_ptr_dtor(&closure);
}

TEST_F(MockZendCallsTest, GlobalFunctionsAreCalledByName) {
  zend_register_functions(nullptr, kFunctions, nullptr, MODULE_PERSISTENT);
  zval args[3];
  for (int i = 0; i < 3; i++) ZVAL_LONG(&args[i], i + 1);
  zval result = CallFunctionByName("SUM", 3, args);
  EXPECT_EQ(Z_LVAL(result), 6);
}

TEST_F(MockZendCallsTest, MethodsAreCalledThroughArrayAndStringCallables) {
  zend_class_entry* ce =
      mock_zend::ClassBuilder("Greeter")
          .Property("name")
          .Method("greet",
                  [](Call& call) {
                    zval* name = zend_read_property(
                        nullptr, call.self(), ZEND_STRL("name"), true, nullptr);
                    ZVAL_STR(call.result(),
                             zend_strpprintf(0, "hello %s", Z_STRVAL_P(name)));
                  })
          .Method("make",
                  [](Call& call) {
                    EXPECT_EQ(call.self(), nullptr);
                    ZVAL_LONG(call.result(), 7);
                  })
          .Build();
  zend_function* make = zend_hash_find_function(ce, ZEND_STRL("make"));
  make->common.fn_flags |= ZEND_ACC_STATIC;
  zval object;
  object_init_ex(&object, ce);
  zend_update_property_string(ce, Z_OBJ(object), ZEND_STRL("name"), "ann");

  zval callable;
  array_init(&callable);
  Z_ADDREF(object);
  add_next_index_zval(&callable, &object);
  add_next_index_string(&callable, "Greet");
  zval result = CallIt(&callable);
  EXPECT_STREQ(Z_STRVAL(result), "hello ann");
  zval_ptr_dtor(&result);
  zval_ptr_dtor(&callable);

  ZVAL_STRING(&callable, "greeter::make");
  result = CallIt(&callable);
  EXPECT_EQ(Z_LVAL(result), 7);
  zval_ptr_dtor(&callable);

  array_init(&callable);
  add_next_index_string(&callable, "Greeter");
  add_next_index_string(&callable, "make");
  result = CallIt(&callable);
  EXPECT_EQ(Z_LVAL(result), 7);
  zval_ptr_dtor(&callable);

  ZVAL_STRING(&callable, "greet");
  EXPECT_EQ(
      call_user_function(nullptr, &object, &callable, &result, 0, nullptr),
      SUCCESS);
  EXPECT_STREQ(Z_STRVAL(result), "hello ann");
  zval_ptr_dtor(&result);
  zval_ptr_dtor(&callable);
  zval_ptr_dtor(&object);
}

TEST_F(MockZendCallsTest, AnObjectWithInvokeIsCallable) {
  zend_class_entry* ce = mock_zend::ClassBuilder("Invokable")
                             .Method("__invoke",
                                     [](Call& call) {
                                       EXPECT_NE(call.self(), nullptr);
                                       ZVAL_TRUE(call.result());
                                     })
                             .Build();
  zval object;
  object_init_ex(&object, ce);
  EXPECT_TRUE(zend_is_callable(&object, 0, nullptr));
  zval result = CallIt(&object);
  EXPECT_EQ(Z_TYPE(result), IS_TRUE);
  EXPECT_EQ(CallableName(&object), "Invokable::__invoke");
  zval_ptr_dtor(&object);
}

TEST_F(MockZendCallsTest, UnresolvableCallablesFailWithoutAnException) {
  zval name;
  ZVAL_STRING(&name, "no_such_function");
  zval result;
  ZVAL_NULL(&result);
  EXPECT_EQ(call_user_function(nullptr, nullptr, &name, &result, 0, nullptr),
            FAILURE);
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(Z_TYPE(result), IS_UNDEF);
  zval_ptr_dtor(&name);
}

TEST_F(MockZendCallsTest, FcallInfoInitOfNonCallablesGivesPhpsReasons) {
  mock_zend::ClassBuilder("Known").Build();
  zval value;
  ZVAL_LONG(&value, 1);
  EXPECT_EQ(InitError(&value), "no array or string given");
  ZVAL_STRING(&value, "missing_fn");
  EXPECT_EQ(InitError(&value),
            "function \"missing_fn\" not found or invalid function name");
  zval_ptr_dtor(&value);
  ZVAL_STRING(&value, "Missing::method");
  EXPECT_EQ(InitError(&value), "class \"Missing\" not found");
  zval_ptr_dtor(&value);
  ZVAL_STRING(&value, "Known::nothing");
  EXPECT_EQ(InitError(&value),
            "class Known does not have a method \"nothing\"");
  zval_ptr_dtor(&value);
  array_init(&value);
  add_next_index_long(&value, 1);
  EXPECT_EQ(InitError(&value), "array callback must have exactly two members");
  zval_ptr_dtor(&value);
  object_init(&value);
  EXPECT_EQ(InitError(&value), "no array or string given");
  EXPECT_FALSE(zend_is_callable(&value, 0, nullptr));
  zval_ptr_dtor(&value);
}

TEST_F(MockZendCallsTest, FcallInfoInitFillsTheCallWithoutAddingAReference) {
  zval closure;
  mock_zend::MakeCallable(&closure, [](Call&) {});
  zend_fcall_info fci;
  zend_fcall_info_cache fcc;
  zend_string* name = nullptr;
  ASSERT_EQ(zend_fcall_info_init(&closure, 0, &fci, &fcc, &name, nullptr),
            SUCCESS);
  EXPECT_EQ(fci.size, sizeof(fci));
  EXPECT_EQ(Z_OBJ(fci.function_name), Z_OBJ(closure));
  EXPECT_EQ(Z_REFCOUNT(closure), 1u);
  EXPECT_EQ(fci.params, nullptr);
  EXPECT_EQ(fci.param_count, 0u);
  EXPECT_EQ(fci.retval, nullptr);
  EXPECT_EQ(fcc.closure, Z_OBJ(closure));
  EXPECT_NE(fcc.function_handler, nullptr);
  EXPECT_STREQ(ZSTR_VAL(name), "{closure}");
  zend_string_release(name);
  zval_ptr_dtor(&closure);
}

TEST_F(MockZendCallsTest, CallableNamesFollowPhp) {
  zend_class_entry* ce = mock_zend::ClassBuilder("Named").Build();
  zval value;
  ZVAL_STRING(&value, "strlen");
  EXPECT_EQ(CallableName(&value), "strlen");
  zval_ptr_dtor(&value);
  array_init(&value);
  add_next_index_string(&value, "Named");
  add_next_index_string(&value, "build");
  EXPECT_EQ(CallableName(&value), "Named::build");
  zval_ptr_dtor(&value);
  zval object;
  object_init_ex(&object, ce);
  array_init(&value);
  Z_ADDREF(object);
  add_next_index_zval(&value, &object);
  add_next_index_string(&value, "run");
  EXPECT_EQ(CallableName(&value), "Named::run");
  zval_ptr_dtor(&value);
  zval_ptr_dtor(&object);
  mock_zend::MakeCallable(&value, [](Call&) {});
  EXPECT_EQ(CallableName(&value), "{closure}");
  zval_ptr_dtor(&value);
}

// $object->method() through zend_call_method on a new object of `ce`: the
// exception chain it threw (then cleared). `*returned`, when given, tells
// whether zend_call_method returned the result zval (the call ran) rather
// than nullptr.
std::vector<std::string> ThrownByCalling(zend_class_entry* ce,
                                         std::string_view method,
                                         bool* returned = nullptr) {
  zval object;
  object_init_ex(&object, ce);
  zval result;
  ZVAL_UNDEF(&result);
  zval* call_result =
      zend_call_method(Z_OBJ(object), nullptr, nullptr, method.data(),
                       method.size(), &result, 0, nullptr, nullptr);
  if (returned != nullptr) *returned = call_result != nullptr;
  zval_ptr_dtor(&result);
  std::vector<std::string> chain = ExceptionChain(EG(exception));
  zend_clear_exception();
  zval_ptr_dtor(&object);
  return chain;
}

TEST_F(MockZendCallsTest, CallMethodReportsAnUndefinedMethod) {
  zend_class_entry* ce = mock_zend::ClassBuilder("Plain").Build();
  bool returned = true;
  EXPECT_EQ(ThrownByCalling(ce, "nope", &returned),
            (std::vector<std::string>{
                "Error: Call to undefined method Plain::nope()"}));
  EXPECT_FALSE(returned);
}

TEST_F(MockZendCallsTest, CallMethodPassesArgumentsAndCachesTheLookup) {
  zend_class_entry* ce =
      mock_zend::ClassBuilder("Adder")
          .Method("add",
                  [](Call& call) {
                    ZVAL_LONG(call.result(),
                              Z_LVAL_P(call.arg(0)) + Z_LVAL_P(call.arg(1)));
                  })
          .Build();
  zval object;
  object_init_ex(&object, ce);
  zval a;
  zval b;
  ZVAL_LONG(&a, 2);
  ZVAL_LONG(&b, 3);
  zend_function* cached = nullptr;
  zval result;
  EXPECT_EQ(zend_call_method_with_2_params(Z_OBJ(object), ce, &cached, "ADD",
                                           &result, &a, &b),
            &result);
  EXPECT_EQ(Z_LVAL(result), 5);
  EXPECT_EQ(cached, zend_hash_find_function(ce, ZEND_STRL("add")));
  zval_ptr_dtor(&object);
}

TEST_F(MockZendCallsTest, CallMethodIfExistsFailsQuietlyForMissingMethods) {
  zend_class_entry* ce =
      mock_zend::ClassBuilder("Maybe")
          .Method("present", [](Call& call) { ZVAL_LONG(call.result(), 1); })
          .Build();
  zval object;
  object_init_ex(&object, ce);
  zval result;
  zend_string* name = zend_string_init(ZEND_STRL("absent"), false);
  EXPECT_EQ(
      zend_call_method_if_exists(Z_OBJ(object), name, &result, 0, nullptr),
      FAILURE);
  EXPECT_EQ(Z_TYPE(result), IS_UNDEF);
  EXPECT_EQ(EG(exception), nullptr);
  zend_string_release(name);
  name = zend_string_init(ZEND_STRL("Present"), false);
  EXPECT_EQ(
      zend_call_method_if_exists(Z_OBJ(object), name, &result, 0, nullptr),
      SUCCESS);
  EXPECT_EQ(Z_LVAL(result), 1);
  zend_string_release(name);
  zval_ptr_dtor(&object);
}

TEST_F(MockZendCallsTest, TheRunningFrameNamesTheFunctionAndHoldsThis) {
  std::string inside;
  std::string klass;
  uint32_t refcount_inside = 0;
  zend_class_entry* ce =
      mock_zend::ClassBuilder("Async\\Scope")
          .Method("dispose",
                  [&](Call& call) {
                    zend_string* name = get_active_function_or_method_name();
                    inside = ZSTR_VAL(name);
                    zend_string_release(name);
                    const char* space = nullptr;
                    const char* class_name = get_active_class_name(&space);
                    klass = std::string(class_name) + space +
                            get_active_function_name();
                    refcount_inside = GC_REFCOUNT(call.self());
                    EXPECT_EQ(call.argc(), 0u);
                    EXPECT_TRUE(zend_is_executing());
                  })
          .Build();
  EXPECT_EQ(get_active_function_or_method_name(), nullptr);
  EXPECT_EQ(get_active_function_name(), nullptr);
  EXPECT_FALSE(zend_is_executing());
  zval object;
  object_init_ex(&object, ce);
  zend_call_method_with_0_params(Z_OBJ(object), nullptr, nullptr, "dispose",
                                 nullptr);
  EXPECT_EQ(inside, "Async\\Scope::dispose");
  EXPECT_EQ(klass, "Async\\Scope::dispose");
  EXPECT_EQ(refcount_inside, 2u);
  EXPECT_EQ(GC_REFCOUNT(Z_OBJ(object)), 1u);
  EXPECT_EQ(EG(current_execute_data), nullptr);
  zval_ptr_dtor(&object);
}

TEST_F(MockZendCallsTest, MainScriptCountsAsExecuting) {
  bool executing = false;
  EXPECT_TRUE(RunMain([&] { executing = zend_is_executing(); }));
  EXPECT_TRUE(executing);
  EXPECT_FALSE(zend_is_executing());
}

// PHP has an executed file only while it executes: a location the test
// sets is a script running there until it is cleared.
TEST_F(MockZendCallsTest, ASetLocationCountsAsExecuting) {
  EXPECT_FALSE(zend_is_executing());
  zend_mock_set_location("/app/x.php", 3);
  EXPECT_TRUE(zend_is_executing());
  EXPECT_STREQ(ZSTR_VAL(zend_get_executed_filename_ex()), "/app/x.php");
  EXPECT_EQ(zend_get_executed_lineno(), 3u);
  zend_mock_set_location(nullptr, 0);
  EXPECT_FALSE(zend_is_executing());
  EXPECT_EQ(zend_get_executed_filename_ex(), nullptr);
}

TEST_F(MockZendCallsTest, AClosureStaysAliveWhileItRuns) {
  zval* slot = static_cast<zval*>(emalloc(sizeof(zval)));
  mock_zend::MakeCallable(slot, [slot](Call& call) {
    zval_ptr_dtor(slot);  // drops the only reference outside the frame
    EXPECT_EQ(GC_REFCOUNT(call.closure()), 1u);
    ZVAL_LONG(call.result(), 1);
  });
  zval callable;
  ZVAL_COPY_VALUE(&callable, slot);
  zval result = CallIt(&callable);
  EXPECT_EQ(Z_LVAL(result), 1);
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
  efree(slot);
}

TEST_F(MockZendCallsTest, AbstractMethodsThrowWhenCalled) {
  zend_class_entry* ce = mock_zend::ClassBuilder("Shape").Build();
  // clang-format off
  const zend_function_entry abstract_entry[] = {
      ZEND_RAW_FENTRY("area", nullptr, arginfo_sum,
                      ZEND_ACC_PUBLIC | ZEND_ACC_ABSTRACT, nullptr, nullptr)
      ZEND_FE_END};
  // clang-format on
  zend_register_functions(ce, abstract_entry, &ce->function_table,
                          MODULE_PERSISTENT);
  EXPECT_EQ(ThrownByCalling(ce, "area"),
            (std::vector<std::string>{
                "Error: Cannot call abstract method Shape::area()"}));
}

}  // namespace
