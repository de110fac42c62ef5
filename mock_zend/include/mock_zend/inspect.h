// zend-async-ref: C++ helpers over the mock Zend engine.
//
// Reading engine state in tests and tools: the error log, exceptions,
// values. Nothing here changes engine state except TakeException().

#ifndef MOCK_ZEND_INSPECT_H_
#define MOCK_ZEND_INSPECT_H_

#include <string>
#include <vector>

extern "C" {
#include "php.h"
}

namespace mock_zend {

struct ReportedError {
  int type;  // E_* level
  std::string message;
};

// Every zend_error() report since the last ClearReportedErrors().
std::vector<ReportedError> ReportedErrors();
void ClearReportedErrors();

// "E_CORE_ERROR", "E_WARNING", ...
std::string ErrorLevelName(int type);

// The class name of an object ("Async\\TimeoutException").
std::string ClassName(const zend_object *object);
// The message property of an Exception/Error.
std::string ExceptionMessage(zend_object *exception);
// "Class: message" for the exception and each previous one, outermost
// first.
std::vector<std::string> ExceptionChain(zend_object *exception);

// Moves EG(exception) out (the caller owns the returned reference), or
// returns nullptr when nothing is in flight.
zend_object *TakeException();

// A short rendering of a value: int(42), string("x"), bool(true), null,
// float(3.14), array(2), object(Foo)#3, ptr(0x...).
std::string Describe(const zval *value);

}  // namespace mock_zend

#endif  // MOCK_ZEND_INSPECT_H_
