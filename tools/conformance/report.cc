#include "tools/conformance/report.h"

#include <cstdio>
#include <utility>

#include "tools/conformance/areas.h"
#include "tools/conformance/json_writer.h"

namespace zar::conformance {
namespace {

const char* StatusName(Status status) {
  switch (status) {
    case Status::kPassed:
      return "passed";
    case Status::kFailed:
      return "failed";
    case Status::kSkipped:
      return "skipped";
  }
  return "?";
}

const char* StatusTag(Status status) {
  switch (status) {
    case Status::kPassed:
      return "PASS";
    case Status::kFailed:
      return "FAIL";
    case Status::kSkipped:
      return "SKIP";
  }
  return "?";
}

// `text` with every line after the first indented by `indent` spaces.
std::string Indented(const std::string& text, size_t indent) {
  std::string out;
  for (const char c : text) {
    out += c;
    if (c == '\n') out.append(indent, ' ');
  }
  return out;
}

// "1 behaviour", "2 behaviours".
std::string Behaviours(int count) {
  return std::to_string(count) + (count == 1 ? " behaviour" : " behaviours");
}

std::string Location(const std::string& file, int line) {
  if (file.empty()) return "";
  return line > 0 ? file + ":" + std::to_string(line) : file;
}

void AppendFailure(std::string& out, const Failure& failure, size_t indent) {
  const std::string pad(indent, ' ');
  const std::string location = Location(failure.file, failure.line);
  if (!location.empty()) out += pad + "at " + location + "\n";
  const FailureText& text = failure.text;
  if (text.parsed) {
    size_t value_indent = indent;
    if (!text.subject.empty()) {
      out += pad + Indented(text.subject, indent) + "\n";
      value_indent += 2;
    }
    const std::string value_pad(value_indent, ' ');
    out += value_pad +
           "expected: " + Indented(text.expected, value_indent + 10) + "\n";
    out += value_pad + "actual:   " + Indented(text.actual, value_indent + 10) +
           "\n";
  }
  if (!text.note.empty()) out += pad + Indented(text.note, indent) + "\n";
}

void AppendBehaviour(std::string& out, const Behaviour& behaviour) {
  out += "  ";
  out += StatusTag(behaviour.status);
  out += " " + behaviour.name + "\n";
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
  std::string out = "Zend Async ABI conformance report (" +
                    implementation.abi_version + ")\n";
  out += "implementation: " + implementation.module_name + " " +
         implementation.module_version + "\n";
  out += "library:        " + implementation.library + "\n\n";

  for (const AreaSummary& area : report.Areas()) {
    out += area.name + ": " + Behaviours(area.total) + ", " +
           std::to_string(area.passed) + " passed, " +
           std::to_string(area.failed) + " failed";
    if (area.skipped > 0) {
      out += ", " + std::to_string(area.skipped) + " skipped";
    }
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
    out += "run: " + problem + "\n";
  }

  const int total = static_cast<int>(report.behaviours.size());
  char elapsed[32];
  std::snprintf(elapsed, sizeof(elapsed), "%.1f s", report.elapsed_ms / 1000);
  out += "\n" + Behaviours(total) + " in " + elapsed + "\n";
  if (report.AllPassed()) {
    out += "ALL PASS\n";
  } else {
    const size_t problems = report.run_failures.size() + report.problems.size();
    out += "FAILED: " + std::to_string(report.Failed()) + " of " +
           std::to_string(total);
    if (problems > 0) {
      out += " (and " + std::to_string(problems) +
             (problems == 1 ? " run problem)" : " run problems)");
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
