// zend-async-ref: mock Zend engine. Calling methods and constructors from
// C++ (mock_zend/methods.h).

#include "mock_zend/methods.h"

#include <cstring>

extern "C" {
#include "Zend/zend_interfaces.h"
}

namespace mock_zend {
namespace {

// The call's own copies of `args`, released by the destructor.
class Params {
 public:
  explicit Params(const std::vector<zval*>& args) : values_(args.size()) {
    for (size_t i = 0; i < args.size(); i++) ZVAL_COPY(&values_[i], args[i]);
  }
  ~Params() {
    for (zval& value : values_) zval_ptr_dtor(&value);
  }
  Params(const Params&) = delete;
  Params& operator=(const Params&) = delete;

  uint32_t count() const { return static_cast<uint32_t>(values_.size()); }
  zval* data() { return values_.data(); }

 private:
  std::vector<zval> values_;
};

// The call's return value, or UNDEF when it left an exception.
Zval Outcome(zval* retval) {
  if (EG(exception) != nullptr) {
    zval_ptr_dtor(retval);
    return Zval();
  }
  return Zval::Adopt(retval);
}

}  // namespace

Zval CallMethod(zval* object, const char* method,
                const std::vector<zval*>& args) {
  Params params(args);
  zval retval;
  ZVAL_UNDEF(&retval);
  zend_string* name = zend_string_init(method, strlen(method), false);
  if (zend_call_method_if_exists(Z_OBJ_P(object), name, &retval, params.count(),
                                 params.data()) == FAILURE) {
    zend_throw_error(nullptr, "Call to undefined method %s::%s()",
                     ZSTR_VAL(Z_OBJCE_P(object)->name), method);
  }
  zend_string_release(name);
  return Outcome(&retval);
}

Zval CallStatic(zend_class_entry* ce, const char* method,
                const std::vector<zval*>& args) {
  zval retval;
  ZVAL_UNDEF(&retval);
  zend_call_method(nullptr, ce, nullptr, method, strlen(method), &retval,
                   static_cast<uint32_t>(args.size()),
                   args.size() > 0 ? args[0] : nullptr,
                   args.size() > 1 ? args[1] : nullptr);
  return Outcome(&retval);
}

Zval New(zend_class_entry* ce, const std::vector<zval*>& args) {
  Zval object;
  if (object_init_ex(object.get(), ce) != SUCCESS) return Zval();
  if (ce->constructor != nullptr) {
    Params params(args);
    zval retval;
    ZVAL_UNDEF(&retval);
    zend_call_known_instance_method(ce->constructor, object.obj(), &retval,
                                    params.count(), params.data());
    zval_ptr_dtor(&retval);
  }
  if (EG(exception) != nullptr) {
    zend_object* pending = EG(exception);
    EG(exception) = nullptr;
    object.Reset();
    if (EG(exception) != nullptr) {
      zend_exception_set_previous(pending, EG(exception));
    }
    EG(exception) = pending;
    return Zval();
  }
  return object;
}

zend_class_entry* LookupClass(const char* name) {
  zend_string* key = zend_string_init(name, strlen(name), false);
  zend_class_entry* ce = zend_lookup_class(key);
  zend_string_release(key);
  return ce;
}

Zval New(const char* class_name, const std::vector<zval*>& args) {
  zend_class_entry* ce = LookupClass(class_name);
  if (ce == nullptr) {
    zend_throw_error(nullptr, "Class \"%s\" not found", class_name);
    return Zval();
  }
  return New(ce, args);
}

}  // namespace mock_zend
