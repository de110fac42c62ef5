// Tests of the mock engine's classes: registration, inheritance,
// interfaces, instanceof, properties and the builtin hierarchy.

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "mock_zend/class_builder.h"
#include "mock_zend/inspect.h"
#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "ext/spl/spl_exceptions.h"
}

namespace {

class MockZendClassesTest : public zar::testing::RequestFixture {};

std::vector<std::string> PropertyNames(const zend_class_entry* ce) {
  std::vector<std::string> names;
  for (int i = 0; i < ce->default_properties_count; i++) {
    names.emplace_back(ZSTR_VAL(ce->properties_info_table[i]->name));
  }
  return names;
}

// One instanceof question and the answer instanceof_function must give.
struct Instanceof {
  zend_class_entry* ce;
  zend_class_entry* of;
  bool expected;
};

void ExpectInstanceof(std::initializer_list<Instanceof> cases) {
  for (const Instanceof& c : cases) {
    EXPECT_EQ(instanceof_function(c.ce, c.of), c.expected)
        << ZSTR_VAL(c.ce->name) << " instanceof " << ZSTR_VAL(c.of->name);
  }
}

void Handler(INTERNAL_FUNCTION_PARAMETERS) {
  (void)execute_data;
  RETURN_LONG(1);
}

ZEND_BEGIN_ARG_INFO_EX(arginfo_two_args, 0, 0, 1)
ZEND_ARG_TYPE_INFO(0, first, IS_LONG, 0)
ZEND_ARG_TYPE_INFO(0, second, IS_STRING, 0)
ZEND_END_ARG_INFO()

// clang-format off
const zend_function_entry kMethods[] = {
    ZEND_RAW_FENTRY("run", Handler, arginfo_two_args, ZEND_ACC_PUBLIC,
                    nullptr, nullptr)
    ZEND_RAW_FENTRY("__construct", Handler, arginfo_two_args, ZEND_ACC_PUBLIC,
                    nullptr, nullptr)
    ZEND_FE_END};
// clang-format on

TEST_F(MockZendClassesTest, RegistrationCopiesTheEntryIntoThePersistentTable) {
  zend_class_entry ce;
  INIT_CLASS_ENTRY(ce, "Vendor\\Widget", kMethods);
  zend_class_entry* registered = zend_register_internal_class_ex(&ce, nullptr);
  ASSERT_NE(registered, nullptr);
  EXPECT_NE(registered, &ce);
  EXPECT_EQ(registered->type, ZEND_INTERNAL_CLASS);
  EXPECT_STREQ(ZSTR_VAL(registered->name), "Vendor\\Widget");
  zend_string* lookup = zend_string_init(ZEND_STRL("VENDOR\\widget"), false);
  EXPECT_EQ(zend_lookup_class(lookup), registered);
  zend_string_release(lookup);
  lookup = zend_string_init(ZEND_STRL("\\Vendor\\Widget"), false);
  EXPECT_EQ(zend_lookup_class(lookup), registered);
  zend_string_release(lookup);
  EXPECT_EQ(
      zend_hash_str_find_ptr(EG(class_table), ZEND_STRL("vendor\\widget")),
      registered);
}

TEST_F(MockZendClassesTest, RegisterWithFlagsAddsTheFlagsAndTheParent) {
  zend_class_entry ce;
  INIT_NS_CLASS_ENTRY(ce, "Vendor", "FinalWidget", nullptr);
  zend_class_entry* registered = zend_register_internal_class_with_flags(
      &ce, zend_ce_exception, ZEND_ACC_FINAL | ZEND_ACC_NO_DYNAMIC_PROPERTIES);
  ASSERT_NE(registered, nullptr);
  EXPECT_STREQ(ZSTR_VAL(registered->name), "Vendor\\FinalWidget");
  EXPECT_EQ(registered->parent, zend_ce_exception);
  EXPECT_EQ(
      registered->ce_flags & (ZEND_ACC_FINAL | ZEND_ACC_NO_DYNAMIC_PROPERTIES),
      ZEND_ACC_FINAL | ZEND_ACC_NO_DYNAMIC_PROPERTIES);
  EXPECT_TRUE(instanceof_function(registered, zend_ce_throwable));
}

TEST_F(MockZendClassesTest, RegisterWithZeroFlagsAddsNoFlag) {
  zend_class_entry plain;
  INIT_CLASS_ENTRY(plain, "PlainWidget", nullptr);
  const uint32_t expected =
      zend_register_internal_class_ex(&plain, nullptr)->ce_flags;
  zend_class_entry ce;
  INIT_CLASS_ENTRY(ce, "PlainWidget2", nullptr);
  zend_class_entry* registered =
      zend_register_internal_class_with_flags(&ce, nullptr, 0);
  ASSERT_NE(registered, nullptr);
  EXPECT_EQ(registered->ce_flags, expected);
}

TEST_F(MockZendClassesTest, RegisterWithFlagsOfATakenNameFailsAsEx) {
  ExpectFatalErrors(
      {"Cannot declare class TakenWidget, because the name is already in use"});
  zend_class_entry ce;
  INIT_CLASS_ENTRY(ce, "TakenWidget", nullptr);
  ASSERT_NE(zend_register_internal_class_with_flags(&ce, nullptr, 0), nullptr);
  const uint32_t errors = zend_mock_error_count();
  INIT_CLASS_ENTRY(ce, "TakenWidget", nullptr);
  EXPECT_EQ(
      zend_register_internal_class_with_flags(&ce, nullptr, ZEND_ACC_FINAL),
      nullptr);
  ASSERT_EQ(zend_mock_error_count(), errors + 1);
  EXPECT_EQ(zend_mock_error_type(errors), E_CORE_ERROR);
  EXPECT_STREQ(zend_mock_error_message(errors),
               "Cannot declare class TakenWidget, because the name is already "
               "in use");
  zend_mock_errors_clear();
}

TEST_F(MockZendClassesTest, MethodsTakeNameArgInfoAndCountsFromTheEntry) {
  zend_class_entry ce;
  INIT_CLASS_ENTRY(ce, "Widget", kMethods);
  zend_class_entry* registered = zend_register_internal_class(&ce);
  zend_function* run = zend_hash_find_function(registered, ZEND_STRL("RUN"));
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->type, ZEND_INTERNAL_FUNCTION);
  EXPECT_STREQ(ZSTR_VAL(run->common.function_name), "run");
  EXPECT_EQ(run->common.scope, registered);
  EXPECT_EQ(run->common.num_args, 2u);
  EXPECT_EQ(run->common.required_num_args, 1u);
  EXPECT_STREQ(run->internal_function.arg_info[0].name, "first");
  EXPECT_STREQ(run->internal_function.arg_info[1].name, "second");
  EXPECT_EQ(run->internal_function.handler, Handler);
  EXPECT_TRUE(ZSTR_IS_INTERNED(run->common.function_name));
  EXPECT_EQ(registered->constructor,
            zend_hash_find_function(registered, ZEND_STRL("__construct")));
  EXPECT_EQ(registered->destructor, nullptr);
}

TEST_F(MockZendClassesTest, ChildGetsTheParentsPropertySlotsFirst) {
  zend_class_entry* parent =
      mock_zend::ClassBuilder("Base").Property("a").Property("b").Build();
  zend_class_entry* child =
      mock_zend::ClassBuilder("Derived").Extends(parent).Property("c").Build();
  EXPECT_EQ(PropertyNames(child), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(child->parent, parent);
}

TEST_F(MockZendClassesTest, ChildInheritsMethodsItDoesNotDefine) {
  zend_class_entry* parent = mock_zend::ClassBuilder("Base")
                                 .Method("shared", [](mock_zend::Call&) {})
                                 .Method("overridden", [](mock_zend::Call&) {})
                                 .Build();
  zend_class_entry* child = mock_zend::ClassBuilder("Derived")
                                .Extends(parent)
                                .Method("overridden", [](mock_zend::Call&) {})
                                .Build();
  zend_function* shared = zend_hash_find_function(child, ZEND_STRL("shared"));
  EXPECT_EQ(shared, zend_hash_find_function(parent, ZEND_STRL("shared")));
  EXPECT_EQ(shared->common.scope, parent);
  zend_function* overridden =
      zend_hash_find_function(child, ZEND_STRL("overridden"));
  EXPECT_NE(overridden,
            zend_hash_find_function(parent, ZEND_STRL("overridden")));
  EXPECT_EQ(overridden->common.scope, child);
}

TEST_F(MockZendClassesTest, ChildInheritsCreateObjectAndInterfaces) {
  zend_class_entry* iface = mock_zend::ClassBuilder("Shape").Build();
  iface->ce_flags |= ZEND_ACC_INTERFACE;
  zend_class_entry* parent =
      mock_zend::ClassBuilder("Polygon").Implements(iface).Build();
  parent->create_object = zend_objects_new;
  zend_class_entry* child =
      mock_zend::ClassBuilder("Square").Extends(parent).Build();
  EXPECT_EQ(child->create_object, zend_objects_new);
  ASSERT_EQ(child->num_interfaces, 1u);
  EXPECT_EQ(child->interfaces[0], iface);
}

TEST_F(MockZendClassesTest, ImplementingAnInterfaceAlsoImplementsItsParents) {
  zend_class_entry base;
  INIT_CLASS_ENTRY(base, "BaseIface", nullptr);
  zend_class_entry* base_iface = zend_register_internal_interface(&base);
  zend_class_entry derived;
  INIT_CLASS_ENTRY(derived, "DerivedIface", nullptr);
  zend_class_entry* derived_iface = zend_register_internal_interface(&derived);
  zend_class_implements(derived_iface, 1, base_iface);
  zend_class_entry* impl =
      mock_zend::ClassBuilder("Impl").Implements(derived_iface).Build();
  zend_class_implements(impl, 1, base_iface);  // already there: no duplicate
  EXPECT_TRUE(derived_iface->ce_flags & ZEND_ACC_INTERFACE);
  ASSERT_EQ(impl->num_interfaces, 2u);
  EXPECT_EQ(impl->interfaces[0], derived_iface);
  EXPECT_EQ(impl->interfaces[1], base_iface);
  EXPECT_TRUE(instanceof_function(impl, base_iface));
}

TEST_F(MockZendClassesTest, InstanceofWalksParentsAndInterfaces) {
  zend_class_entry* parent =
      mock_zend::ClassBuilder("Animal").Implements(zend_ce_countable).Build();
  zend_class_entry* child =
      mock_zend::ClassBuilder("Dog").Extends(parent).Build();
  zend_class_entry* other = mock_zend::ClassBuilder("Rock").Build();
  ExpectInstanceof({{child, child, true},
                    {child, parent, true},
                    {child, zend_ce_countable, true},
                    {parent, child, false},
                    {other, parent, false},
                    {other, zend_ce_countable, false}});
}

TEST_F(MockZendClassesTest, BuiltinThrowablesFormPhpsHierarchy) {
  ExpectInstanceof({
      {spl_ce_InvalidArgumentException, spl_ce_LogicException, true},
      {spl_ce_OutOfBoundsException, spl_ce_RuntimeException, true},
      {spl_ce_UnexpectedValueException, zend_ce_exception, true},
      {zend_ce_argument_count_error, zend_ce_type_error, true},
      {zend_ce_division_by_zero_error, zend_ce_arithmetic_error, true},
      {zend_ce_error_exception, zend_ce_exception, true},
      {zend_ce_exception, zend_ce_throwable, true},
      {zend_ce_value_error, zend_ce_throwable, true},
      {zend_ce_throwable, zend_ce_stringable, true},
      {zend_ce_cancellation, zend_ce_throwable, true},
      {zend_ce_cancellation, zend_ce_exception, false},
      {zend_ce_cancellation, zend_ce_error, false},
      {zend_ce_error, zend_ce_exception, false},
      {zend_ce_backed_enum, zend_ce_unit_enum, true},
  });
  EXPECT_TRUE(zend_ce_closure->ce_flags & ZEND_ACC_FINAL);
  EXPECT_NE(zend_ce_traversable, nullptr);
}

TEST_F(MockZendClassesTest, ThrowablesDeclarePhpsPropertiesInPhpsOrder) {
  const std::vector<std::string> expected = {
      "message", "string", "code", "file", "line", "trace", "previous"};
  EXPECT_EQ(PropertyNames(zend_ce_exception), expected);
  EXPECT_EQ(PropertyNames(zend_ce_error), expected);
  EXPECT_EQ(PropertyNames(zend_ce_cancellation), expected);
  EXPECT_EQ(PropertyNames(spl_ce_RuntimeException), expected);
  const zval* defaults = zend_ce_exception->default_properties_table;
  EXPECT_EQ(Z_STRLEN(defaults[0]), 0u);
  EXPECT_EQ(Z_LVAL(defaults[2]), 0);
  EXPECT_EQ(Z_TYPE(defaults[5]), IS_ARRAY);
  EXPECT_EQ(zend_hash_num_elements(Z_ARRVAL(defaults[5])), 0u);
  EXPECT_EQ(Z_TYPE(defaults[6]), IS_NULL);
}

TEST_F(MockZendClassesTest, RedeclaringAPropertyKeepsItsSlotWithTheNewDefault) {
  zend_class_entry* ce =
      mock_zend::ClassBuilder("Config").Property("a").Property("b").Build();
  zval value;
  ZVAL_STRING(&value, "request string");
  // The declaration takes the value, as PHP's zend_declare_property_ex
  // does; the class keeps its own (interned, persistent) copy.
  zend_declare_property_ex(ce, zend_string_init_interned(ZEND_STRL("a"), 1),
                           &value, ZEND_ACC_PUBLIC, nullptr);
  EXPECT_EQ(ce->default_properties_count, 2);
  EXPECT_STREQ(Z_STRVAL(ce->default_properties_table[0]), "request string");
  EXPECT_TRUE(ZSTR_IS_INTERNED(Z_STR(ce->default_properties_table[0])));
}

TEST_F(MockZendClassesTest, RegisteringAClassNameTwiceIsRefused) {
  ExpectFatalErrors(
      {"Cannot declare class twice, because the name is already in use"});
  mock_zend::ClassBuilder("Twice").Build();
  const uint32_t errors = zend_mock_error_count();
  EXPECT_EQ(mock_zend::ClassBuilder("twice").Build(), nullptr);
  ASSERT_EQ(zend_mock_error_count(), errors + 1);
  EXPECT_EQ(zend_mock_error_type(errors), E_CORE_ERROR);
  EXPECT_STREQ(
      zend_mock_error_message(errors),
      "Cannot declare class twice, because the name is already in use");
}

TEST_F(MockZendClassesTest, RegisterFunctionsAddsGlobalFunctions) {
  // clang-format off
  const zend_function_entry functions[] = {
      ZEND_RAW_FENTRY("my_function", Handler, arginfo_two_args, 0,
                      nullptr, nullptr)
      ZEND_FE_END};
  // clang-format on
  EXPECT_EQ(
      zend_register_functions(nullptr, functions, nullptr, MODULE_PERSISTENT),
      SUCCESS);
  zend_function* fn = static_cast<zend_function*>(
      zend_hash_str_find_ptr(EG(function_table), ZEND_STRL("my_function")));
  ASSERT_NE(fn, nullptr);
  EXPECT_EQ(fn->common.scope, nullptr);
  EXPECT_EQ(fn, zend_hash_find_function(nullptr, ZEND_STRL("My_Function")));
  EXPECT_EQ(
      zend_register_functions(nullptr, functions, nullptr, MODULE_PERSISTENT),
      FAILURE);
}

TEST_F(MockZendClassesTest, UpdatingADeclaredPropertyReplacesItsSlot) {
  zend_class_entry* ce =
      mock_zend::ClassBuilder("Holder").Property("value").Build();
  zval obj;
  object_init_ex(&obj, ce);
  zval str;
  ZVAL_STRING(&str, "first");
  zend_update_property(ce, Z_OBJ(obj), ZEND_STRL("value"), &str);
  EXPECT_EQ(Z_REFCOUNT(str), 2u);
  zend_update_property_long(ce, Z_OBJ(obj), ZEND_STRL("value"), 3);
  EXPECT_EQ(Z_REFCOUNT(str), 1u);  // the old value was released
  EXPECT_EQ(Z_LVAL(Z_OBJ(obj)->properties_table[0]), 3);
  EXPECT_EQ(Z_OBJ(obj)->properties, nullptr);
  zval_ptr_dtor(&str);
  zval_ptr_dtor(&obj);
}

// A caller holding no class (a lookup that found none) gets an Error naming
// object_init_ex and FAILURE with the zval NULL, not a crash.
TEST_F(MockZendClassesTest, InstantiatingNoClassThrowsAndFails) {
  zval obj;
  ZVAL_UNDEF(&obj);
  const uint32_t alive = zend_objects_store_live_count();
  EXPECT_EQ(object_init_ex(&obj, nullptr), FAILURE);
  EXPECT_TRUE(Z_TYPE(obj) == IS_NULL);
  EXPECT_EQ(zar::testing::TakeExceptionText(),
            "Error: object_init_ex() was given no class entry");
  EXPECT_EQ(zend_objects_store_live_count(), alive);  // no object was made
}

TEST_F(MockZendClassesTest, UndeclaredPropertiesBecomeDynamic) {
  zval obj;
  object_init(&obj);
  zend_update_property_string(nullptr, Z_OBJ(obj), ZEND_STRL("extra"), "x");
  ASSERT_NE(Z_OBJ(obj)->properties, nullptr);
  zval* value = zend_hash_str_find(Z_OBJ(obj)->properties, ZEND_STRL("extra"));
  ASSERT_NE(value, nullptr);
  EXPECT_STREQ(Z_STRVAL_P(value), "x");
  zend_string* name = zend_string_init(ZEND_STRL("extra"), false);
  EXPECT_EQ(zend_read_property_ex(nullptr, Z_OBJ(obj), name, false, nullptr),
            value);
  zend_string_release(name);
  zval_ptr_dtor(&obj);
}

TEST_F(MockZendClassesTest, ReadingAMissingPropertyWarnsUnlessSilent) {
  zval obj;
  object_init(&obj);
  const uint32_t errors = zend_mock_error_count();
  zval* value =
      zend_read_property(nullptr, Z_OBJ(obj), ZEND_STRL("nope"), true, nullptr);
  EXPECT_EQ(Z_TYPE_P(value), IS_NULL);
  EXPECT_EQ(zend_mock_error_count(), errors);
  value = zend_read_property(nullptr, Z_OBJ(obj), ZEND_STRL("nope"), false,
                             nullptr);
  EXPECT_EQ(Z_TYPE_P(value), IS_NULL);
  ASSERT_EQ(zend_mock_error_count(), errors + 1);
  EXPECT_EQ(zend_mock_error_type(errors), E_WARNING);
  EXPECT_STREQ(zend_mock_error_message(errors),
               "Undefined property: stdClass::$nope");
  zval_ptr_dtor(&obj);
}

}  // namespace
