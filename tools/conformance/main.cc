// zend-async-conformance: runs the conformance suite of the Zend Async ABI
// against an implementation and reports the result by ABI area.
//
// The suites (tests/abi, tests/scheduler, tests/reactor, tests/pool,
// tests/pdo) are linked in; the implementation is the module of a shared
// library (--impl; by default the reference extension built next to this
// runner). See docs/conformance.md.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "tools/command_line/command_line.h"
#include "tools/conformance/areas.h"
#include "tools/conformance/junit_writer.h"
#include "tools/conformance/loaded_implementation.h"
#include "tools/conformance/report.h"
#include "tools/conformance/run.h"
#include "tools/conformance/suite.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

ABSL_FLAG(std::string, impl, ZAR_CONFORMANCE_DEFAULT_IMPL,
          "the implementation: a shared library exporting "
          "zend_async_conformance_module()");
ABSL_FLAG(std::string, filter, "",
          "only an area or the behaviours named: Suite.Test, Suite, Test, or "
          "a pattern with * and ?; several separated by ':'");
ABSL_FLAG(bool, list, false, "list the behaviours by area and run nothing");
ABSL_FLAG(std::string, json, "", "also write the report as JSON to this file");
ABSL_FLAG(std::string, junit, "",
          "also write the report as JUnit XML to this file");
ABSL_FLAG(bool, verbose, false,
          "list every behaviour in the report, not only failures");
ABSL_FLAG(bool, in_process, false,
          "run every behaviour in this process (spelled --in-process)");
ABSL_FLAG(int, timeout, 60, "the time each behaviour's process may take (s)");

namespace zar::conformance {
namespace {

constexpr char kUsage[] =
    "Usage: zend-async-conformance [options] [--gtest_* flags]\n"
    "\n"
    "Runs the conformance suite of the Zend Async ABI against an\n"
    "implementation and prints a report grouped by ABI area. Exit status: 0\n"
    "when every behaviour passes, 1 when any fails, 2 on a usage or loading\n"
    "error.\n"
    "\n"
    "  --impl LIB       the implementation: a shared library exporting\n"
    "                   zend_async_conformance_module()\n"
    "                   (zend_async_ref/conformance.h); default: the\n"
    "                   reference, " ZAR_CONFORMANCE_DEFAULT_IMPL
    "\n"
    "  --filter WHAT    only an area (\"pool\", \"circuit-breaker\") or the\n"
    "                   behaviours WHAT names: Suite.Test, Suite, Test, or a\n"
    "                   pattern with * and ?; several separated by ':'\n"
    "  --list           list the behaviours by area and run nothing\n"
    "  --json FILE      also write the report as JSON to FILE\n"
    "  --junit FILE     also write the report as JUnit XML to FILE (one\n"
    "                   test case per behaviour, classname = area)\n"
    "  --verbose        list every behaviour in the report, not only\n"
    "                   failures\n"
    "  --in-process     run every behaviour in this process (quicker; for a\n"
    "                   debugger) instead of each in a child process, where\n"
    "                   a crash or a hang fails only that behaviour\n"
    "  --timeout SECS   the time each behaviour's process may take (60)\n"
    "  --help           this text\n"
    "\n"
    "GoogleTest's flags (--gtest_repeat, --gtest_break_on_failure, ...) pass\n"
    "through; --filter replaces --gtest_filter.\n";

// --list: the selected behaviours by area, then the suite's problems.
// Exit status 1 when there is a problem.
int List(const std::vector<TestRef>& selected,
         const std::vector<std::string>& problems) {
  std::vector<std::string_view> areas = AreaNames();
  areas.push_back(kUnmappedArea);
  for (const std::string_view area : areas) {
    std::vector<const TestRef*> members;
    for (const TestRef& behaviour : selected) {
      if (behaviour.area == area) members.push_back(&behaviour);
    }
    if (members.empty()) continue;
    absl::PrintF("%s: %d behaviour%s\n", area, members.size(),
                 members.size() == 1 ? "" : "s");
    for (const TestRef* member : members) absl::PrintF("  %s\n", member->full);
  }
  for (const std::string& problem : problems) {
    absl::PrintF("problem: %s\n", problem);
  }
  absl::PrintF("%d behaviour%s\n", selected.size(),
               selected.size() == 1 ? "" : "s");
  return problems.empty() ? 0 : 1;
}

int Run(int argc, char** argv) {
  // Ours first: GoogleTest would claim --help for its own text.
  const std::vector<std::string> positional = tools::ParseCommandLine(
      argc, argv, "zend-async-conformance", kUsage,
      {{"in-process", "in_process"}},
      [](int* count, char** args) { ::testing::InitGoogleTest(count, args); });
  if (!positional.empty()) {
    std::fprintf(stderr,
                 "zend-async-conformance: unknown argument %s (see --help)\n",
                 positional.front().c_str());
    return tools::kUsageError;
  }
  const int timeout_seconds = absl::GetFlag(FLAGS_timeout);
  if (timeout_seconds <= 0) {
    std::fprintf(stderr,
                 "zend-async-conformance: bad --timeout %d (see --help)\n",
                 timeout_seconds);
    return tools::kUsageError;
  }
  const std::string impl = absl::GetFlag(FLAGS_impl);
  const std::string filter = absl::GetFlag(FLAGS_filter);

  const std::vector<TestRef> linked = LinkedBehaviours();
  std::vector<TestRef> selected;
  for (const TestRef& behaviour : linked) {
    if (Matches(behaviour, filter)) selected.push_back(behaviour);
  }
  if (selected.empty()) {
    std::fprintf(stderr,
                 "zend-async-conformance: no behaviour matches --filter %s\n",
                 filter.c_str());
    return tools::kUsageError;
  }
  const std::vector<std::string> problems = SuiteProblems(linked);
  if (absl::GetFlag(FLAGS_list)) return List(selected, problems);

  const absl::StatusOr<zend_module_entry*> loaded = LoadImplementation(impl);
  if (!loaded.ok()) {
    absl::FPrintF(stderr,
                  "zend-async-conformance: cannot load the implementation: "
                  "%s\n",
                  loaded.status().message());
    return tools::kUsageError;
  }
  zend_module_entry* module = *loaded;
  Report report;
  Implementation& implementation = report.implementation;
  implementation.module_name = module->name;
  implementation.module_version =
      module->version != nullptr ? module->version : "(no version)";
  std::error_code ignored;
  implementation.library = std::filesystem::absolute(impl, ignored).string();
  implementation.abi_version = zend_async_get_api_version();
  // The suite's problems concern it whole, whatever --filter selected.
  report.problems = problems;

  if (absl::GetFlag(FLAGS_in_process)) {
    RunInProcess(selected, ZAR_SOURCE_DIR, &report);
  } else {
    RunIsolated(selected, timeout_seconds, ZAR_SOURCE_DIR, &report);
  }

  std::fputs(FormatText(report, absl::GetFlag(FLAGS_verbose)).c_str(), stdout);
  std::fflush(stdout);
  const std::pair<std::string, std::string (*)(const Report&)> outputs[] = {
      {absl::GetFlag(FLAGS_json), &FormatJson},
      {absl::GetFlag(FLAGS_junit), &FormatJunit}};
  for (const auto& [path, format] : outputs) {
    if (path.empty()) continue;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << format(report);
    out.flush();
    if (!out.good()) {
      absl::FPrintF(stderr, "zend-async-conformance: cannot write %s\n", path);
      return tools::kUsageError;
    }
  }
  return report.AllPassed() ? 0 : 1;
}

}  // namespace
}  // namespace zar::conformance

int main(int argc, char** argv) { return zar::conformance::Run(argc, argv); }
