/*
 * Typed properties used from C11. See typed_properties_c.h.
 */
#include "typed_properties_c.h"

#include "php.h"
#include "tests/support/c_check.h"
#include "zend_API.h"
#include "zend_enum.h"

size_t typed_properties_c_sizeof_property_info(void) {
  return sizeof(zend_property_info);
}

/* function f(?Foo $a, string|int $b = 0): array|false */
ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_c_typed, 0, 1,
                                        MAY_BE_ARRAY | MAY_BE_FALSE)
ZEND_ARG_OBJ_INFO(0, a, Foo, 1)
ZEND_ARG_TYPE_MASK(0, b, MAY_BE_STRING | MAY_BE_LONG, "0")
ZEND_END_ARG_INFO()

int typed_properties_c_arginfo_check(void) {
  C_CHECK((uintptr_t)arginfo_c_typed[0].name == 1);
  C_CHECK(ZEND_TYPE_PURE_MASK(arginfo_c_typed[0].type) ==
          (MAY_BE_ARRAY | MAY_BE_FALSE));
  C_CHECK(ZEND_TYPE_HAS_LITERAL_NAME(arginfo_c_typed[1].type));
  C_CHECK(strcmp(ZEND_TYPE_LITERAL_NAME(arginfo_c_typed[1].type), "Foo") == 0);
  C_CHECK(ZEND_TYPE_ALLOW_NULL(arginfo_c_typed[1].type));
  C_CHECK(ZEND_TYPE_PURE_MASK(arginfo_c_typed[2].type) ==
          (MAY_BE_STRING | MAY_BE_LONG));
  C_CHECK(strcmp(arginfo_c_typed[2].default_value, "0") == 0);
  return 0;
}

zend_class_entry* typed_properties_c_register_class(void) {
  zend_class_entry ce, *class_entry;
  INIT_CLASS_ENTRY(ce, "CTyped", NULL);
  class_entry = zend_register_internal_class_ex(&ce, NULL);

  zval property_reason_default_value;
  ZVAL_NULL(&property_reason_default_value);
  zend_string* property_reason_name =
      zend_string_init("reason", sizeof("reason") - 1, 1);
  zend_string* property_reason_class =
      zend_string_init("Some\\Reason", sizeof("Some\\Reason") - 1, 1);
  zend_declare_typed_property(
      class_entry, property_reason_name, &property_reason_default_value,
      ZEND_ACC_PUBLIC, NULL,
      (zend_type)ZEND_TYPE_INIT_CLASS(property_reason_class, 0, MAY_BE_NULL));
  zend_string_release(property_reason_name);

  zval property_message_default_value;
  ZVAL_UNDEF(&property_message_default_value);
  zend_string* property_message_name =
      zend_string_init("message", sizeof("message") - 1, 1);
  zend_declare_typed_property(class_entry, property_message_name,
                              &property_message_default_value,
                              ZEND_ACC_PUBLIC | ZEND_ACC_READONLY, NULL,
                              (zend_type)ZEND_TYPE_INIT_MASK(MAY_BE_STRING));
  zend_string_release(property_message_name);

  zval property_code_default_value;
  ZVAL_LONG(&property_code_default_value, 0);
  zend_string* property_code_name =
      zend_string_init("code", sizeof("code") - 1, 1);
  zend_declare_typed_property(
      class_entry, property_code_name, &property_code_default_value,
      ZEND_ACC_PUBLIC, NULL, (zend_type)ZEND_TYPE_INIT_MASK(MAY_BE_LONG));
  zend_string_release(property_code_name);
  return class_entry;
}

int typed_properties_c_create_check(zend_class_entry* ce) {
  zend_object* object = zend_object_alloc(sizeof(zend_object), ce);
  zend_object_std_init(object, ce);
  object_properties_init(object, ce);
  zval* message = OBJ_PROP_NUM(object, 1);
  int failed = 0;
  if (Z_TYPE_P(OBJ_PROP_NUM(object, 0)) != IS_NULL ||
      Z_TYPE_P(message) != IS_UNDEF ||
      !(Z_PROP_FLAG_P(message) & IS_PROP_UNINIT) ||
      Z_LVAL_P(OBJ_PROP_NUM(object, 2)) != 0) {
    failed = __LINE__;
  }
  /* zend_common.h's zval_property_copy on an uninitialised slot. */
  zval value;
  ZVAL_STRING(&value, "hello");
  Z_PROP_FLAG_P(message) &= ~(IS_PROP_UNINIT | IS_PROP_REINITABLE);
  ZVAL_COPY(message, &value);
  zval_ptr_dtor(&value);
  zval rv;
  zval* read =
      zend_read_property(ce, object, "message", sizeof("message") - 1, 0, &rv);
  if (!failed &&
      (Z_TYPE_P(read) != IS_STRING || strcmp(Z_STRVAL_P(read), "hello") != 0 ||
       EG(exception) != NULL)) {
    failed = __LINE__;
  }
  OBJ_RELEASE(object);
  return failed;
}

int typed_properties_c_object_check(zend_class_entry* ce, zend_object* object) {
  const zend_property_info* info =
      (const zend_property_info*)zend_hash_str_find_ptr(&ce->properties_info,
                                                        ZEND_STRL("right"));
  C_CHECK(info != NULL);
  zval* right = OBJ_PROP(object, info->offset);
  C_CHECK(Z_TYPE_P(right) == IS_LONG && Z_LVAL_P(right) == 2);
  zend_object_handlers handlers;
  memcpy(&handlers, zend_get_std_object_handlers(), sizeof(handlers));
  C_CHECK(handlers.free_obj == std_object_handlers.free_obj);
  GC_MAKE_PERSISTENT_LOCAL(object);
  C_CHECK(!(GC_FLAGS(object) & IS_OBJ_DESTRUCTOR_CALLED));
  return 0;
}

int typed_properties_c_enum_check(zend_class_entry* ce) {
  zend_object* enum_case = NULL;
  C_CHECK(zend_enum_get_case_by_value(&enum_case, ce, (zend_long)10, NULL,
                                      false) == SUCCESS);
  C_CHECK(enum_case != NULL);
  const zval* backing_value = zend_enum_fetch_case_value(enum_case);
  C_CHECK(Z_TYPE_P(backing_value) == IS_LONG && Z_LVAL_P(backing_value) == 10);
  C_CHECK(strcmp(Z_STRVAL_P(zend_enum_fetch_case_name(enum_case)), "High") ==
          0);
  return 0;
}
