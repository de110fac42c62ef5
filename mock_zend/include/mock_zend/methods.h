// zend-async-ref: C++ helpers over the mock Zend engine.
//
// Calling PHP from C++ as the engine calls internal methods: a method of
// an object, a static method, a constructor (`new`):
//
//   mock_zend::Zval pool = mock_zend::New("Async\\Pool", {factory.get()});
//   mock_zend::Zval count = mock_zend::CallMethod(pool, "count");
//
// Errors are raised exactly as PHP raises them: the call returns UNDEF and
// the exception stays in flight (EG(exception)); nothing here catches
// anything. Arguments are borrowed: the callee gets its own references.
//
// Threading: the engine's thread, inside a request.

#ifndef MOCK_ZEND_METHODS_H_
#define MOCK_ZEND_METHODS_H_

#include <vector>

#include "mock_zend/zval.h"

extern "C" {
#include "php.h"
}

namespace mock_zend {

// $object->method(...args), found through the object's get_method handler
// as PHP finds it; without such a method, Error "Call to undefined method
// Class::method()".
Zval CallMethod(zval *object, const char *method,
                const std::vector<zval *> &args = {});
inline Zval CallMethod(Zval &object, const char *method,
                       const std::vector<zval *> &args = {}) {
  return CallMethod(object.get(), method, args);
}

// Class::method(...args) of a static method of `ce` (at most two
// arguments, as zend_call_method passes).
Zval CallStatic(zend_class_entry *ce, const char *method,
                const std::vector<zval *> &args = {});

// The class PHP code names `name` (zend_lookup_class: any case, no leading
// backslash), or NULL when none is registered. How a caller reaches a class
// of the extension by its PHP name, as `new Name` and `instanceof Name` do.
zend_class_entry *LookupClass(const char *name);

// new Class(...args): the object, or UNDEF with the exception in flight.
// When the constructor throws, the half-built object is let go at once, as
// PHP does; an exception raised while it goes becomes the previous of the
// constructor's.
Zval New(zend_class_entry *ce, const std::vector<zval *> &args = {});
// The same for a class looked up by name; Error "Class \"Name\" not found"
// when there is none.
Zval New(const char *class_name, const std::vector<zval *> &args = {});

}  // namespace mock_zend

#endif  // MOCK_ZEND_METHODS_H_
