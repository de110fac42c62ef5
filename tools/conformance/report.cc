#include "tools/conformance/report.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "tools/conformance/areas.h"
#include "tools/conformance/json_writer.h"

namespace zar::conformance {
namespace {

// How a status is written: its name in JSON, its tag in the text report.
struct StatusWords {
  const char* name;
  const char* tag;
};

StatusWords WordsOf(Status status) {
  switch (status) {
    case Status::kPassed:
      return {"passed", "PASS"};
    case Status::kFailed:
      return {"failed", "FAIL"};
    case Status::kSkipped:
      return {"skipped", "SKIP"};
  }
  return {"?", "?"};
}

const char* StatusName(Status status) { return WordsOf(status).name; }

const char* StatusTag(Status status) { return WordsOf(status).tag; }

// `text` with every line after the first indented by `indent` spaces.
std::string Indented(const std::string& text, size_t indent) {
  return absl::StrReplaceAll(text, {{"\n", "\n" + std::string(indent, ' ')}});
}

// "1 behaviour", "2 behaviours".
std::string Behaviours(int count) {
  return absl::StrFormat("%d behaviour%s", count, count == 1 ? "" : "s");
}

void AppendFailure(std::string& out, const Failure& failure, int indent) {
  if (!failure.file.empty()) {
    absl::StrAppendFormat(&out, "%*sat %s", indent, "", failure.file);
    if (failure.line > 0) absl::StrAppend(&out, ":", failure.line);
    out += "\n";
  }
  const FailureText& text = failure.text;
  if (text.parsed) {
    int value_indent = indent;
    if (!text.subject.empty()) {
      absl::StrAppendFormat(&out, "%*s%s\n", indent, "",
                            Indented(text.subject, indent));
      value_indent += 2;
    }
    absl::StrAppendFormat(&out, "%*sexpected: %s\n", value_indent, "",
                          Indented(text.expected, value_indent + 10));
    absl::StrAppendFormat(&out, "%*sactual:   %s\n", value_indent, "",
                          Indented(text.actual, value_indent + 10));
  }
  if (!text.note.empty()) {
    absl::StrAppendFormat(&out, "%*s%s\n", indent, "",
                          Indented(text.note, indent));
  }
}

void AppendBehaviour(std::string& out, const Behaviour& behaviour) {
  absl::StrAppend(&out, "  ", StatusTag(behaviour.status), " ", behaviour.name,
                  "\n");
  for (const Failure& failure : behaviour.failures) {
    AppendFailure(out, failure, 7);
  }
}

void WriteFailure(JsonWriter& json, const Failure& failure) {
  json.BeginObject();
  json.Key("file").String(failure.file);
  json.Key("line").Int(failure.line);
  if (failure.text.parsed) {
    json.Key("subject").String(failure.text.subject);
    json.Key("expected").String(failure.text.expected);
    json.Key("actual").String(failure.text.actual);
  }
  json.Key("note").String(failure.text.note);
  json.Key("message").String(failure.message);
  json.EndObject();
}

}  // namespace

std::vector<AreaSummary> Report::Areas() const {
  std::vector<std::string_view> names = AreaNames();
  names.push_back(kUnmappedArea);
  std::vector<AreaSummary> areas;
  for (const std::string_view name : names) {
    AreaSummary area;
    area.name = std::string(name);
    for (const Behaviour& behaviour : behaviours) {
      if (behaviour.area != name) continue;
      area.behaviours.push_back(&behaviour);
      area.total++;
      switch (behaviour.status) {
        case Status::kPassed:
          area.passed++;
          break;
        case Status::kFailed:
          area.failed++;
          break;
        case Status::kSkipped:
          area.skipped++;
          break;
      }
    }
    if (area.total > 0) areas.push_back(std::move(area));
  }
  return areas;
}

int Report::Failed() const {
  int failed = 0;
  for (const Behaviour& behaviour : behaviours) {
    if (behaviour.status == Status::kFailed) failed++;
  }
  return failed;
}

bool Report::AllPassed() const {
  return Failed() == 0 && run_failures.empty() && problems.empty();
}

std::string RelativeToSource(const char* file, std::string_view source_root) {
  if (file == nullptr) return "";
  std::string_view path(file);
  if (!source_root.empty() &&
      path.substr(0, source_root.size()) == source_root &&
      path.size() > source_root.size() && path[source_root.size()] == '/') {
    path.remove_prefix(source_root.size() + 1);
  }
  return std::string(path);
}

Failure MakeFailure(const char* file, int line, std::string message,
                    std::string_view source_root) {
  Failure failure;
  failure.file = RelativeToSource(file, source_root);
  failure.line = line > 0 ? line : 0;
  failure.message = std::move(message);
  failure.text = ParseFailure(failure.message);
  return failure;
}

std::string FormatText(const Report& report, bool verbose) {
  const Implementation& implementation = report.implementation;
  std::string out = absl::StrFormat(
      "Zend Async ABI conformance report (%s)\n"
      "implementation: %s %s\n"
      "library:        %s\n\n",
      implementation.abi_version, implementation.module_name,
      implementation.module_version, implementation.library);

  for (const AreaSummary& area : report.Areas()) {
    absl::StrAppendFormat(&out, "%s: %s, %d passed, %d failed", area.name,
                          Behaviours(area.total), area.passed, area.failed);
    if (area.skipped > 0) absl::StrAppend(&out, ", ", area.skipped, " skipped");
    out += "\n";
    for (const Behaviour* behaviour : area.behaviours) {
      if (verbose || behaviour->status == Status::kFailed) {
        AppendBehaviour(out, *behaviour);
      }
    }
  }
  for (const Failure& failure : report.run_failures) {
    out += "run: failure outside any behaviour\n";
    AppendFailure(out, failure, 7);
  }
  for (const std::string& problem : report.problems) {
    absl::StrAppend(&out, "run: ", problem, "\n");
  }

  const int total = static_cast<int>(report.behaviours.size());
  absl::StrAppendFormat(&out, "\n%s in %.1f s\n", Behaviours(total),
                        report.elapsed_ms / 1000);
  if (report.AllPassed()) {
    out += "ALL PASS\n";
  } else {
    const size_t problems = report.run_failures.size() + report.problems.size();
    absl::StrAppendFormat(&out, "FAILED: %d of %d", report.Failed(), total);
    if (problems > 0) {
      absl::StrAppendFormat(&out, " (and %d run problem%s)", problems,
                            problems == 1 ? "" : "s");
    }
    out += "\n";
  }
  return out;
}

std::string FormatJson(const Report& report) {
  JsonWriter json;
  json.BeginObject();
  json.Key("implementation").BeginObject();
  json.Key("name").String(report.implementation.module_name);
  json.Key("version").String(report.implementation.module_version);
  json.Key("library").String(report.implementation.library);
  json.Key("abi_version").String(report.implementation.abi_version);
  json.EndObject();

  json.Key("passed").Bool(report.AllPassed());
  int passed = 0;
  int skipped = 0;
  for (const Behaviour& behaviour : report.behaviours) {
    if (behaviour.status == Status::kPassed) passed++;
    if (behaviour.status == Status::kSkipped) skipped++;
  }
  json.Key("summary").BeginObject();
  json.Key("behaviours").Int(static_cast<int64_t>(report.behaviours.size()));
  json.Key("passed").Int(passed);
  json.Key("failed").Int(report.Failed());
  json.Key("skipped").Int(skipped);
  json.Key("elapsed_ms").Double(report.elapsed_ms);
  json.EndObject();

  json.Key("areas").BeginArray();
  for (const AreaSummary& area : report.Areas()) {
    json.BeginObject();
    json.Key("name").String(area.name);
    json.Key("total").Int(area.total);
    json.Key("passed").Int(area.passed);
    json.Key("failed").Int(area.failed);
    json.Key("skipped").Int(area.skipped);
    json.Key("behaviours").BeginArray();
    for (const Behaviour* behaviour : area.behaviours) {
      json.BeginObject();
      json.Key("name").String(behaviour->name);
      json.Key("status").String(StatusName(behaviour->status));
      json.Key("file").String(behaviour->file);
      json.Key("line").Int(behaviour->line);
      json.Key("elapsed_ms").Double(behaviour->elapsed_ms);
      json.Key("failures").BeginArray();
      for (const Failure& failure : behaviour->failures) {
        WriteFailure(json, failure);
      }
      json.EndArray();
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();

  json.Key("run_failures").BeginArray();
  for (const Failure& failure : report.run_failures)
    WriteFailure(json, failure);
  json.EndArray();
  json.Key("problems").BeginArray();
  for (const std::string& problem : report.problems) json.String(problem);
  json.EndArray();
  json.EndObject();
  return json.str();
}

}  // namespace zar::conformance
