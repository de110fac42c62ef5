// The command line of the project's programs (zend-async-conformance,
// zend-async-trace): their flags are Abseil flags (ABSL_FLAG in the
// program's main.cc), parsed here with absl::ParseCommandLine around the
// three things Abseil does differently from what the programs document:
//
//   - --help and -h print the program's own usage text (its
//     absl::ProgramUsageMessage(), set here) on stdout and exit 0, and so
//     do Abseil's other help flags (--helpfull, --helpshort, ...); Abseil's
//     own help lists flags by source file and exits 1. Abseil's --version
//     and --only_check_args keep their meaning (exit 0).
//   - A bad flag (unknown, without its value, a value of the wrong type)
//     exits 2, the programs' usage-error status, with Abseil's message
//     ("ERROR: Unknown command line flag 'x'") and a pointer to --help;
//     Abseil itself exits 1, which these programs use for failures.
//   - A documented spelling with '-' (--in-process) is accepted for the
//     flag whose name has '_' (in_process): an Abseil flag's name is a C++
//     identifier.
//
// Threading: call once, from main(), before any other thread starts.

#ifndef ZAR_TOOLS_COMMAND_LINE_COMMAND_LINE_H_
#define ZAR_TOOLS_COMMAND_LINE_COMMAND_LINE_H_

#include <string>
#include <utility>
#include <vector>

namespace zar::tools {

// A flag spelled on the command line as `spelling` ("in-process") that
// Abseil knows as `name` ("in_process").
struct FlagSpelling {
  const char* spelling;
  const char* name;
};

// The exit status of a usage error.
inline constexpr int kUsageError = 2;

// Another library's flags, taken out of argv before Abseil sees them (for
// GoogleTest: ::testing::InitGoogleTest). Updates *argc.
using OtherFlags = void (*)(int* argc, char** argv);

// Parses argv's flags into the program's ABSL_FLAGs and returns the
// positional arguments (argv[0] excluded). `program` names the program in
// messages; `usage` is the text of --help; `other_flags`, when set, removes
// another library's flags first (after --help was handled: GoogleTest
// would print its own). Does not return on --help or -h (exit 0) or a bad
// flag (exit kUsageError, the message on stderr).
std::vector<std::string> ParseCommandLine(
    int argc, char** argv, const char* program, const char* usage,
    const std::vector<FlagSpelling>& spellings = {},
    OtherFlags other_flags = nullptr);

}  // namespace zar::tools

#endif  // ZAR_TOOLS_COMMAND_LINE_COMMAND_LINE_H_
