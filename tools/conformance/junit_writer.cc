#include "tools/conformance/junit_writer.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace zar::conformance {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the valid UTF-8 sequence starting at text[i], or 0.
size_t Utf8Length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[i + k]); };
  const uint8_t lead = byte(0);
  size_t length = 0;
  uint32_t code = 0;
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; k++) {
    if ((byte(k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(k) & 0x3F);
  }
  const bool overlong =
      (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  const bool non_character = code == 0xFFFE || code == 0xFFFF;
  if (overlong || surrogate || non_character || code > 0x10FFFF) return 0;
  return length;
}

std::string Seconds(double ms) { return absl::StrFormat("%.3f", ms / 1000.0); }

std::string Attribute(std::string_view name, std::string_view value) {
  return absl::StrFormat(" %s=\"%s\"", name, XmlEscape(value));
}

std::string Attribute(std::string_view name, int value) {
  return absl::StrFormat(" %s=\"%d\"", name, value);
}

// One line for the failure's message attribute.
std::string Summary(const Failure& failure) {
  const FailureText& text = failure.text;
  if (text.parsed) {
    return absl::StrCat(text.subject, text.subject.empty() ? "" : ": ",
                        "expected ", text.expected, ", actual ", text.actual);
  }
  const size_t end = failure.message.find('\n');
  return failure.message.substr(0, end);
}

// The failure's body: where, then expected and actual (as the text report
// writes them), then GoogleTest's message whole.
std::string Body(const Failure& failure) {
  std::string out;
  if (!failure.file.empty()) {
    absl::StrAppend(&out, failure.file, ":", failure.line, "\n");
  }
  const FailureText& text = failure.text;
  if (text.parsed) {
    if (!text.subject.empty()) absl::StrAppend(&out, text.subject, "\n");
    absl::StrAppend(&out, "  expected: ", text.expected, "\n",
                    "  actual:   ", text.actual, "\n");
    if (!text.note.empty()) absl::StrAppend(&out, text.note, "\n");
    out += "\n";
  }
  out += failure.message;
  return out;
}

void AppendFailure(const Failure& failure, std::string* out) {
  *out += "      <failure";
  *out += Attribute("message", Summary(failure));
  *out += Attribute("type", failure.text.parsed ? "assertion" : "failure");
  *out += ">";
  *out += XmlEscape(Body(failure));
  *out += "</failure>\n";
}

}  // namespace

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    switch (c) {
      case '&':
        out += "&amp;";
        i++;
        continue;
      case '<':
        out += "&lt;";
        i++;
        continue;
      case '>':
        out += "&gt;";
        i++;
        continue;
      case '"':
        out += "&quot;";
        i++;
        continue;
      case '\'':
        out += "&apos;";
        i++;
        continue;
      case '\n':
        out += "&#10;";
        i++;
        continue;
      case '\t':
        out += "&#9;";
        i++;
        continue;
      case '\r':
        out += "&#13;";
        i++;
        continue;
      default:
        break;
    }
    if (static_cast<uint8_t>(c) < 0x20) {
      out += kReplacement;
      i++;
      continue;
    }
    const size_t length = Utf8Length(text, i);
    if (length == 0) {
      out += kReplacement;
      i++;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

std::string FormatJunit(const Report& report) {
  const std::vector<AreaSummary> areas = report.Areas();
  int tests = 0;
  int failures = 0;
  int skipped = 0;
  for (const AreaSummary& area : areas) {
    tests += area.total;
    failures += area.failed;
    skipped += area.skipped;
  }
  const bool run_failed =
      !report.run_failures.empty() || !report.problems.empty();
  const int errors = run_failed ? 1 : 0;

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites";
  out += Attribute("name", "zend-async-conformance");
  out += Attribute("tests", tests + errors);
  out += Attribute("failures", failures);
  out += Attribute("errors", errors);
  out += Attribute("skipped", skipped);
  out += Attribute("time", Seconds(report.elapsed_ms));
  out += ">\n";

  const Implementation& impl = report.implementation;
  for (const AreaSummary& area : areas) {
    double elapsed_ms = 0;
    for (const Behaviour* behaviour : area.behaviours) {
      elapsed_ms += behaviour->elapsed_ms;
    }
    out += "  <testsuite";
    out += Attribute("name", area.name);
    out += Attribute("tests", area.total);
    out += Attribute("failures", area.failed);
    out += Attribute("errors", 0);
    out += Attribute("skipped", area.skipped);
    out += Attribute("time", Seconds(elapsed_ms));
    out += ">\n";
    out += "    <properties>\n";
    const std::pair<const char*, const std::string*> properties[] = {
        {"implementation", &impl.module_name},
        {"version", &impl.module_version},
        {"library", &impl.library},
        {"abi", &impl.abi_version}};
    for (const auto& [name, value] : properties) {
      absl::StrAppend(&out, "      <property", Attribute("name", name),
                      Attribute("value", *value), "/>\n");
    }
    out += "    </properties>\n";
    for (const Behaviour* behaviour : area.behaviours) {
      out += "    <testcase";
      out += Attribute("classname", area.name);
      out += Attribute("name", behaviour->name);
      if (!behaviour->file.empty()) {
        out += Attribute("file", behaviour->file);
        out += Attribute("line", behaviour->line);
      }
      out += Attribute("time", Seconds(behaviour->elapsed_ms));
      if (behaviour->status == Status::kPassed) {
        out += "/>\n";
        continue;
      }
      out += ">\n";
      if (behaviour->status == Status::kSkipped) {
        out += "      <skipped/>\n";
      } else if (behaviour->failures.empty()) {
        out += "      <failure message=\"failed\" type=\"failure\"/>\n";
      } else {
        for (const Failure& failure : behaviour->failures) {
          std::string indented;
          AppendFailure(failure, &indented);
          out += "  " + indented;
        }
      }
      out += "    </testcase>\n";
    }
    out += "  </testsuite>\n";
  }

  if (run_failed) {
    // The run's own problems, as one errored test case: a CI display shows
    // them next to the behaviours.
    out += "  <testsuite";
    out += Attribute("name", "run");
    out += Attribute("tests", 1);
    out += Attribute("failures", 0);
    out += Attribute("errors", 1);
    out += Attribute("skipped", 0);
    out += Attribute("time", "0.000");
    out += ">\n";
    absl::StrAppend(&out, "    <testcase", Attribute("classname", "run"),
                    Attribute("name", "suite"), Attribute("time", "0.000"),
                    ">\n");
    std::string text;
    for (const std::string& problem : report.problems) {
      absl::StrAppend(&text, problem, "\n");
    }
    for (const Failure& failure : report.run_failures) {
      absl::StrAppend(&text, Body(failure), "\n");
    }
    const std::string first = !report.problems.empty()
                                  ? report.problems.front()
                                  : Summary(report.run_failures.front());
    absl::StrAppend(&out, "      <error", Attribute("message", first),
                    Attribute("type", "run"), ">", XmlEscape(text),
                    "</error>\n");
    out += "    </testcase>\n";
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace zar::conformance
