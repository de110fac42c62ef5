// zend-async-ref: C++ helpers over the mock Zend engine. Classes with
// NativeBody methods (mock_zend/class_builder.h).
//
// Each method is a persistent internal function whose handler is a shared
// trampoline; its NativeBody is kept in reserved[0] with its deleter in
// reserved[1], the convention of zend.h, so the class table frees both at
// module shutdown.

#include "mock_zend/class_builder.h"

#include "engine_internal.h"

namespace mock_zend {
namespace {

void MethodTrampoline(INTERNAL_FUNCTION_PARAMETERS) {
  internal::RunNativeBody(EX(func)->internal_function.reserved[0], nullptr,
                          execute_data, return_value, "method");
}

}  // namespace

zend_class_entry* ClassBuilder::Build() {
  zend_class_entry* ce =
      internal::RegisterClass(name_.c_str(), parent_, nullptr, 0);
  if (ce == nullptr) return nullptr;
  for (zend_class_entry* iface : interfaces_) {
    zend_class_implements(ce, 1, iface);
  }
  for (const std::string& property : properties_) {
    zval null_value;
    ZVAL_NULL(&null_value);
    zend_declare_property_ex(
        ce, zend_string_init_interned(property.data(), property.size(), true),
        &null_value, ZEND_ACC_PUBLIC, nullptr);
  }
  for (auto& [name, body] : methods_) {
    zend_function* fn = internal::NewInternalFunction(
        ce, name.data(), name.size(), &MethodTrampoline, ZEND_ACC_PUBLIC);
    fn->internal_function.reserved[0] = new NativeBody(std::move(body));
    fn->internal_function.reserved[1] =
        reinterpret_cast<void*>(&internal::DeleteNativeBody);
    internal::AddMethod(ce, fn);
  }
  methods_.clear();
  return ce;
}

}  // namespace mock_zend
