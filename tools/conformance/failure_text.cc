#include "tools/conformance/failure_text.h"

#include <utility>
#include <vector>

namespace zar::conformance {
namespace {

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string_view Trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const size_t last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The lines [from, end) joined by newlines, trimmed.
std::string Rest(const std::vector<std::string_view>& lines, size_t from) {
  std::string rest;
  for (size_t i = from; i < lines.size(); i++) {
    if (!rest.empty()) rest += '\n';
    rest += lines[i];
  }
  return std::string(Trim(rest));
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

FailureText ParseEquality(const std::vector<std::string_view>& lines) {
  FailureText text;
  Operand operands[2];
  size_t line = 1;
  for (Operand& operand : operands) {
    if (line >= lines.size() || !StartsWith(lines[line], "  ") ||
        StartsWith(lines[line], "    ")) {
      text.note = Rest(lines, 0);
      return text;
    }
    operand.expression = std::string(Trim(lines[line++]));
    if (line < lines.size() && StartsWith(Trim(lines[line]), "Which is: ")) {
      operand.value =
          std::string(Trim(lines[line++]).substr(sizeof("Which is: ") - 1));
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

FailureText ParseValueOf(const std::vector<std::string_view>& lines) {
  FailureText text;
  text.subject = std::string(Trim(lines[0].substr(sizeof("Value of: ") - 1)));
  size_t line = 1;
  bool has_expected = false;
  bool has_actual = false;
  for (; line < lines.size(); line++) {
    const std::string_view trimmed = Trim(lines[line]);
    if (StartsWith(trimmed, "Expected: ") && !has_expected) {
      text.expected = std::string(trimmed.substr(sizeof("Expected: ") - 1));
      has_expected = true;
    } else if (StartsWith(trimmed, "Actual: ") && !has_actual) {
      text.actual = std::string(trimmed.substr(sizeof("Actual: ") - 1));
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
FailureText ParseComparison(const std::vector<std::string_view>& lines) {
  FailureText text;
  const std::string_view first = lines[0];
  const size_t actual = first.find(", actual: ");
  if (actual == std::string_view::npos) {
    text.note = Rest(lines, 0);
    return text;
  }
  text.parsed = true;
  const size_t start = sizeof("Expected: ") - 1;
  text.expected = std::string(Trim(first.substr(start, actual - start)));
  text.actual =
      std::string(Trim(first.substr(actual + sizeof(", actual: ") - 1)));
  text.note = Rest(lines, 1);
  return text;
}

}  // namespace

FailureText ParseFailure(std::string_view message) {
  const std::vector<std::string_view> lines = Lines(Trim(message));
  if (lines.empty()) return {};
  if (lines[0] == "Expected equality of these values:") {
    return ParseEquality(lines);
  }
  if (StartsWith(lines[0], "Value of: ")) return ParseValueOf(lines);
  if (StartsWith(lines[0], "Expected: ")) return ParseComparison(lines);
  // ADD_FAILURE() and FAIL() open with "Failed".
  return Unparsed(Rest(lines, lines[0] == "Failed" ? 1 : 0));
}

}  // namespace zar::conformance
