// zend-async-conformance: what a GoogleTest failure says, as "expected" and
// "actual".
//
// GoogleTest writes an assertion's failure in a few fixed shapes:
//
//   EXPECT_EQ(actual, expected)     Expected equality of these values:
//                                     Names(log)
//                                       Which is: { "b", "a" }
//                                     (std::vector<...>{"a", "b"})
//                                       Which is: { "a", "b" }
//   EXPECT_TRUE(x), EXPECT_THAT     Value of: x
//                                     Actual: false
//                                   Expected: true
//   EXPECT_NE, EXPECT_LT, ...       Expected: (a) != (b), actual: 1 vs 1
//
// followed by the test's own message (`<< "..."`), if any. ParseFailure
// reads these shapes. For an equality the operand GoogleTest printed as
// written (a literal) is the expected one; when both are computed, the
// second is (this project writes EXPECT_EQ(actual, expected)). Any other
// text (ADD_FAILURE, FAIL, EXPECT_NEAR, a fatal error) is kept whole.
//
// Threading: pure functions.

#ifndef ZAR_TOOLS_CONFORMANCE_FAILURE_TEXT_H_
#define ZAR_TOOLS_CONFORMANCE_FAILURE_TEXT_H_

#include <string>
#include <string_view>

namespace zar::conformance {

struct FailureText {
  // True when the message had one of the shapes above; then `expected` and
  // `actual` are set and `subject` names the checked expression ("" when
  // the shape names none).
  bool parsed = false;
  std::string subject;
  std::string expected;
  std::string actual;
  // What follows the assertion's own text (the test's message, a diff),
  // or, when !parsed, the whole message. Trimmed.
  std::string note;
};

FailureText ParseFailure(std::string_view message);

}  // namespace zar::conformance

#endif  // ZAR_TOOLS_CONFORMANCE_FAILURE_TEXT_H_
