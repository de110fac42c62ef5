// zend-async-ref mock engine tests: what several of them check or call.
//
//   ExpectOnlyError      the one error the request reported so far
//                        (zend_mock_error_count() and its neighbours in
//                        Zend/zend.h);
//   CallFunctionByName   a global function called by name, as
//                        call_user_function calls it;
//   LoggingHook          a module hook that logs its event;
//   UnsupportedMessage   the E_CORE_ERROR of a name the mock provides but
//                        cannot run;
//   ExpectFieldsInOrder  a struct's fields lie in PHP's order;
//   CapturedOutput       what the SAPI's unbuffered write receives.
//
// Threading: the test's thread, inside a request.

#ifndef ZAR_TESTS_MOCK_ZEND_SUPPORT_ENGINE_TEST_H_
#define ZAR_TESTS_MOCK_ZEND_SUPPORT_ENGINE_TEST_H_

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

extern "C" {
#include "SAPI.h"
#include "php.h"
}

namespace zar::mock_zend_testing {

// The request has reported exactly one error so far, of `type` (E_WARNING,
// E_CORE_ERROR, ...) with `message`. A count other than one is a fatal
// failure: a test that goes on afterwards wraps the call in
// ASSERT_NO_FATAL_FAILURE.
inline void ExpectOnlyError(int type, const std::string& message) {
  ASSERT_EQ(zend_mock_error_count(), 1u);
  EXPECT_EQ(zend_mock_error_type(0), type);
  EXPECT_EQ(std::string(zend_mock_error_message(0)), message);
}

// function(...args) through call_user_function with the name as a string
// callable; the call must succeed. The result is the caller's to release.
inline zval CallFunctionByName(const char* function, uint32_t argc = 0,
                               zval* args = nullptr) {
  zval name;
  ZVAL_STRING(&name, function);
  zval result;
  ZVAL_UNDEF(&result);
  EXPECT_EQ(call_user_function(nullptr, nullptr, &name, &result, argc, args),
            SUCCESS)
      << function;
  zval_ptr_dtor(&name);
  return result;
}

// A module hook (MINIT, MSHUTDOWN, RINIT or RSHUTDOWN: PHP gives them the
// same parameters) that appends `kEvent` to `*kLog`, followed by
// " #<module number>" when `kWithNumber`, and succeeds:
//   constexpr char kRinit[] = "RINIT";
//   module.request_startup_func = LoggingHook<&events, kRinit>;
template <std::vector<std::string>* kLog, const char* kEvent,
          bool kWithNumber = false>
zend_result LoggingHook(int type, int module_number) {
  (void)type;
  kLog->push_back(kWithNumber ? std::string(kEvent) + " #" +
                                    std::to_string(module_number)
                              : std::string(kEvent));
  return SUCCESS;
}

// "<function>() is not supported by the mock engine: <reason>", the error
// every such name reports.
inline std::string UnsupportedMessage(const std::string& function,
                                      const std::string& reason) {
  return function + "() is not supported by the mock engine: " + reason;
}

// `offsets` are a struct's fields' offsetof in PHP's declaration order:
// the first is 0 and each lies past the one before.
inline void ExpectFieldsInOrder(std::initializer_list<size_t> offsets) {
  size_t index = 0;
  size_t previous = 0;
  for (size_t offset : offsets) {
    if (index == 0) {
      EXPECT_EQ(offset, 0u) << "first field";
    } else {
      EXPECT_LT(previous, offset) << "field " << index;
    }
    previous = offset;
    index++;
  }
}

// While it lives, the SAPI's unbuffered write (where php_printf, PHPWRITE
// and php_output_write end) appends to text() instead of printing; the
// previous writer comes back when it goes. One at a time.
class CapturedOutput {
 public:
  CapturedOutput() : saved_(sapi_module.ub_write) {
    Text().clear();
    sapi_module.ub_write = Append;
  }
  ~CapturedOutput() { sapi_module.ub_write = saved_; }
  CapturedOutput(const CapturedOutput&) = delete;
  CapturedOutput& operator=(const CapturedOutput&) = delete;

  const std::string& text() const { return Text(); }

 private:
  static std::string& Text() {
    static std::string text;
    return text;
  }
  static size_t Append(const char* str, size_t len) {
    Text().append(str, len);
    return len;
  }

  size_t (*saved_)(const char*, size_t);
};

}  // namespace zar::mock_zend_testing

#endif  // ZAR_TESTS_MOCK_ZEND_SUPPORT_ENGINE_TEST_H_
