#include "tests/future/support/future_test.h"

#include <gmock/gmock.h>

#include <cstring>

extern "C" {
#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
}

namespace zar::future_testing {

zend_class_entry* FutureStateClass() {
  return mock_zend::LookupClass("Async\\FutureState");
}

zend_class_entry* FutureClass() {
  return mock_zend::LookupClass("Async\\Future");
}

Zval NewState() { return mock_zend::New(FutureStateClass()); }

Zval NewFuture(Zval& state) {
  return mock_zend::New(FutureClass(), {state.get()});
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

void ExpectNoWarningsAfterLettingGo(std::initializer_list<Zval*> values) {
  for (Zval* value : values) value->Reset();
  EXPECT_THAT(Warnings(), ::testing::IsEmpty());
}

}  // namespace zar::future_testing
