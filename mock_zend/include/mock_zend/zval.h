// zend-async-ref: C++ helpers over the mock Zend engine.
//
// An owned zval for tests and tools, and a short rendering of a value for
// their logs and assertions:
//
//   mock_zend::Zval value = mock_zend::Zval::Long(1);
//   EXPECT_EQ(mock_zend::Render(value.get()), "1");
//
// Threading: the engine's thread, inside a request (the value is released
// with zval_ptr_dtor).

#ifndef MOCK_ZEND_ZVAL_H_
#define MOCK_ZEND_ZVAL_H_

#include <cstdint>
#include <string>

extern "C" {
#include "php.h"
}

namespace mock_zend {

// An owned zval (UNDEF when empty): one reference, released by the
// destructor or Reset() (PHP's unset()); movable, not copyable.
class Zval {
 public:
  Zval() { ZVAL_UNDEF(&value_); }
  ~Zval() { zval_ptr_dtor(&value_); }
  Zval(Zval &&other) noexcept {
    ZVAL_COPY_VALUE(&value_, &other.value_);
    ZVAL_UNDEF(&other.value_);
  }
  Zval &operator=(Zval &&other) noexcept {
    if (this != &other) {
      zval_ptr_dtor(&value_);
      ZVAL_COPY_VALUE(&value_, &other.value_);
      ZVAL_UNDEF(&other.value_);
    }
    return *this;
  }
  Zval(const Zval &) = delete;
  Zval &operator=(const Zval &) = delete;

  static Zval Long(zend_long n);
  static Zval Null();
  static Zval String(const std::string &text);
  // Takes over the reference `value` holds (it is left UNDEF).
  static Zval Adopt(zval *value);
  // A new reference to `value`.
  static Zval Copy(const zval *value);

  zval *get() { return &value_; }
  const zval *get() const { return &value_; }
  uint8_t type() const { return Z_TYPE(value_); }
  bool undef() const { return Z_ISUNDEF(value_); }
  bool is_null() const { return Z_TYPE(value_) == IS_NULL; }
  bool is_false() const { return Z_TYPE(value_) == IS_FALSE; }
  bool is_true() const { return Z_TYPE(value_) == IS_TRUE; }
  // REQUIRES: an int.
  zend_long lval() const { return Z_LVAL(value_); }
  // REQUIRES: an object.
  zend_object *obj() const { return Z_OBJ(value_); }
  // The string value, or "" when not a string.
  std::string str() const;
  // An array element (borrowed; nullptr when absent or not an array).
  const zval *at(zend_ulong index) const;
  const zval *at(const std::string &key) const;
  // Array length, or 0.
  uint32_t size() const;
  void Reset();

 private:
  zval value_;
};

// A short rendering: 1, 1.500000, 'text', null, true, false, undef,
// [1, key: 'v'] for arrays, ptr(0x...) for pointers, "(none)" for nullptr,
// anything else as Describe() (inspect.h) renders it.
std::string Render(const zval *value);
inline std::string Render(const Zval &value) { return Render(value.get()); }

}  // namespace mock_zend

#endif  // MOCK_ZEND_ZVAL_H_
