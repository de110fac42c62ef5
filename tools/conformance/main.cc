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
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/conformance/areas.h"
#include "tools/conformance/junit_writer.h"
#include "tools/conformance/loaded_implementation.h"
#include "tools/conformance/report.h"
#include "tools/conformance/run.h"
#include "tools/conformance/suite.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

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

struct Options {
  std::string impl = ZAR_CONFORMANCE_DEFAULT_IMPL;
  std::string filter;
  std::string json;
  std::string junit;
  bool list = false;
  bool verbose = false;
  bool in_process = false;
  int timeout_seconds = 60;
};

// Parses argv (GoogleTest's flags already removed). False on a usage
// error, with the message printed.
bool ParseOptions(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; i++) {
    std::string_view arg = argv[i];
    std::optional<std::string> inline_value;
    if (const size_t eq = arg.find('='); eq != std::string_view::npos) {
      inline_value = std::string(arg.substr(eq + 1));
      arg = arg.substr(0, eq);
    }
    auto value = [&](std::string* out) {
      if (inline_value.has_value()) {
        *out = *inline_value;
        return true;
      }
      if (i + 1 >= argc) {
        std::fprintf(stderr, "zend-async-conformance: %.*s needs a value\n",
                     static_cast<int>(arg.size()), arg.data());
        return false;
      }
      *out = argv[++i];
      return true;
    };
    std::string timeout;
    if (arg == "--impl") {
      if (!value(&options->impl)) return false;
    } else if (arg == "--filter") {
      if (!value(&options->filter)) return false;
    } else if (arg == "--json") {
      if (!value(&options->json)) return false;
    } else if (arg == "--junit") {
      if (!value(&options->junit)) return false;
    } else if (arg == "--timeout") {
      if (!value(&timeout)) return false;
      options->timeout_seconds = std::atoi(timeout.c_str());
      if (options->timeout_seconds <= 0) {
        std::fprintf(stderr, "zend-async-conformance: bad --timeout %s\n",
                     timeout.c_str());
        return false;
      }
    } else if (arg == "--list" && !inline_value) {
      options->list = true;
    } else if (arg == "--verbose" && !inline_value) {
      options->verbose = true;
    } else if (arg == "--in-process" && !inline_value) {
      options->in_process = true;
    } else {
      std::fprintf(stderr, "zend-async-conformance: unknown argument %s\n%s",
                   argv[i], kUsage);
      return false;
    }
  }
  return true;
}

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
    std::printf("%.*s: %zu behaviour%s\n", static_cast<int>(area.size()),
                area.data(), members.size(), members.size() == 1 ? "" : "s");
    for (const TestRef* member : members) {
      std::printf("  %s\n", member->full.c_str());
    }
  }
  for (const std::string& problem : problems) {
    std::printf("problem: %s\n", problem.c_str());
  }
  std::printf("%zu behaviour%s\n", selected.size(),
              selected.size() == 1 ? "" : "s");
  return problems.empty() ? 0 : 1;
}

int Run(int argc, char** argv) {
  // Ours, before GoogleTest claims --help for its own text.
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--help") == 0 ||
        std::strcmp(argv[i], "-h") == 0) {
      std::fputs(kUsage, stdout);
      return 0;
    }
  }
  ::testing::InitGoogleTest(&argc, argv);
  Options options;
  if (!ParseOptions(argc, argv, &options)) return 2;

  const std::vector<TestRef> linked = LinkedBehaviours();
  std::vector<TestRef> selected;
  for (const TestRef& behaviour : linked) {
    if (Matches(behaviour, options.filter)) selected.push_back(behaviour);
  }
  if (selected.empty()) {
    std::fprintf(stderr,
                 "zend-async-conformance: no behaviour matches --filter %s\n",
                 options.filter.c_str());
    return 2;
  }
  const std::vector<std::string> problems = SuiteProblems(linked);
  if (options.list) return List(selected, problems);

  std::string error;
  zend_module_entry* module = LoadImplementation(options.impl, &error);
  if (module == nullptr) {
    std::fprintf(stderr,
                 "zend-async-conformance: cannot load the implementation: "
                 "%s\n",
                 error.c_str());
    return 2;
  }
  Report report;
  Implementation& implementation = report.implementation;
  implementation.module_name = module->name;
  implementation.module_version =
      module->version != nullptr ? module->version : "(no version)";
  std::error_code ignored;
  implementation.library =
      std::filesystem::absolute(options.impl, ignored).string();
  implementation.abi_version = zend_async_get_api_version();
  // The suite's problems concern it whole, whatever --filter selected.
  report.problems = problems;

  if (options.in_process) {
    RunInProcess(selected, ZAR_SOURCE_DIR, &report);
  } else {
    RunIsolated(selected, options.timeout_seconds, ZAR_SOURCE_DIR, &report);
  }

  std::fputs(FormatText(report, options.verbose).c_str(), stdout);
  std::fflush(stdout);
  const std::pair<const std::string*, std::string (*)(const Report&)>
      outputs[] = {{&options.json, &FormatJson},
                   {&options.junit, &FormatJunit}};
  for (const auto& [path, format] : outputs) {
    if (path->empty()) continue;
    std::ofstream out(*path, std::ios::binary | std::ios::trunc);
    out << format(report);
    out.flush();
    if (!out.good()) {
      std::fprintf(stderr, "zend-async-conformance: cannot write %s\n",
                   path->c_str());
      return 2;
    }
  }
  return report.AllPassed() ? 0 : 1;
}

}  // namespace
}  // namespace zar::conformance

int main(int argc, char** argv) { return zar::conformance::Run(argc, argv); }
