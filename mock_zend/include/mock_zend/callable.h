// zend-async-ref: C++ helpers over the mock Zend engine.
//
// "Userland" callables made from C++ lambdas. A NativeBody runs where PHP
// would run the body of a closure or a method: inside a call frame of the
// engine, with its arguments, its $this and its result zval. It reports
// errors by throwing through the engine (zend_throw_*), never with C++
// exceptions.

#ifndef MOCK_ZEND_CALLABLE_H_
#define MOCK_ZEND_CALLABLE_H_

#include <cstdint>
#include <functional>
#include <initializer_list>

#include "mock_zend/zval.h"

extern "C" {
#include "php.h"
}

namespace mock_zend {

// The view a native body has of its call.
class Call {
 public:
  Call(zend_object *closure, zend_execute_data *execute_data,
       zval *return_value)
      : closure_(closure),
        execute_data_(execute_data),
        return_value_(return_value) {}

  uint32_t argc() const { return ZEND_CALL_NUM_ARGS(execute_data_); }
  // REQUIRES: i < argc(). Borrowed.
  zval *arg(uint32_t i) const { return ZEND_CALL_ARG(execute_data_, i + 1); }
  // Where the body writes its result (initially NULL).
  zval *result() const { return return_value_; }
  // $this of a method call, or nullptr.
  zend_object *self() const;
  // The closure being called, or nullptr for methods.
  zend_object *closure() const { return closure_; }
  // REQUIRES: this is a closure and i < its number of uses. Borrowed.
  zval *use(uint32_t i) const;
  zend_execute_data *execute_data() const { return execute_data_; }

 private:
  zend_object *closure_;
  zend_execute_data *execute_data_;
  zval *return_value_;
};

using NativeBody = std::function<void(Call &)>;

// Creates a Closure object whose body is `body`. Each zval in `uses` is
// copied into the closure (one reference added) as a PHP `use (...)` would,
// and is reported by the closure's get_gc.
// The caller owns the returned reference.
zend_object *NewClosure(NativeBody body,
                        std::initializer_list<zval *> uses = {});

// Same, as a callable zval (IS_OBJECT) the caller owns.
void MakeCallable(zval *out, NativeBody body,
                  std::initializer_list<zval *> uses = {});
// Same, as an owned Zval.
Zval Closure(NativeBody body, std::initializer_list<zval *> uses = {});

}  // namespace mock_zend

#endif  // MOCK_ZEND_CALLABLE_H_
