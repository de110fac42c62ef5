#include "tools/conformance/failure_text.h"

#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace zar::conformance {
namespace {

// absl::string_view throughout: Debian's Abseil has its own, not
// std::string_view, and its string functions take that one.

std::vector<absl::string_view> Lines(absl::string_view text) {
  return absl::StrSplit(text, '\n');
}

absl::string_view Trim(absl::string_view text) {
  return absl::StripAsciiWhitespace(text);
}

// The lines [from, end) joined by newlines, trimmed.
std::string Rest(const std::vector<absl::string_view>& lines, size_t from) {
  if (from >= lines.size()) return "";
  return std::string(
      Trim(absl::StrJoin(lines.begin() + from, lines.end(), "\n")));
}

FailureText Unparsed(std::string note) {
  FailureText text;
  text.note = std::move(note);
  return text;
}

// One operand of "Expected equality of these values:": the expression
// (two spaces in) and, when it differs from it, its value (four spaces in,
// "Which is: ").
struct Operand {
  std::string expression;
  std::string value;
  bool has_value = false;
};

FailureText ParseEquality(const std::vector<absl::string_view>& lines) {
  FailureText text;
  Operand operands[2];
  size_t line = 1;
  for (Operand& operand : operands) {
    if (line >= lines.size() || !absl::StartsWith(lines[line], "  ") ||
        absl::StartsWith(lines[line], "    ")) {
      text.note = Rest(lines, 0);
      return text;
    }
    operand.expression = std::string(Trim(lines[line++]));
    if (line < lines.size() &&
        absl::StartsWith(Trim(lines[line]), "Which is: ")) {
      operand.value =
          std::string(absl::StripPrefix(Trim(lines[line++]), "Which is: "));
      operand.has_value = true;
    }
  }
  text.parsed = true;
  const Operand* expected = &operands[1];
  const Operand* actual = &operands[0];
  if (!operands[0].has_value && operands[1].has_value) {
    std::swap(expected, actual);
  }
  text.expected = expected->has_value ? expected->value : expected->expression;
  text.actual = actual->has_value ? actual->value : actual->expression;
  text.subject = actual->expression;
  text.note = Rest(lines, line);
  return text;
}

FailureText ParseValueOf(const std::vector<absl::string_view>& lines) {
  FailureText text;
  text.subject = std::string(Trim(absl::StripPrefix(lines[0], "Value of: ")));
  size_t line = 1;
  bool has_expected = false;
  bool has_actual = false;
  for (; line < lines.size(); line++) {
    absl::string_view trimmed = Trim(lines[line]);
    if (!has_expected && absl::ConsumePrefix(&trimmed, "Expected: ")) {
      text.expected = std::string(trimmed);
      has_expected = true;
    } else if (!has_actual && absl::ConsumePrefix(&trimmed, "Actual: ")) {
      text.actual = std::string(trimmed);
      has_actual = true;
    } else {
      break;
    }
  }
  if (!has_expected || !has_actual) {
    return Unparsed(Rest(lines, 0));
  }
  text.parsed = true;
  text.note = Rest(lines, line);
  return text;
}

// "Expected: (a) != (b), actual: 1 vs 1"
FailureText ParseComparison(const std::vector<absl::string_view>& lines) {
  FailureText text;
  const std::vector<absl::string_view> parts =
      absl::StrSplit(absl::StripPrefix(lines[0], "Expected: "),
                     absl::MaxSplits(", actual: ", 1));
  if (parts.size() < 2) {
    text.note = Rest(lines, 0);
    return text;
  }
  text.parsed = true;
  text.expected = std::string(Trim(parts[0]));
  text.actual = std::string(Trim(parts[1]));
  text.note = Rest(lines, 1);
  return text;
}

}  // namespace

FailureText ParseFailure(std::string_view message) {
  const std::vector<absl::string_view> lines =
      Lines(Trim(absl::string_view(message.data(), message.size())));
  if (lines.empty()) return {};
  if (lines[0] == "Expected equality of these values:") {
    return ParseEquality(lines);
  }
  if (absl::StartsWith(lines[0], "Value of: ")) return ParseValueOf(lines);
  if (absl::StartsWith(lines[0], "Expected: ")) return ParseComparison(lines);
  // ADD_FAILURE() and FAIL() open with "Failed".
  return Unparsed(Rest(lines, lines[0] == "Failed" ? 1 : 0));
}

}  // namespace zar::conformance
