#include "tools/command_line/command_line.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace zar::tools {
namespace {

// Set while absl::ParseCommandLine runs: it reports a bad flag and calls
// std::exit(1), and this turns that exit into a usage error.
bool parsing = false;
// The program's name, for the pointer to --help.
const char* program_name = "";

void ExitAsUsageError() {
  if (!parsing) return;
  std::fprintf(stderr, "%s: see --help\n", program_name);
  std::fflush(stderr);
  _exit(kUsageError);
}

// The name of the flag `arg` sets ("impl" for "--impl=x"), or empty.
absl::string_view FlagName(absl::string_view arg) {
  if (!absl::ConsumePrefix(&arg, "-")) return "";
  absl::ConsumePrefix(&arg, "-");
  return arg.substr(0, arg.find('='));
}

// Whether `name` is one of Abseil's help flags.
bool IsHelpFlag(absl::string_view name) {
  for (const absl::string_view help : {"help", "helpfull", "helpshort",
                                       "helppackage", "helpon", "helpmatch"}) {
    if (name == help) return true;
  }
  return false;
}

// `arg` with a documented spelling replaced by the flag's name:
// "--in-process=1" -> "--in_process=1". Empty when `arg` is none of them.
std::string Respelled(absl::string_view arg,
                      const std::vector<FlagSpelling>& spellings) {
  for (const absl::string_view dashes : {"--", "-"}) {
    for (const FlagSpelling& flag : spellings) {
      absl::string_view rest = arg;
      if (!absl::ConsumePrefix(&rest, dashes) ||
          !absl::ConsumePrefix(&rest, flag.spelling)) {
        continue;
      }
      if (rest.empty() || rest.front() == '=') {
        return absl::StrFormat("%s%s%s", dashes, flag.name, rest);
      }
    }
  }
  return "";
}

}  // namespace

std::vector<std::string> ParseCommandLine(
    int argc, char** argv, const char* program, const char* usage,
    const std::vector<FlagSpelling>& spellings, OtherFlags other_flags) {
  program_name = program;
  absl::SetProgramUsageMessage(usage);
  std::vector<std::string> respelled(static_cast<size_t>(argc));
  // argv with the respelled flags, and a null at the end as argv has.
  std::vector<char*> args(argv, argv + argc + 1);
  bool exits_zero = false;
  for (int i = 1; i < argc; i++) {
    const absl::string_view arg = argv[i];
    if (arg == "--") break;  // the rest is positional
    const absl::string_view name = FlagName(arg);
    if (arg == "-h" || IsHelpFlag(name)) {
      const absl::string_view text = absl::ProgramUsageMessage();
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::exit(0);
    }
    exits_zero |= name == "version" || name == "only_check_args";
    respelled[i] = Respelled(arg, spellings);
    if (!respelled[i].empty()) args[i] = respelled[i].data();
  }

  if (other_flags != nullptr) other_flags(&argc, args.data());
  [[maybe_unused]] static const int registered = std::atexit(ExitAsUsageError);
  parsing = !exits_zero;
  const std::vector<char*> rest = absl::ParseCommandLine(argc, args.data());
  parsing = false;
  return std::vector<std::string>(rest.begin() + 1, rest.end());
}

}  // namespace zar::tools
