#include "tools/conformance/suite.h"

#include <gtest/gtest.h>

#include <optional>

#include "tools/conformance/areas.h"
#include "tools/conformance/report.h"

namespace zar::conformance {
namespace {

// Glob match: '*' any run of characters, '?' any one.
bool Glob(std::string_view pattern, std::string_view text) {
  size_t p = 0;
  size_t t = 0;
  size_t star = std::string_view::npos;
  size_t resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      p++;
      t++;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') p++;
  return p == pattern.size();
}

bool Disabled(std::string_view name) {
  return name.substr(0, 9) == "DISABLED_";
}

}  // namespace

std::vector<TestRef> LinkedBehaviours() {
  std::vector<TestRef> linked;
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < unit.total_test_suite_count(); i++) {
    const ::testing::TestSuite* suite = unit.GetTestSuite(i);
    if (Disabled(suite->name())) continue;
    for (int j = 0; j < suite->total_test_count(); j++) {
      const ::testing::TestInfo* info = suite->GetTestInfo(j);
      if (Disabled(info->name())) continue;
      TestRef ref;
      ref.suite = suite->name();
      ref.test = info->name();
      ref.full = ref.suite + "." + ref.test;
      ref.area =
          std::string(AreaOf(ref.suite, ref.test).value_or(kUnmappedArea));
      ref.file = info->file() != nullptr ? info->file() : "";
      ref.line = info->line();
      linked.push_back(std::move(ref));
    }
  }
  return linked;
}

bool Matches(const TestRef& behaviour, std::string_view filter) {
  if (filter.empty()) return true;
  size_t start = 0;
  while (start <= filter.size()) {
    size_t end = filter.find(':', start);
    if (end == std::string_view::npos) end = filter.size();
    const std::string_view part = filter.substr(start, end - start);
    const std::optional<std::string_view> area = FindArea(part);
    const bool matched = area.has_value() ? behaviour.area == *area
                                          : Glob(part, behaviour.full) ||
                                                Glob(part, behaviour.suite) ||
                                                Glob(part, behaviour.test);
    if (matched) return true;
    start = end + 1;
  }
  return false;
}

std::vector<std::string> SuiteProblems(const std::vector<TestRef>& linked) {
  std::vector<std::string> names;
  std::vector<std::string> problems;
  for (const TestRef& behaviour : linked) {
    names.push_back(behaviour.full);
    if (behaviour.area == kUnmappedArea) {
      problems.push_back(behaviour.full +
                         " has no area (tools/conformance/areas.cc)");
    }
  }
  for (std::string& problem : TableProblems(names)) {
    problems.push_back("area table: " + problem);
  }
  return problems;
}

}  // namespace zar::conformance
