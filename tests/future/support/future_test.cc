#include "tests/future/support/future_test.h"

#include <cstring>

extern "C" {
#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
}

namespace zar::future_testing {

zend_class_entry* FutureStateClass() {
  zend_string* name = zend_string_init(ZEND_STRL("Async\\FutureState"), false);
  zend_class_entry* ce = zend_lookup_class(name);
  zend_string_release(name);
  return ce;
}

zend_class_entry* FutureClass() {
  return ZEND_ASYNC_GET_CE(ZEND_ASYNC_CLASS_FUTURE);
}

namespace {

Zval Construct(zend_class_entry* ce, std::initializer_list<zval*> args) {
  Zval object;
  if (ce == nullptr || object_init_ex(object.get(), ce) != SUCCESS) {
    return Zval();
  }
  if (ce->constructor != nullptr) {
    zval* first = args.size() > 0 ? args.begin()[0] : nullptr;
    zend_call_method(Z_OBJ_P(object.get()), ce, &ce->constructor, "__construct",
                     strlen("__construct"), nullptr,
                     static_cast<uint32_t>(args.size()), first, nullptr);
  }
  if (EG(exception) != nullptr) return Zval();
  return object;
}

}  // namespace

Zval NewState() { return Construct(FutureStateClass(), {}); }

Zval NewFuture(Zval& state) { return Construct(FutureClass(), {state.get()}); }

Zval CallMethod(zval* object, const char* method,
                std::initializer_list<zval*> args) {
  zval retval;
  ZVAL_UNDEF(&retval);
  zval* first = args.size() > 0 ? args.begin()[0] : nullptr;
  zval* second = args.size() > 1 ? args.begin()[1] : nullptr;
  zend_call_method(Z_OBJ_P(object), nullptr, nullptr, method, strlen(method),
                   &retval, static_cast<uint32_t>(args.size()), first, second);
  if (EG(exception) != nullptr) {
    zval_ptr_dtor(&retval);
    return Zval();
  }
  return Zval::Adopt(&retval);
}

Zval CallStatic(zend_class_entry* ce, const char* method,
                std::initializer_list<zval*> args) {
  zval retval;
  ZVAL_UNDEF(&retval);
  zval* first = args.size() > 0 ? args.begin()[0] : nullptr;
  zend_call_method(nullptr, ce, nullptr, method, strlen(method), &retval,
                   static_cast<uint32_t>(args.size()), first, nullptr);
  if (EG(exception) != nullptr) {
    zval_ptr_dtor(&retval);
    return Zval();
  }
  return Zval::Adopt(&retval);
}

Zval Closure(mock_zend::NativeBody body) {
  Zval callable;
  mock_zend::MakeCallable(callable.get(), std::move(body));
  return callable;
}

Zval NewException(zend_class_entry* ce, const char* message) {
  Zval exception;
  object_init_ex(exception.get(), ce);
  zend_update_property_string(ce, Z_OBJ_P(exception.get()), "message",
                              strlen("message"), message);
  return exception;
}

std::string AwaitText(Zval& future) {
  Zval result = CallMethod(future, "await");
  if (EG(exception) != nullptr) return zar::testing::TakeExceptionText();
  return Render(result);
}

std::vector<std::string> Warnings() {
  std::vector<std::string> warnings;
  for (const std::string& entry : zar::testing::ErrorLog()) {
    constexpr std::string_view kPrefix = "E_CORE_WARNING: ";
    if (entry.rfind(kPrefix, 0) == 0) {
      warnings.push_back(entry.substr(kPrefix.size()));
    }
  }
  return warnings;
}

}  // namespace zar::future_testing
