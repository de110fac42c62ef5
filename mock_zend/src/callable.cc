// zend-async-ref: C++ helpers over the mock Zend engine. Closures whose
// bodies are C++ callables (mock_zend/callable.h).
//
// The NativeBody lives on the heap as the closure's data and is deleted by
// the closure's data destructor. A C++ exception escaping a body never
// crosses the engine: it becomes an Error thrown through the engine.

#include "mock_zend/callable.h"

#include <exception>
#include <utility>

#include "engine_internal.h"

namespace mock_zend {

namespace internal {

void RunNativeBody(void* body, zend_object* closure,
                   zend_execute_data* execute_data, zval* return_value,
                   const char* where) {
  Call call(closure, execute_data, return_value);
  try {
    (*static_cast<NativeBody*>(body))(call);
  } catch (const std::exception& e) {
    zend_throw_error(nullptr, "C++ exception in %s: %s", where, e.what());
  } catch (...) {
    zend_throw_error(nullptr, "C++ exception in %s", where);
  }
}

void DeleteNativeBody(void* body) { delete static_cast<NativeBody*>(body); }

}  // namespace internal

namespace {

void RunBody(zend_object* closure, zend_execute_data* execute_data,
             zval* return_value, void* data) {
  internal::RunNativeBody(data, closure, execute_data, return_value, "closure");
}

}  // namespace

zend_object* Call::self() const {
  zval* self = &execute_data_->This;
  return Z_TYPE_P(self) == IS_OBJECT ? Z_OBJ_P(self) : nullptr;
}

zval* Call::use(uint32_t i) const {
  return closure_ != nullptr ? zend_mock_closure_use(closure_, i) : nullptr;
}

zend_object* NewClosure(NativeBody body, std::initializer_list<zval*> uses) {
  zend_object* closure = zend_mock_closure_new(
      &RunBody, new NativeBody(std::move(body)), &internal::DeleteNativeBody);
  for (zval* use : uses) zend_mock_closure_add_use(closure, use);
  return closure;
}

void MakeCallable(zval* out, NativeBody body,
                  std::initializer_list<zval*> uses) {
  ZVAL_OBJ(out, NewClosure(std::move(body), uses));
}

Zval Closure(NativeBody body, std::initializer_list<zval*> uses) {
  Zval closure;
  MakeCallable(closure.get(), std::move(body), uses);
  return closure;
}

}  // namespace mock_zend
