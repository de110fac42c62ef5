// zend-async-ref tests: the log a scenario keeps of what happened, in
// order, and the log as one line for an assertion:
//
//   Log log;
//   ... log.push_back("acquired 1"); ...
//   EXPECT_EQ(Joined(log), "acquired 1 released 1");

#ifndef ZAR_TESTS_SUPPORT_LOG_H_
#define ZAR_TESTS_SUPPORT_LOG_H_

#include <string>
#include <vector>

namespace zar::testing {

using Log = std::vector<std::string>;

// The entries joined by single spaces.
inline std::string Joined(const Log& log) {
  std::string out;
  for (const std::string& entry : log) {
    if (!out.empty()) out += ' ';
    out += entry;
  }
  return out;
}

}  // namespace zar::testing

#endif  // ZAR_TESTS_SUPPORT_LOG_H_
