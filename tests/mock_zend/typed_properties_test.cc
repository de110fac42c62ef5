// Tests of the mock engine's type declarations and declared properties:
// zend_type and its macros, arg-info tables, zend_property_info,
// zend_declare_typed_property, object_properties_init and the typed slot
// states (IS_PROP_UNINIT) as property reads and writes see them.

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "mock_zend/inspect.h"
#include "tests/mock_zend/support/engine_test.h"
#include "tests/mock_zend/typed_properties_c.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace {

using mock_zend::ExceptionChain;
using zar::mock_zend_testing::ExpectFieldsInOrder;
using zar::mock_zend_testing::ExpectOnlyError;
using zar::mock_zend_testing::UnsupportedMessage;

class MockZendTypedPropertiesTest : public zar::testing::RequestFixture {
 protected:
  // A class named `name` (extending `parent` when given) without methods.
  static zend_class_entry* RegisterClass(const char* name,
                                         zend_class_entry* parent = nullptr) {
    zend_class_entry ce;
    INIT_CLASS_ENTRY(ce, "", nullptr);
    ce.name = zend_string_init_interned(name, strlen(name), true);
    return zend_register_internal_class_ex(&ce, parent);
  }

  // Declares `name` typed `type` without a default (as gen_stub.php does
  // for `public int $name;`).
  static zend_property_info* DeclareUninitialized(zend_class_entry* ce,
                                                  const char* name,
                                                  zend_type type,
                                                  int flags = ZEND_ACC_PUBLIC) {
    zval undef;
    ZVAL_UNDEF(&undef);
    return zend_declare_typed_property(
        ce, zend_string_init_interned(name, strlen(name), true), &undef, flags,
        nullptr, type);
  }

  // A typed slot never initialised: UNDEF, flagged IS_PROP_UNINIT.
  static void ExpectUninit(const zval* slot) {
    EXPECT_EQ(Z_TYPE_P(slot), IS_UNDEF);
    EXPECT_EQ(Z_PROP_FLAG_P(slot), IS_PROP_UNINIT);
  }

  static zend_property_info* Info(zend_class_entry* ce, const char* name) {
    return static_cast<zend_property_info*>(
        zend_hash_str_find_ptr(&ce->properties_info, name, strlen(name)));
  }
};

// Arg info as gen_stub.php writes it for
//   function f(array &$list, Bar|string|null $o = null, int ...$rest): ?Foo
// clang-format off
ZEND_BEGIN_ARG_WITH_RETURN_OBJ_TYPE_MASK_EX(arginfo_typed, 0, 1, Foo, MAY_BE_NULL)
  ZEND_ARG_TYPE_INFO(1, list, IS_ARRAY, 0)
  ZEND_ARG_OBJ_TYPE_MASK(0, o, Bar, MAY_BE_STRING|MAY_BE_NULL, "null")
  ZEND_ARG_VARIADIC_TYPE_INFO(0, rest, IS_LONG, 0)
ZEND_END_ARG_INFO()
// clang-format on

TEST_F(MockZendTypedPropertiesTest, ZendTypeAndArgInfoHavePhpsLayout) {
  EXPECT_EQ(sizeof(zend_type), 16u);
  EXPECT_EQ(offsetof(zend_type, ptr), 0u);
  EXPECT_EQ(offsetof(zend_type, type_mask), 8u);
  EXPECT_EQ(sizeof(zend_internal_arg_info), 32u);
  ExpectFieldsInOrder({offsetof(zend_internal_arg_info, name),
                       offsetof(zend_internal_arg_info, type),
                       offsetof(zend_internal_arg_info, default_value)});
  ExpectFieldsInOrder(
      {offsetof(zend_property_info, offset),
       offsetof(zend_property_info, flags), offsetof(zend_property_info, name),
       offsetof(zend_property_info, doc_comment),
       offsetof(zend_property_info, attributes),
       offsetof(zend_property_info, ce), offsetof(zend_property_info, type),
       offsetof(zend_property_info, prototype),
       offsetof(zend_property_info, hooks)});
  EXPECT_EQ(sizeof(zend_property_info), 72u);
  EXPECT_EQ(typed_properties_c_sizeof_property_info(),
            sizeof(zend_property_info));
}

TEST_F(MockZendTypedPropertiesTest, TypeBitsHavePhpsValues) {
  EXPECT_EQ(MAY_BE_NULL, 2);
  EXPECT_EQ(MAY_BE_BOOL, 12);
  EXPECT_EQ(MAY_BE_LONG, 16);
  EXPECT_EQ(MAY_BE_STRING, 64);
  EXPECT_EQ(MAY_BE_ARRAY, 128);
  EXPECT_EQ(MAY_BE_OBJECT, 256);
  EXPECT_EQ(MAY_BE_ANY, 1022);
  EXPECT_EQ(MAY_BE_CALLABLE, 4096);
  EXPECT_EQ(_ZEND_TYPE_NAME_BIT, 1u << 24);
  EXPECT_EQ(_ZEND_TYPE_LITERAL_NAME_BIT, 1u << 23);
  EXPECT_EQ(_ZEND_TYPE_LIST_BIT, 1u << 22);
  EXPECT_EQ(_ZEND_TYPE_ITERABLE_BIT, 1u << 21);
  EXPECT_EQ(_ZEND_IS_VARIADIC_BIT, 1 << 27);
  EXPECT_EQ(IS_PROP_UNINIT, 1);
  EXPECT_EQ(IS_PROP_REINITABLE, 2);
  EXPECT_EQ(IS_PROP_LAZY, 4);
}

TEST_F(MockZendTypedPropertiesTest, TypeInitialisersBuildPhpsMasks) {
  const zend_type nullable_int = ZEND_TYPE_INIT_CODE(IS_LONG, 1, 0);
  EXPECT_EQ(ZEND_TYPE_PURE_MASK(nullable_int), MAY_BE_LONG | MAY_BE_NULL);
  EXPECT_TRUE(ZEND_TYPE_ALLOW_NULL(nullable_int));
  EXPECT_TRUE(ZEND_TYPE_IS_ONLY_MASK(nullable_int));
  const zend_type boolean = ZEND_TYPE_INIT_CODE(_IS_BOOL, 0, 0);
  EXPECT_EQ(ZEND_TYPE_FULL_MASK(boolean), static_cast<uint32_t>(MAY_BE_BOOL));
  const zend_type mixed = ZEND_TYPE_INIT_CODE(IS_MIXED, 0, 0);
  EXPECT_EQ(ZEND_TYPE_PURE_MASK(mixed), static_cast<uint32_t>(MAY_BE_ANY));
  const zend_type iterable = ZEND_TYPE_INIT_CODE(IS_ITERABLE, 0, 0);
  EXPECT_TRUE(ZEND_TYPE_IS_ITERABLE_FALLBACK(iterable));
  const zend_type none = ZEND_TYPE_INIT_NONE(0);
  EXPECT_FALSE(ZEND_TYPE_IS_SET(none));

  zend_string* name = zend_string_init(ZEND_STRL("Foo"), true);
  const zend_type by_name = ZEND_TYPE_INIT_CLASS(name, 1, 0);
  EXPECT_TRUE(ZEND_TYPE_HAS_NAME(by_name));
  EXPECT_TRUE(ZEND_TYPE_IS_COMPLEX(by_name));
  EXPECT_TRUE(ZEND_TYPE_ALLOW_NULL(by_name));
  EXPECT_EQ(ZEND_TYPE_NAME(by_name), name);
  zend_string_release(name);
  const zend_type literal = ZEND_TYPE_INIT_CLASS_CONST("Foo", 0, 0);
  EXPECT_TRUE(ZEND_TYPE_HAS_LITERAL_NAME(literal));
  EXPECT_FALSE(ZEND_TYPE_HAS_NAME(literal));
  EXPECT_STREQ(ZEND_TYPE_LITERAL_NAME(literal), "Foo");
}

TEST_F(MockZendTypedPropertiesTest, TypeForeachVisitsEachMemberOfAList) {
  auto* list = static_cast<zend_type_list*>(malloc(ZEND_TYPE_LIST_SIZE(2)));
  list->num_types = 2;
  list->types[0] = zend_type ZEND_TYPE_INIT_CLASS_CONST("A", 0, 0);
  list->types[1] = zend_type ZEND_TYPE_INIT_CLASS_CONST("B", 0, 0);
  zend_type type = ZEND_TYPE_INIT_UNION(list, 0);
  std::vector<std::string> names;
  const zend_type* single;
  ZEND_TYPE_FOREACH(type, single) {
    names.emplace_back(ZEND_TYPE_LITERAL_NAME(*single));
  }
  ZEND_TYPE_FOREACH_END();
  EXPECT_EQ(names, (std::vector<std::string>{"A", "B"}));
  EXPECT_TRUE(ZEND_TYPE_HAS_LIST(type));
  EXPECT_TRUE(ZEND_TYPE_IS_UNION(type));

  zend_type plain = ZEND_TYPE_INIT_MASK(MAY_BE_LONG);
  int visits = 0;
  zend_type* each;
  ZEND_TYPE_FOREACH_MUTABLE(plain, each) {
    EXPECT_EQ(each, &plain);
    visits++;
  }
  ZEND_TYPE_FOREACH_END();
  EXPECT_EQ(visits, 1);
  free(list);
}

TEST_F(MockZendTypedPropertiesTest, ArgInfoRecordsTypesAndPassingModes) {
  EXPECT_EQ(reinterpret_cast<uintptr_t>(arginfo_typed[0].name), 1u);
  EXPECT_STREQ(ZEND_TYPE_LITERAL_NAME(arginfo_typed[0].type), "Foo");
  EXPECT_TRUE(ZEND_TYPE_ALLOW_NULL(arginfo_typed[0].type));

  EXPECT_STREQ(arginfo_typed[1].name, "list");
  EXPECT_EQ(ZEND_TYPE_PURE_MASK(arginfo_typed[1].type),
            static_cast<uint32_t>(MAY_BE_ARRAY));
  EXPECT_EQ(ZEND_ARG_SEND_MODE(&arginfo_typed[1]), 1u);

  EXPECT_STREQ(ZEND_TYPE_LITERAL_NAME(arginfo_typed[2].type), "Bar");
  EXPECT_EQ(ZEND_TYPE_PURE_MASK(arginfo_typed[2].type),
            static_cast<uint32_t>(MAY_BE_STRING | MAY_BE_NULL));
  EXPECT_STREQ(arginfo_typed[2].default_value, "null");
  EXPECT_EQ(ZEND_ARG_SEND_MODE(&arginfo_typed[2]), 0u);

  EXPECT_TRUE(ZEND_ARG_IS_VARIADIC(&arginfo_typed[3]));
  EXPECT_FALSE(ZEND_ARG_IS_VARIADIC(&arginfo_typed[2]));
  EXPECT_EQ(typed_properties_c_arginfo_check(), 0);
}

TEST_F(MockZendTypedPropertiesTest, PropertyInfoDescribesTheDeclaration) {
  zend_class_entry* ce = RegisterClass("Counter");
  zval zero;
  ZVAL_LONG(&zero, 0);
  zend_property_info* first = zend_declare_typed_property(
      ce, zend_string_init_interned(ZEND_STRL("first"), true), &zero,
      ZEND_ACC_PROTECTED, nullptr,
      zend_type ZEND_TYPE_INIT_CODE(IS_LONG, 0, 0));
  zend_property_info* count =
      DeclareUninitialized(ce, "count", ZEND_TYPE_INIT_CODE(IS_LONG, 0, 0));
  ASSERT_NE(first, nullptr);
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(Info(ce, "first"), first);
  EXPECT_EQ(Info(ce, "count"), count);
  EXPECT_EQ(first->offset, OBJ_PROP_TO_OFFSET(0));
  EXPECT_EQ(count->offset, OBJ_PROP_TO_OFFSET(1));
  EXPECT_EQ(first->flags, static_cast<uint32_t>(ZEND_ACC_PROTECTED));
  EXPECT_EQ(count->ce, ce);
  EXPECT_STREQ(ZSTR_VAL(count->name), "count");
  EXPECT_EQ(ZEND_TYPE_PURE_MASK(count->type),
            static_cast<uint32_t>(MAY_BE_LONG));
  EXPECT_EQ(ce->default_properties_count, 2);
  EXPECT_EQ(ce->properties_info_table[1], count);
  EXPECT_EQ(OBJ_PROP_TO_NUM(count->offset), 1u);
  EXPECT_EQ(OBJ_PROP_TO_OFFSET(0), 40u);  // x86-64: past ce, handlers, table
}

TEST_F(MockZendTypedPropertiesTest, ATypedPropertyWithoutDefaultStartsUninit) {
  zend_class_entry* ce = RegisterClass("Counter");
  DeclareUninitialized(ce, "count", ZEND_TYPE_INIT_CODE(IS_LONG, 0, 0));
  ExpectUninit(&ce->default_properties_table[0]);
  zval object;
  ASSERT_EQ(object_init_ex(&object, ce), SUCCESS);
  ExpectUninit(OBJ_PROP_NUM(Z_OBJ(object), 0));
  zval_ptr_dtor(&object);
}

TEST_F(MockZendTypedPropertiesTest, ReadingAnUninitTypedPropertyThrowsError) {
  zend_class_entry* base = RegisterClass("Base");
  DeclareUninitialized(base, "count", ZEND_TYPE_INIT_CODE(IS_LONG, 0, 0));
  zend_class_entry* child = RegisterClass("Child", base);
  zval object;
  ASSERT_EQ(object_init_ex(&object, child), SUCCESS);
  zval rv;
  zend_read_property(child, Z_OBJ(object), ZEND_STRL("count"), false, &rv);
  // PHP names the declaring class.
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (std::vector<std::string>{
                "Error: Typed property Base::$count must not be accessed "
                "before initialization"}));
  zend_clear_exception();
  EXPECT_EQ(zend_mock_error_count(), 0u);  // no warning besides
  zval* silent =
      zend_read_property(child, Z_OBJ(object), ZEND_STRL("count"), true, &rv);
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(Z_TYPE_P(silent), IS_NULL);
  zval_ptr_dtor(&object);
}

TEST_F(MockZendTypedPropertiesTest, AnUnsetUntypedPropertyReadsAsUndefined) {
  zend_class_entry* ce = RegisterClass("Loose");
  zval undef;
  ZVAL_UNDEF(&undef);
  zend_declare_property_ex(ce, zend_string_init_interned(ZEND_STRL("x"), true),
                           &undef, ZEND_ACC_PUBLIC, nullptr);
  zval object;
  ASSERT_EQ(object_init_ex(&object, ce), SUCCESS);
  zval rv;
  zend_read_property(ce, Z_OBJ(object), ZEND_STRL("x"), false, &rv);
  EXPECT_EQ(EG(exception), nullptr);
  ExpectOnlyError(E_WARNING, "Undefined property: Loose::$x");
  zend_mock_errors_clear();
  zval_ptr_dtor(&object);
}

TEST_F(MockZendTypedPropertiesTest, WritingATypedPropertyInitialisesIt) {
  zend_class_entry* ce = RegisterClass("Counter");
  DeclareUninitialized(ce, "count", ZEND_TYPE_INIT_CODE(IS_LONG, 0, 0));
  zval object;
  ASSERT_EQ(object_init_ex(&object, ce), SUCCESS);
  zend_update_property_long(ce, Z_OBJ(object), ZEND_STRL("count"), 7);
  zval* slot = OBJ_PROP_NUM(Z_OBJ(object), 0);
  EXPECT_EQ(Z_PROP_FLAG_P(slot), 0);
  zval rv;
  zval* read =
      zend_read_property(ce, Z_OBJ(object), ZEND_STRL("count"), false, &rv);
  EXPECT_EQ(EG(exception), nullptr);
  ASSERT_EQ(Z_TYPE_P(read), IS_LONG);
  EXPECT_EQ(Z_LVAL_P(read), 7);
  zval_ptr_dtor(&object);
}

// What a create_object handler of an extension does (php-async's
// zend_object_internal_create).
zend_object* CreateWithProperties(zend_class_entry* ce) {
  auto* object =
      static_cast<zend_object*>(zend_object_alloc(sizeof(zend_object), ce));
  for (int i = 0; i < ce->default_properties_count; i++) {
    ZVAL_LONG(OBJ_PROP_NUM(object, i), 99);  // a marker std_init must keep
  }
  zend_object_std_init(object, ce);
  EXPECT_EQ(Z_LVAL_P(OBJ_PROP_NUM(object, 0)), 99);
  object_properties_init(object, ce);
  return object;
}

TEST_F(MockZendTypedPropertiesTest, ObjectPropertiesInitCopiesTheDefaults) {
  zend_class_entry* ce = RegisterClass("Settings");
  zend_declare_property_string(ce, ZEND_STRL("mode"), "fast", ZEND_ACC_PUBLIC);
  DeclareUninitialized(ce, "name", ZEND_TYPE_INIT_CODE(IS_STRING, 0, 0));
  ce->create_object = CreateWithProperties;
  zval object;
  ASSERT_EQ(object_init_ex(&object, ce), SUCCESS);
  zval* mode = OBJ_PROP_NUM(Z_OBJ(object), 0);
  ASSERT_EQ(Z_TYPE_P(mode), IS_STRING);
  EXPECT_EQ(Z_STR_P(mode), Z_STR(ce->default_properties_table[0]));
  EXPECT_EQ(Z_PROP_FLAG_P(mode), 0);
  ExpectUninit(OBJ_PROP_NUM(Z_OBJ(object), 1));
  zval_ptr_dtor(&object);
}

TEST_F(MockZendTypedPropertiesTest, AChildSharesItsParentsDeclarations) {
  zend_class_entry* base = RegisterClass("Base");
  zend_property_info* inherited =
      DeclareUninitialized(base, "code", ZEND_TYPE_INIT_CODE(IS_LONG, 0, 0));
  zend_class_entry* child = RegisterClass("Child", base);
  EXPECT_EQ(Info(child, "code"), inherited);
  EXPECT_EQ(inherited->ce, base);
  EXPECT_EQ(Z_PROP_FLAG_P(&child->default_properties_table[0]), IS_PROP_UNINIT);
  zval zero;
  ZVAL_LONG(&zero, 0);
  zend_property_info* redeclared = zend_declare_typed_property(
      child, zend_string_init_interned(ZEND_STRL("code"), true), &zero,
      ZEND_ACC_PUBLIC, nullptr, zend_type ZEND_TYPE_INIT_CODE(IS_LONG, 0, 0));
  EXPECT_NE(redeclared, inherited);
  EXPECT_EQ(redeclared->ce, child);
  EXPECT_EQ(redeclared->offset, inherited->offset);  // the same slot
  EXPECT_EQ(child->default_properties_count, 1);
  EXPECT_EQ(Info(child, "code"), redeclared);
  EXPECT_EQ(Info(base, "code"), inherited);
  EXPECT_EQ(Z_PROP_FLAG_P(&child->default_properties_table[0]), 0);
}

TEST_F(MockZendTypedPropertiesTest, DeclarePropertyHelpersDeclareUntyped) {
  zend_class_entry* ce = RegisterClass("Plain");
  zend_declare_property_null(ce, ZEND_STRL("a"), ZEND_ACC_PUBLIC);
  zend_declare_property_long(ce, ZEND_STRL("b"), 5, ZEND_ACC_PUBLIC);
  zend_declare_property_bool(ce, ZEND_STRL("c"), 1, ZEND_ACC_PUBLIC);
  zend_declare_property_double(ce, ZEND_STRL("d"), 1.5, ZEND_ACC_PUBLIC);
  zend_declare_property_string(ce, ZEND_STRL("e"), "text", ZEND_ACC_PUBLIC);
  ASSERT_EQ(ce->default_properties_count, 5);
  EXPECT_FALSE(ZEND_TYPE_IS_SET(Info(ce, "b")->type));
  EXPECT_EQ(Z_TYPE(ce->default_properties_table[0]), IS_NULL);
  EXPECT_EQ(Z_LVAL(ce->default_properties_table[1]), 5);
  EXPECT_EQ(Z_TYPE(ce->default_properties_table[2]), IS_TRUE);
  EXPECT_EQ(Z_DVAL(ce->default_properties_table[3]), 1.5);
  EXPECT_STREQ(Z_STRVAL(ce->default_properties_table[4]), "text");
  EXPECT_EQ(Z_PROP_FLAG_P(&ce->default_properties_table[4]), 0);
}

TEST_F(MockZendTypedPropertiesTest, StaticPropertiesFailLoudly) {
  zend_class_entry* ce = RegisterClass("WithStatic");
  const std::string expected = UnsupportedMessage(
      "zend_declare_typed_property", "it has no static properties");
  ExpectFatalErrors({expected});
  zval value;
  ZVAL_LONG(&value, 1);
  zend_property_info* info = zend_declare_typed_property(
      ce, zend_string_init_interned(ZEND_STRL("shared"), true), &value,
      ZEND_ACC_PUBLIC | ZEND_ACC_STATIC, nullptr,
      zend_type ZEND_TYPE_INIT_NONE(0));
  EXPECT_EQ(info, nullptr);
  EXPECT_EQ(ce->default_properties_count, 0);
  ExpectOnlyError(E_CORE_ERROR, expected);
}

TEST_F(MockZendTypedPropertiesTest, ObjectPropertiesLoadWritesEachProperty) {
  zend_class_entry* ce = RegisterClass("Counter");
  DeclareUninitialized(ce, "count", ZEND_TYPE_INIT_CODE(IS_LONG, 0, 0));
  zval object;
  ASSERT_EQ(object_init_ex(&object, ce), SUCCESS);
  zval values;
  array_init(&values);
  add_assoc_long(&values, "count", 3);
  add_assoc_long(&values, "extra", 4);
  object_properties_load(Z_OBJ(object), Z_ARRVAL(values));
  zval_ptr_dtor(&values);
  EXPECT_EQ(Z_LVAL_P(OBJ_PROP_NUM(Z_OBJ(object), 0)), 3);
  EXPECT_EQ(Z_PROP_FLAG_P(OBJ_PROP_NUM(Z_OBJ(object), 0)), 0);
  ASSERT_NE(Z_OBJ(object)->properties, nullptr);
  zval* extra =
      zend_hash_str_find(Z_OBJ(object)->properties, ZEND_STRL("extra"));
  ASSERT_NE(extra, nullptr);
  EXPECT_EQ(Z_LVAL_P(extra), 4);
  zval_ptr_dtor(&object);
}

TEST_F(MockZendTypedPropertiesTest, ObjPropMacrosAddressTheSameSlots) {
  zend_class_entry* ce = RegisterClass("Pair");
  zend_declare_property_long(ce, ZEND_STRL("left"), 1, ZEND_ACC_PUBLIC);
  zend_declare_property_long(ce, ZEND_STRL("right"), 2, ZEND_ACC_PUBLIC);
  zval object;
  ASSERT_EQ(object_init_ex(&object, ce), SUCCESS);
  zend_object* obj = Z_OBJ(object);
  EXPECT_EQ(OBJ_PROP(obj, Info(ce, "right")->offset), OBJ_PROP_NUM(obj, 1));
  EXPECT_EQ(OBJ_PROP_NUM(obj, 1), &obj->properties_table[1]);
  EXPECT_EQ(OBJ_PROP_TO_NUM(OBJ_PROP_TO_OFFSET(3)), 3u);
  EXPECT_EQ(zend_get_std_object_handlers(), &std_object_handlers);
  EXPECT_EQ(typed_properties_c_object_check(ce, obj), 0);
  zval_ptr_dtor(&object);
}

TEST_F(MockZendTypedPropertiesTest, CDeclaresTypedPropertiesAsGenStubDoes) {
  zend_class_entry* ce = typed_properties_c_register_class();
  ASSERT_NE(ce, nullptr);
  ASSERT_EQ(ce->default_properties_count, 3);
  zend_property_info* reason = Info(ce, "reason");
  ASSERT_NE(reason, nullptr);
  EXPECT_TRUE(ZEND_TYPE_HAS_NAME(reason->type));
  EXPECT_STREQ(ZSTR_VAL(ZEND_TYPE_NAME(reason->type)), "Some\\Reason");
  EXPECT_TRUE(ZEND_TYPE_ALLOW_NULL(reason->type));
  EXPECT_EQ(typed_properties_c_create_check(ce), 0);
}

}  // namespace
