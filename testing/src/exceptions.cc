// The exception in flight and the error log as text (exceptions.h).

#include "zend_async_ref/testing/exceptions.h"

#include "mock_zend/inspect.h"

extern "C" {
#include "php.h"
}

namespace zar::testing {

std::string TakeExceptionText() {
  zend_object* exception = mock_zend::TakeException();
  if (exception == nullptr) return "";
  std::string text = mock_zend::ClassName(exception) + ": " +
                     mock_zend::ExceptionMessage(exception);
  OBJ_RELEASE(exception);
  return text;
}

std::string TakeExceptionClass() {
  zend_object* exception = mock_zend::TakeException();
  if (exception == nullptr) return "";
  std::string name = mock_zend::ClassName(exception);
  OBJ_RELEASE(exception);
  return name;
}

bool DropException() {
  const bool had = EG(exception) != nullptr;
  zend_clear_exception();
  return had;
}

std::vector<std::string> ErrorLog() {
  std::vector<std::string> log;
  for (const mock_zend::ReportedError& error : mock_zend::ReportedErrors()) {
    log.push_back(mock_zend::ErrorLevelName(error.type) + ": " + error.message);
  }
  return log;
}

}  // namespace zar::testing
