// zend-async-ref: mock Zend engine. Truthiness, identity and conversions
// (zend_operators.h), and the type names used in error messages
// (zend_API.h), with PHP 8 semantics.

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "engine_internal.h"

namespace {

// PHP's float to int: truncation, and 0 when out of range or not finite.
zend_long DoubleToLong(double d) {
  if (!std::isfinite(d) || d >= 9223372036854775808.0 ||
      d < -9223372036854775808.0) {
    return 0;
  }
  return static_cast<zend_long>(d);
}

// The leading number of a string, as (int) "12abc" reads it: 12.
zend_long StringToLong(const char* str) {
  char* end = nullptr;
  errno = 0;
  const long long value = strtoll(str, &end, 10);
  if (end != nullptr && (*end == '.' || *end == 'e' || *end == 'E')) {
    return DoubleToLong(strtod(str, nullptr));
  }
  if (errno == ERANGE) return value < 0 ? ZEND_LONG_MIN : ZEND_LONG_MAX;
  return static_cast<zend_long>(value);
}

bool ArraysIdentical(HashTable* a, HashTable* b) {
  if (a == b) return true;
  if (zend_hash_num_elements(a) != zend_hash_num_elements(b)) return false;
  uint32_t j = 0;
  for (uint32_t i = 0; i < a->nNumUsed; i++) {
    const Bucket* p = a->arData + i;
    if (Z_TYPE(p->val) == IS_UNDEF) continue;
    while (Z_TYPE(b->arData[j].val) == IS_UNDEF) j++;
    const Bucket* q = b->arData + j++;
    if ((p->key == nullptr) != (q->key == nullptr)) return false;
    if (p->key != nullptr ? !zend_string_equals(p->key, q->key)
                          : p->h != q->h) {
      return false;
    }
    if (!zend_is_identical(&p->val, &q->val)) return false;
  }
  return true;
}

}  // namespace

extern "C" {

bool zend_is_true(const zval* op) {
  switch (Z_TYPE_P(op)) {
    case IS_TRUE:
      return true;
    case IS_LONG:
      return Z_LVAL_P(op) != 0;
    case IS_DOUBLE:
      return Z_DVAL_P(op) != 0;
    case IS_STRING:
      return !(Z_STRLEN_P(op) == 0 ||
               (Z_STRLEN_P(op) == 1 && Z_STRVAL_P(op)[0] == '0'));
    case IS_ARRAY:
      return zend_hash_num_elements(Z_ARRVAL_P(op)) != 0;
    case IS_OBJECT:
    case IS_RESOURCE:
    case IS_PTR:
      return true;
    case IS_REFERENCE:
      return zend_is_true(Z_REFVAL_P(op));
    default:  // UNDEF, NULL, FALSE
      return false;
  }
}

bool zend_is_identical(const zval* op1, const zval* op2) {
  if (Z_ISREF_P(op1)) op1 = Z_REFVAL_P(op1);
  if (Z_ISREF_P(op2)) op2 = Z_REFVAL_P(op2);
  if (Z_TYPE_P(op1) != Z_TYPE_P(op2)) return false;
  switch (Z_TYPE_P(op1)) {
    case IS_UNDEF:
    case IS_NULL:
    case IS_FALSE:
    case IS_TRUE:
      return true;
    case IS_LONG:
      return Z_LVAL_P(op1) == Z_LVAL_P(op2);
    case IS_DOUBLE:
      return Z_DVAL_P(op1) == Z_DVAL_P(op2);
    case IS_STRING:
      return zend_string_equals(Z_STR_P(op1), Z_STR_P(op2));
    case IS_ARRAY:
      return ArraysIdentical(Z_ARRVAL_P(op1), Z_ARRVAL_P(op2));
    case IS_OBJECT:
      return Z_OBJ_P(op1) == Z_OBJ_P(op2);
    case IS_RESOURCE:
      return Z_RES_P(op1) == Z_RES_P(op2);
    default:
      return Z_PTR_P(op1) == Z_PTR_P(op2);
  }
}

zend_long zval_get_long(const zval* op) {
  switch (Z_TYPE_P(op)) {
    case IS_TRUE:
      return 1;
    case IS_LONG:
      return Z_LVAL_P(op);
    case IS_DOUBLE:
      return DoubleToLong(Z_DVAL_P(op));
    case IS_STRING:
      return StringToLong(Z_STRVAL_P(op));
    case IS_ARRAY:
      return zend_hash_num_elements(Z_ARRVAL_P(op)) != 0 ? 1 : 0;
    case IS_OBJECT:
      return 1;
    case IS_RESOURCE:
      return Z_RES_P(op)->handle;
    case IS_REFERENCE:
      return zval_get_long(Z_REFVAL_P(op));
    default:
      return 0;
  }
}

zend_string* ZEND_FASTCALL zend_long_to_str(zend_long num) {
  char buf[MAX_LENGTH_OF_LONG + 1];
  char* end = buf + sizeof(buf) - 1;
  char* text = zend_print_long_to_buf(end, num);
  return zend_string_init(text, static_cast<size_t>(end - text), false);
}

zend_string* zval_get_string(zval* op) {
  switch (Z_TYPE_P(op)) {
    case IS_STRING:
      return zend_string_copy(Z_STR_P(op));
    case IS_TRUE:
      return zend_string_init_interned(ZEND_STRL("1"), true);
    case IS_LONG:
      return zend_long_to_str(Z_LVAL_P(op));
    case IS_DOUBLE: {
      const std::string text =
          mock_zend::internal::DoubleToString(Z_DVAL_P(op));
      return zend_string_init(text.data(), text.size(), false);
    }
    case IS_ARRAY:
      zend_error(E_WARNING, "Array to string conversion");
      return zend_string_init_interned(ZEND_STRL("Array"), true);
    case IS_OBJECT: {
      zval result;
      zend_object* object = Z_OBJ_P(op);
      if (zend_call_method_if_exists(
              object, zend_string_init_interned(ZEND_STRL("__tostring"), true),
              &result, 0, nullptr) == SUCCESS) {
        if (Z_TYPE(result) == IS_STRING) return Z_STR(result);
        zval_ptr_dtor(&result);
        if (EG(exception) != nullptr)
          return zend_string_copy(zend_empty_string);
      }
      zend_throw_error(nullptr,
                       "Object of class %s could not be converted to string",
                       ZSTR_VAL(object->ce->name));
      return zend_string_copy(zend_empty_string);
    }
    case IS_RESOURCE:
      return zend_strpprintf(0, "Resource id #" ZEND_LONG_FMT,
                             Z_RES_P(op)->handle);
    case IS_REFERENCE:
      return zval_get_string(Z_REFVAL_P(op));
    default:  // UNDEF, NULL, FALSE
      return zend_string_copy(zend_empty_string);
  }
}

zend_string* zval_try_get_string_func(zval* op) {
  zend_object* const pending = EG(exception);
  zend_string* str = zval_get_string(op);
  if (UNEXPECTED(EG(exception) != pending)) {
    zend_string_release(str);
    return nullptr;
  }
  return str;
}

void _convert_to_string(zval* op) {
  zend_string* str = zval_get_string(op);
  zval_ptr_dtor(op);
  ZVAL_STR(op, str);
}

const char* zend_zval_type_name(const zval* arg) {
  if (Z_ISREF_P(arg)) arg = Z_REFVAL_P(arg);
  switch (Z_TYPE_P(arg)) {
    case IS_FALSE:
    case IS_TRUE:
      return "bool";
    case IS_LONG:
      return "int";
    case IS_DOUBLE:
      return "float";
    case IS_STRING:
      return "string";
    case IS_ARRAY:
      return "array";
    case IS_OBJECT:
      return "object";
    case IS_RESOURCE:
      return "resource";
    default:
      return "null";
  }
}

// As PHP 8.3+: objects by class name, booleans as "true"/"false".
const char* zend_zval_value_name(const zval* arg) {
  if (Z_ISREF_P(arg)) arg = Z_REFVAL_P(arg);
  switch (Z_TYPE_P(arg)) {
    case IS_OBJECT:
      return ZSTR_VAL(Z_OBJCE_P(arg)->name);
    case IS_FALSE:
      return "false";
    case IS_TRUE:
      return "true";
    default:
      return zend_zval_type_name(arg);
  }
}

}  // extern "C"
