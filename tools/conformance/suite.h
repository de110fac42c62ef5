// zend-async-conformance: the behaviours linked into the runner.
//
// Every test of the conformance suites (tests/abi, tests/scheduler,
// tests/reactor, tests/pool, tests/pdo) registered itself with GoogleTest
// when the runner started; LinkedBehaviours() lists them (disabled ones
// left out) with their area, and Matches() applies --filter.
//
// Threading: the runner's main thread.

#ifndef ZAR_TOOLS_CONFORMANCE_SUITE_H_
#define ZAR_TOOLS_CONFORMANCE_SUITE_H_

#include <string>
#include <string_view>
#include <vector>

namespace zar::conformance {

// One test of the suites.
struct TestRef {
  std::string suite;  // GoogleTest's test suite name
  std::string test;   // GoogleTest's test name
  std::string full;   // "suite.test": the behaviour's name
  std::string area;   // AreaOf(), or kUnmappedArea
  std::string file;   // where it is defined (as compiled)
  int line = 0;
};

// Every test linked in, in registration order.
std::vector<TestRef> LinkedBehaviours();

// Whether `behaviour` is selected by `filter`: ':'-separated parts, each an
// area name (FindArea) or a pattern with '*' and '?' matched against the
// full name, the suite name and the test name. An empty filter selects
// everything.
bool Matches(const TestRef& behaviour, std::string_view filter);

// The problems of the suite as linked: each unmapped behaviour and each
// problem of the area table (TableProblems). Empty when sound.
std::vector<std::string> SuiteProblems(const std::vector<TestRef>& linked);

}  // namespace zar::conformance

#endif  // ZAR_TOOLS_CONFORMANCE_SUITE_H_
