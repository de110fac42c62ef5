// zend-async-ref tests: exception objects a test hands to the code under
// test (to reject a future, to cancel with, ...), not thrown.

#ifndef ZAR_TESTS_SUPPORT_EXCEPTIONS_H_
#define ZAR_TESTS_SUPPORT_EXCEPTIONS_H_

#include "mock_zend/methods.h"
#include "mock_zend/zval.h"

namespace zar::testing {

// new <ce>($message): an owned exception object, or UNDEF with the
// constructor's exception in flight.
inline mock_zend::Zval NewException(zend_class_entry* ce, const char* message) {
  mock_zend::Zval text = mock_zend::Zval::String(message);
  return mock_zend::New(ce, {text.get()});
}

}  // namespace zar::testing

#endif  // ZAR_TESTS_SUPPORT_EXCEPTIONS_H_
