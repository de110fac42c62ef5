// zend-async-ref: mock Zend engine. The Throwable hierarchy registered at
// startup: Exception, Error and their builtin subclasses, and the TrueAsync
// core's Cancellation.
//
// Every throwable class has PHP's declared properties in PHP's order
// (message, string, code, file, line, trace, previous), and its objects
// record the executing location (zend_mock_set_location) in file/line when
// created. Methods: __construct($message = "", $code = 0, $previous =
// null), getMessage, getCode, getPrevious, getFile, getLine.

#include "engine_internal.h"

extern "C" {

zend_class_entry* zend_ce_throwable = nullptr;
zend_class_entry* zend_ce_exception = nullptr;
zend_class_entry* zend_ce_error_exception = nullptr;
zend_class_entry* zend_ce_error = nullptr;
zend_class_entry* zend_ce_compile_error = nullptr;
zend_class_entry* zend_ce_type_error = nullptr;
zend_class_entry* zend_ce_argument_count_error = nullptr;
zend_class_entry* zend_ce_value_error = nullptr;
zend_class_entry* zend_ce_arithmetic_error = nullptr;
zend_class_entry* zend_ce_division_by_zero_error = nullptr;
zend_class_entry* zend_ce_unhandled_match_error = nullptr;
zend_class_entry* zend_ce_cancellation = nullptr;

}  // extern "C"

namespace {

using mock_zend::internal::PropertySlot;
using mock_zend::internal::RegisterClass;

zend_object* CreateThrowable(zend_class_entry* ce) {
  zend_object* object = zend_objects_new(ce);
  object_properties_init(object, ce);
  zend_string* file = zend_get_executed_filename_ex();
  zval* file_slot = PropertySlot(object, ZEND_STRL("file"));
  if (file != nullptr && file_slot != nullptr) {
    zval_ptr_dtor(file_slot);
    ZVAL_STR_COPY(file_slot, file);
  }
  zval* line_slot = PropertySlot(object, ZEND_STRL("line"));
  if (line_slot != nullptr) {
    zval_ptr_dtor(line_slot);
    ZVAL_LONG(line_slot, zend_get_executed_lineno());
  }
  return object;
}

void SetSlot(zend_object* object, const char* name, size_t len, zval* value) {
  zval* slot = PropertySlot(object, name, len);
  if (slot == nullptr) return;
  zval old;
  ZVAL_COPY_VALUE(&old, slot);
  ZVAL_COPY(slot, value);
  zval_ptr_dtor(&old);
}

void ReturnSlot(zend_execute_data* execute_data, zval* return_value,
                const char* name, size_t len) {
  ZEND_PARSE_PARAMETERS_NONE();
  zval* slot = PropertySlot(Z_OBJ_P(ZEND_THIS), name, len);
  if (slot != nullptr) ZVAL_COPY(return_value, slot);
}

void ThrowableConstruct(INTERNAL_FUNCTION_PARAMETERS) {
  (void)return_value;
  zend_string* message = nullptr;
  zend_long code = 0;
  zval* previous = nullptr;
  ZEND_PARSE_PARAMETERS_START(0, 3)
  Z_PARAM_OPTIONAL
  Z_PARAM_STR(message)
  Z_PARAM_LONG(code)
  Z_PARAM_OBJECT_OF_CLASS_OR_NULL(previous, zend_ce_throwable)
  ZEND_PARSE_PARAMETERS_END();
  zend_object* self = Z_OBJ_P(ZEND_THIS);
  zval value;
  if (message != nullptr) {
    ZVAL_STR(&value, message);
    SetSlot(self, ZEND_STRL("message"), &value);
  }
  if (code != 0) {
    ZVAL_LONG(&value, code);
    SetSlot(self, ZEND_STRL("code"), &value);
  }
  if (previous != nullptr) SetSlot(self, ZEND_STRL("previous"), previous);
}

void ThrowableGetMessage(INTERNAL_FUNCTION_PARAMETERS) {
  ReturnSlot(execute_data, return_value, ZEND_STRL("message"));
}
void ThrowableGetCode(INTERNAL_FUNCTION_PARAMETERS) {
  ReturnSlot(execute_data, return_value, ZEND_STRL("code"));
}
void ThrowableGetPrevious(INTERNAL_FUNCTION_PARAMETERS) {
  ReturnSlot(execute_data, return_value, ZEND_STRL("previous"));
}
void ThrowableGetFile(INTERNAL_FUNCTION_PARAMETERS) {
  ReturnSlot(execute_data, return_value, ZEND_STRL("file"));
}
void ThrowableGetLine(INTERNAL_FUNCTION_PARAMETERS) {
  ReturnSlot(execute_data, return_value, ZEND_STRL("line"));
}

ZEND_BEGIN_ARG_INFO_EX(arginfo_throwable_construct, 0, 0, 0)
ZEND_ARG_TYPE_INFO(0, message, IS_STRING, 0)
ZEND_ARG_TYPE_INFO(0, code, IS_LONG, 0)
ZEND_ARG_OBJ_INFO(0, previous, Throwable, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_throwable_getter, 0, 0, 0)
ZEND_END_ARG_INFO()

// clang-format off
const zend_function_entry kThrowableMethods[] = {
    ZEND_RAW_FENTRY("__construct", ThrowableConstruct,
                    arginfo_throwable_construct, ZEND_ACC_PUBLIC,
                    nullptr, nullptr)
    ZEND_RAW_FENTRY("getMessage", ThrowableGetMessage,
                    arginfo_throwable_getter, ZEND_ACC_PUBLIC | ZEND_ACC_FINAL,
                    nullptr, nullptr)
    ZEND_RAW_FENTRY("getCode", ThrowableGetCode,
                    arginfo_throwable_getter, ZEND_ACC_PUBLIC | ZEND_ACC_FINAL,
                    nullptr, nullptr)
    ZEND_RAW_FENTRY("getPrevious", ThrowableGetPrevious,
                    arginfo_throwable_getter, ZEND_ACC_PUBLIC | ZEND_ACC_FINAL,
                    nullptr, nullptr)
    ZEND_RAW_FENTRY("getFile", ThrowableGetFile,
                    arginfo_throwable_getter, ZEND_ACC_PUBLIC | ZEND_ACC_FINAL,
                    nullptr, nullptr)
    ZEND_RAW_FENTRY("getLine", ThrowableGetLine,
                    arginfo_throwable_getter, ZEND_ACC_PUBLIC | ZEND_ACC_FINAL,
                    nullptr, nullptr)
    ZEND_FE_END};
// clang-format on

void DeclareLong(zend_class_entry* ce, const char* name, zend_long value) {
  zval default_value;
  ZVAL_LONG(&default_value, value);
  zend_declare_property_ex(ce, zend_string_init_interned(name, strlen(name), 1),
                           &default_value, ZEND_ACC_PUBLIC, nullptr);
}

void DeclareKnown(zend_class_entry* ce, zend_known_string_id name,
                  zval* value) {
  zend_declare_property_ex(ce, ZSTR_KNOWN(name), value, ZEND_ACC_PROTECTED,
                           nullptr);
}

// A root throwable class (no parent) with the standard properties.
zend_class_entry* RegisterRoot(const char* name) {
  zend_class_entry* ce = RegisterClass(name, nullptr, kThrowableMethods, 0);
  ce->create_object = CreateThrowable;
  zend_class_implements(ce, 1, zend_ce_throwable);
  zval value;
  ZVAL_EMPTY_STRING(&value);
  DeclareKnown(ce, ZEND_STR_MESSAGE, &value);
  DeclareKnown(ce, ZEND_STR_STRING, &value);
  ZVAL_LONG(&value, 0);
  DeclareKnown(ce, ZEND_STR_CODE, &value);
  ZVAL_EMPTY_STRING(&value);
  DeclareKnown(ce, ZEND_STR_FILE, &value);
  ZVAL_LONG(&value, 0);
  DeclareKnown(ce, ZEND_STR_LINE, &value);
  mock_zend::internal::ZvalEmptyArray(&value);
  DeclareKnown(ce, ZEND_STR_TRACE, &value);
  ZVAL_NULL(&value);
  DeclareKnown(ce, ZEND_STR_PREVIOUS, &value);
  return ce;
}

zend_class_entry* RegisterChild(const char* name, zend_class_entry* parent) {
  return RegisterClass(name, parent, nullptr, 0);
}

}  // namespace

namespace mock_zend::internal {

void RegisterThrowableClasses() {
  zend_ce_throwable =
      RegisterClass("Throwable", nullptr, nullptr, ZEND_ACC_INTERFACE);
  zend_class_implements(zend_ce_throwable, 1, zend_ce_stringable);

  zend_ce_exception = RegisterRoot("Exception");
  zend_ce_error_exception = RegisterChild("ErrorException", zend_ce_exception);
  DeclareLong(zend_ce_error_exception, "severity", E_ERROR);

  zend_ce_error = RegisterRoot("Error");
  zend_ce_compile_error = RegisterChild("CompileError", zend_ce_error);
  zend_ce_type_error = RegisterChild("TypeError", zend_ce_error);
  zend_ce_argument_count_error =
      RegisterChild("ArgumentCountError", zend_ce_type_error);
  zend_ce_value_error = RegisterChild("ValueError", zend_ce_error);
  zend_ce_arithmetic_error = RegisterChild("ArithmeticError", zend_ce_error);
  zend_ce_division_by_zero_error =
      RegisterChild("DivisionByZeroError", zend_ce_arithmetic_error);
  zend_ce_unhandled_match_error =
      RegisterChild("UnhandledMatchError", zend_ce_error);

  zend_ce_cancellation = RegisterRoot("Cancellation");
}

}  // namespace mock_zend::internal
