// An owned zval and a short rendering (mock_zend/zval.h).

#include "mock_zend/zval.h"

#include "mock_zend/inspect.h"

namespace mock_zend {

Zval Zval::Long(zend_long n) {
  Zval out;
  ZVAL_LONG(&out.value_, n);
  return out;
}

Zval Zval::String(const std::string& text) {
  Zval out;
  ZVAL_STRINGL(&out.value_, text.data(), text.size());
  return out;
}

Zval Zval::Null() {
  Zval out;
  ZVAL_NULL(&out.value_);
  return out;
}

Zval Zval::Adopt(zval* value) {
  Zval out;
  ZVAL_COPY_VALUE(&out.value_, value);
  ZVAL_UNDEF(value);
  return out;
}

Zval Zval::Copy(const zval* value) {
  Zval out;
  ZVAL_COPY(&out.value_, value);
  return out;
}

std::string Zval::str() const {
  return Z_TYPE(value_) == IS_STRING
             ? std::string(Z_STRVAL(value_), Z_STRLEN(value_))
             : std::string();
}

const zval* Zval::at(zend_ulong index) const {
  if (Z_TYPE(value_) != IS_ARRAY) return nullptr;
  return zend_hash_index_find(Z_ARRVAL(value_), index);
}

const zval* Zval::at(const std::string& key) const {
  if (Z_TYPE(value_) != IS_ARRAY) return nullptr;
  return zend_hash_str_find(Z_ARRVAL(value_), key.data(), key.size());
}

uint32_t Zval::size() const {
  return Z_TYPE(value_) == IS_ARRAY ? zend_hash_num_elements(Z_ARRVAL(value_))
                                    : 0;
}

void Zval::Reset() {
  zval_ptr_dtor(&value_);
  ZVAL_UNDEF(&value_);
}

std::string Render(const zval* value) {
  if (value == nullptr) return "(none)";
  switch (Z_TYPE_P(value)) {
    case IS_FALSE:
      return "false";
    case IS_TRUE:
      return "true";
    case IS_LONG:
      return std::to_string(Z_LVAL_P(value));
    case IS_DOUBLE:
      return std::to_string(Z_DVAL_P(value));
    case IS_STRING:
      return "'" + std::string(Z_STRVAL_P(value), Z_STRLEN_P(value)) + "'";
    case IS_ARRAY: {
      std::string out = "[";
      zend_string* key;
      zval* element;
      bool first = true;
      ZEND_HASH_FOREACH_STR_KEY_VAL(Z_ARRVAL_P(value), key, element) {
        if (!first) out += ", ";
        first = false;
        if (key != nullptr) {
          out += std::string(ZSTR_VAL(key), ZSTR_LEN(key)) + ": ";
        }
        out += Render(element);
      }
      ZEND_HASH_FOREACH_END();
      return out + "]";
    }
    default:
      return Describe(value);
  }
}

}  // namespace mock_zend
