// zend-async-ref: mock Zend engine. Parameter parsing fallbacks and the
// argument errors of zend_API.h, with PHP 8's messages:
//
//   Foo::bar() expects exactly 2 arguments, 1 given        (ArgumentCountError)
//   Foo::bar(): Argument #1 ($x) must be of type int, string given (TypeError)
//   Foo::bar(): Argument #6 ($min) must be >= 0             (ValueError)
//
// The function is the running one (get_active_function_or_method_name());
// " ($name)" appears when its arg_info names the argument.

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "absl/strings/str_format.h"
#include "engine_internal.h"

namespace {

using mock_zend::internal::VFormat;

std::string ActiveFunctionName() {
  zend_string* name = get_active_function_or_method_name();
  if (name == nullptr) return "main";
  std::string result(ZSTR_VAL(name), ZSTR_LEN(name));
  zend_string_release(name);
  return result;
}

const char* ActiveArgName(uint32_t arg_num) {
  zend_execute_data* frame = EG(current_execute_data);
  if (frame == nullptr || frame->func == nullptr || arg_num == 0)
    return nullptr;
  const zend_internal_function& f = frame->func->internal_function;
  if (f.arg_info == nullptr || arg_num > f.num_args) return nullptr;
  return f.arg_info[arg_num - 1].name;
}

void ThrowArgumentError(zend_class_entry* error_ce, uint32_t arg_num,
                        const std::string& message) {
  const char* arg_name = ActiveArgName(arg_num);
  const std::string name_part =
      arg_name != nullptr ? absl::StrFormat(" ($%s)", arg_name) : std::string();
  zend_throw_error(error_ce, "%s(): Argument #%u%s %s",
                   ActiveFunctionName().c_str(), arg_num, name_part.c_str(),
                   message.c_str());
}

std::string ExpectedTypeName(zend_expected_type expected,
                             zend_class_entry* expected_class) {
  switch (expected) {
    case Z_EXPECTED_LONG:
      return "int";
    case Z_EXPECTED_LONG_OR_NULL:
      return "?int";
    case Z_EXPECTED_BOOL:
      return "bool";
    case Z_EXPECTED_BOOL_OR_NULL:
      return "?bool";
    case Z_EXPECTED_STRING:
      return "string";
    case Z_EXPECTED_STRING_OR_NULL:
      return "?string";
    case Z_EXPECTED_ARRAY:
      return "array";
    case Z_EXPECTED_ARRAY_OR_NULL:
      return "?array";
    case Z_EXPECTED_OBJECT:
      return "object";
    case Z_EXPECTED_OBJECT_OR_NULL:
      return "?object";
    case Z_EXPECTED_DOUBLE:
      return "float";
    case Z_EXPECTED_DOUBLE_OR_NULL:
      return "?float";
    case Z_EXPECTED_OBJECT_OF_CLASS:
      return expected_class != nullptr ? ZSTR_VAL(expected_class->name)
                                       : "object";
    case Z_EXPECTED_OBJECT_OF_CLASS_OR_NULL:
      return std::string("?") + (expected_class != nullptr
                                     ? ZSTR_VAL(expected_class->name)
                                     : "object");
    case Z_EXPECTED_ITERABLE:
      return "Traversable|array";
    case Z_EXPECTED_ITERABLE_OR_NULL:
      return "Traversable|array|null";
    default:
      return "mixed";
  }
}

void WrongCount(uint32_t min_num_args, uint32_t max_num_args,
                uint32_t num_args) {
  const char* relation = min_num_args == max_num_args ? "exactly"
                         : num_args < min_num_args    ? "at least"
                                                      : "at most";
  const uint32_t expected =
      num_args < min_num_args ? min_num_args : max_num_args;
  zend_throw_error(zend_ce_argument_count_error,
                   "%s() expects %s %u argument%s, %u given",
                   ActiveFunctionName().c_str(), relation, expected,
                   expected == 1 ? "" : "s", num_args);
}

// An integer numeric string: optional surrounding whitespace and sign.
bool ParseIntegerString(const zend_string* str, zend_long* dest) {
  const char* begin = ZSTR_VAL(str);
  const char* end = begin + ZSTR_LEN(str);
  while (begin < end && (*begin == ' ' || *begin == '\t' || *begin == '\n' ||
                         *begin == '\r' || *begin == '\v' || *begin == '\f')) {
    begin++;
  }
  while (end > begin &&
         (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' ||
          end[-1] == '\r' || end[-1] == '\v' || end[-1] == '\f')) {
    end--;
  }
  if (begin == end) return false;
  const std::string digits(begin, end);
  char* stop = nullptr;
  errno = 0;
  const long long value = strtoll(digits.c_str(), &stop, 10);
  if (errno == ERANGE || stop != digits.c_str() + digits.size()) return false;
  *dest = static_cast<zend_long>(value);
  return true;
}

bool ParseNumericString(const zend_string* str, double* dest) {
  if (ZSTR_LEN(str) == 0) return false;
  char* stop = nullptr;
  const double value = strtod(ZSTR_VAL(str), &stop);
  while (*stop == ' ' || *stop == '\t' || *stop == '\n' || *stop == '\r') {
    stop++;
  }
  if (stop != ZSTR_VAL(str) + ZSTR_LEN(str)) return false;
  *dest = value;
  return true;
}

}  // namespace

extern "C" {

bool zend_parse_arg_long_slow(zval* arg, zend_long* dest) {
  switch (Z_TYPE_P(arg)) {
    case IS_DOUBLE: {
      const double d = Z_DVAL_P(arg);
      if (!std::isfinite(d) || d != std::trunc(d) ||
          d >= 9223372036854775808.0 || d < -9223372036854775808.0) {
        return false;
      }
      *dest = static_cast<zend_long>(d);
      return true;
    }
    case IS_TRUE:
    case IS_FALSE:
      *dest = Z_TYPE_P(arg) == IS_TRUE ? 1 : 0;
      return true;
    case IS_STRING:
      return ParseIntegerString(Z_STR_P(arg), dest);
    default:
      return false;
  }
}

bool zend_parse_arg_bool_slow(zval* arg, bool* dest) {
  switch (Z_TYPE_P(arg)) {
    case IS_LONG:
    case IS_DOUBLE:
    case IS_STRING:
      *dest = zend_is_true(arg);
      return true;
    default:
      return false;
  }
}

bool zend_parse_arg_double_slow(zval* arg, double* dest) {
  switch (Z_TYPE_P(arg)) {
    case IS_LONG:
      *dest = static_cast<double>(Z_LVAL_P(arg));
      return true;
    case IS_TRUE:
    case IS_FALSE:
      *dest = Z_TYPE_P(arg) == IS_TRUE ? 1.0 : 0.0;
      return true;
    case IS_STRING:
      return ParseNumericString(Z_STR_P(arg), dest);
    default:
      return false;
  }
}

void zend_wrong_parameter_error(int error_code, uint32_t arg_num,
                                zend_expected_type expected_type,
                                zend_class_entry* expected_class, zval* arg,
                                uint32_t min_num_args, uint32_t max_num_args,
                                uint32_t num_args) {
  if (EG(exception) != nullptr) return;  // the failure already threw
  switch (error_code) {
    case ZPP_ERROR_WRONG_COUNT:
      WrongCount(min_num_args, max_num_args, num_args);
      break;
    case ZPP_ERROR_WRONG_ARG: {
      const char* given = zend_zval_value_name(arg);
      if (expected_type == Z_EXPECTED_FUNC ||
          expected_type == Z_EXPECTED_FUNC_OR_NULL) {
        ThrowArgumentError(
            zend_ce_type_error, arg_num,
            absl::StrFormat(
                "must be a valid callback%s, %s given",
                expected_type == Z_EXPECTED_FUNC_OR_NULL ? " or null" : "",
                given));
      } else {
        ThrowArgumentError(
            zend_ce_type_error, arg_num,
            absl::StrFormat("must be of type %s, %s given",
                            ExpectedTypeName(expected_type, expected_class),
                            given));
      }
      break;
    }
    default:
      break;
  }
}

void zend_argument_error(zend_class_entry* error_ce, uint32_t arg_num,
                         const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const std::string message = VFormat(format, ap);
  va_end(ap);
  ThrowArgumentError(error_ce, arg_num, message);
}

void zend_argument_type_error(uint32_t arg_num, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const std::string message = VFormat(format, ap);
  va_end(ap);
  ThrowArgumentError(zend_ce_type_error, arg_num, message);
}

void zend_argument_value_error(uint32_t arg_num, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const std::string message = VFormat(format, ap);
  va_end(ap);
  ThrowArgumentError(zend_ce_value_error, arg_num, message);
}

void zend_argument_count_error(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const std::string message = VFormat(format, ap);
  va_end(ap);
  zend_throw_error(zend_ce_argument_count_error, "%s", message.c_str());
}

void zend_wrong_parameters_none_error(void) {
  const uint32_t num_args = EG(current_execute_data) != nullptr
                                ? ZEND_CALL_NUM_ARGS(EG(current_execute_data))
                                : 0;
  zend_throw_error(zend_ce_argument_count_error,
                   "%s() expects exactly 0 arguments, %u given",
                   ActiveFunctionName().c_str(), num_args);
}

}  // extern "C"
