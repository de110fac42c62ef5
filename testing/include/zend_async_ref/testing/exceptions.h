// zend-async-ref testing: the exception in flight and the engine's error
// log, as text for assertions.
//
//   EXPECT_EQ(zar::testing::TakeExceptionText(), "RuntimeException: boom");
//   EXPECT_THAT(zar::testing::ErrorLog(), ElementsAre("E_WARNING: ..."));
//
// Threading: the request's thread.

#ifndef ZEND_ASYNC_REF_TESTING_EXCEPTIONS_H_
#define ZEND_ASYNC_REF_TESTING_EXCEPTIONS_H_

#include <string>
#include <vector>

namespace zar::testing {

// Takes EG(exception) (the caller catches it) and renders it
// "Class: message"; "" when none is in flight.
std::string TakeExceptionText();
// Takes EG(exception): its class name, or "" when none is in flight.
std::string TakeExceptionClass();
// Clears EG(exception) (zend_clear_exception); whether there was one.
bool DropException();

// The errors reported since the engine started (or its error log was last
// cleared), each "E_LEVEL: message".
std::vector<std::string> ErrorLog();

}  // namespace zar::testing

#endif  // ZEND_ASYNC_REF_TESTING_EXCEPTIONS_H_
