#include "tools/conformance/run.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace zar::conformance {
namespace {

using Clock = std::chrono::steady_clock;

// Runs GoogleTest on exactly `filter` with `listener` (owned by GoogleTest
// from here on) in place of its printer.
void RunGoogleTest(const std::string& filter,
                   ::testing::TestEventListener* listener) {
  GTEST_FLAG_SET(filter, filter);
  ::testing::TestEventListeners& listeners =
      ::testing::UnitTest::GetInstance()->listeners();
  delete listeners.Release(listeners.default_result_printer());
  listeners.Append(listener);
  // The status is read back from the results (or the records).
  [[maybe_unused]] const int status = RUN_ALL_TESTS();
}

Behaviour NewBehaviour(const TestRef& ref, std::string_view source_root) {
  Behaviour behaviour;
  behaviour.name = ref.full;
  behaviour.area = ref.area;
  behaviour.file = RelativeToSource(ref.file.c_str(), source_root);
  behaviour.line = ref.line;
  return behaviour;
}

// ---- Isolated: one child process per behaviour ----------------------------
//
// The child reports through a pipe, one record per event, so that what it
// said before a crash survives it:
//   'F' file '\0' line '\0' message    a failed assertion
//   'E' status-letter '\0' elapsed-ms  the behaviour ended (P, F or S)
// Each record is its type byte, a 4-byte little-endian length and the
// payload.

void WriteFully(int fd, const char* data, size_t length) {
  while (length > 0) {
    const ssize_t written = write(fd, data, length);
    if (written <= 0) return;
    data += written;
    length -= static_cast<size_t>(written);
  }
}

// Ends each field of a payload but the last.
constexpr absl::string_view kFieldEnd("\0", 1);

void WriteRecord(int fd, char type, const std::string& payload) {
  std::string record(1, type);
  const uint32_t length = static_cast<uint32_t>(payload.size());
  for (int shift = 0; shift < 32; shift += 8) {
    record += static_cast<char>((length >> shift) & 0xff);
  }
  record += payload;
  WriteFully(fd, record.data(), record.size());
}

class RecordWriter : public ::testing::EmptyTestEventListener {
 public:
  explicit RecordWriter(int fd) : fd_(fd) {}

  void OnTestPartResult(const ::testing::TestPartResult& part) override {
    if (!part.failed()) return;
    WriteRecord(
        fd_, 'F',
        absl::StrCat(part.file_name() != nullptr ? part.file_name() : "",
                     kFieldEnd, part.line_number(), kFieldEnd,
                     part.message() != nullptr ? part.message() : ""));
  }

  void OnTestEnd(const ::testing::TestInfo& info) override {
    const ::testing::TestResult& result = *info.result();
    const char* status = result.Failed() ? "F" : result.Skipped() ? "S" : "P";
    WriteRecord(fd_, 'E',
                absl::StrCat(status, kFieldEnd, result.elapsed_time()));
  }

 private:
  int fd_;
};

// The fields of a payload, split at '\0' (at most `count`; the last one
// keeps any further '\0').
std::vector<std::string> Fields(const std::string& payload, int count) {
  return absl::StrSplit(payload, absl::MaxSplits('\0', count - 1));
}

// Applies the complete records in `data` to `behaviour`; returns whether
// an 'E' record was among them.
bool ApplyRecords(const std::string& data, std::string_view source_root,
                  Behaviour* behaviour) {
  bool ended = false;
  size_t at = 0;
  while (at + 5 <= data.size()) {
    uint32_t length = 0;
    for (int i = 0; i < 4; i++) {
      length |=
          static_cast<uint32_t>(static_cast<unsigned char>(data[at + 1 + i]))
          << (8 * i);
    }
    if (at + 5 + length > data.size()) break;  // cut short by a crash
    const char type = data[at];
    const std::string payload = data.substr(at + 5, length);
    at += 5 + length;
    if (type == 'F') {
      const std::vector<std::string> fields = Fields(payload, 3);
      if (fields.size() < 3) continue;
      behaviour->failures.push_back(
          MakeFailure(fields[0].empty() ? nullptr : fields[0].c_str(),
                      std::atoi(fields[1].c_str()), fields[2], source_root));
    } else if (type == 'E') {
      const std::vector<std::string> fields = Fields(payload, 2);
      ended = true;
      const char status = fields[0].empty() ? 'F' : fields[0][0];
      behaviour->status = status == 'P'   ? Status::kPassed
                          : status == 'S' ? Status::kSkipped
                                          : Status::kFailed;
      if (fields.size() > 1) {
        behaviour->elapsed_ms = std::atof(fields[1].c_str());
      }
    }
  }
  return ended;
}

// Reads `fd` to its end or until `deadline`; false on timeout.
bool ReadUntilEnd(int fd, Clock::time_point deadline, std::string* data) {
  char buffer[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd descriptor = {fd, POLLIN, 0};
    const int ready = poll(&descriptor, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return false;
    const ssize_t got = read(fd, buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return true;
    data->append(buffer, static_cast<size_t>(got));
  }
}

Failure RunFailure(std::string message) {
  return MakeFailure(nullptr, 0, std::move(message), "");
}

Behaviour RunOneIsolated(const TestRef& ref, int timeout_seconds,
                         std::string_view source_root) {
  Behaviour behaviour = NewBehaviour(ref, source_root);
  int fds[2];
  if (pipe(fds) != 0) {
    behaviour.status = Status::kFailed;
    behaviour.failures.push_back(RunFailure(
        absl::StrCat("the runner could not make a pipe: ", strerror(errno))));
    return behaviour;
  }
  std::fflush(nullptr);
  const Clock::time_point start = Clock::now();
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    RunGoogleTest(ref.full, new RecordWriter(fds[1]));
    // No exit handlers: the parent's buffers and at-exit work are not the
    // child's to run.
    _exit(0);
  }
  close(fds[1]);
  if (child < 0) {
    close(fds[0]);
    behaviour.status = Status::kFailed;
    behaviour.failures.push_back(RunFailure(
        absl::StrCat("the runner could not fork: ", strerror(errno))));
    return behaviour;
  }

  std::string data;
  const bool finished = ReadUntilEnd(
      fds[0], start + std::chrono::seconds(timeout_seconds), &data);
  close(fds[0]);
  if (!finished) kill(child, SIGKILL);
  int wait_status = 0;
  while (waitpid(child, &wait_status, 0) < 0 && errno == EINTR) {
  }
  const bool ended = ApplyRecords(data, source_root, &behaviour);
  const double elapsed_ms =
      std::chrono::duration<double, std::milli>(Clock::now() - start).count();

  std::string abnormal;
  if (!finished) {
    abnormal = absl::StrFormat(
        "timed out after %d s (the behaviour's process was killed)",
        timeout_seconds);
  } else if (WIFSIGNALED(wait_status)) {
    const int signal_number = WTERMSIG(wait_status);
    abnormal = absl::StrFormat("the implementation crashed: %s (signal %d)",
                               strsignal(signal_number), signal_number);
  } else if (!ended || WEXITSTATUS(wait_status) != 0) {
    abnormal = absl::StrFormat(
        "the behaviour's process exited with status %d before the behaviour "
        "ended",
        WEXITSTATUS(wait_status));
  }
  if (!abnormal.empty()) {
    behaviour.status = Status::kFailed;
    behaviour.elapsed_ms = elapsed_ms;
    behaviour.failures.push_back(RunFailure(abnormal));
  }
  return behaviour;
}

// ---- In process
// ---------------------------------------------------------------

// The running behaviour, for the fatal-signal handler (which may only read
// it): written by the listener between tests, on the same thread.
char running_behaviour[512];

class RunningBehaviourListener : public ::testing::EmptyTestEventListener {
  void OnTestStart(const ::testing::TestInfo& info) override {
    std::snprintf(running_behaviour, sizeof(running_behaviour), "%s.%s",
                  info.test_suite_name(), info.name());
  }
  void OnTestEnd(const ::testing::TestInfo&) override {
    running_behaviour[0] = '\0';
  }
};

// Sanitizer builds keep the sanitizers' own reports instead.
#ifndef ZAR_SANITIZE
void WriteToStderr(const char* text) {
  WriteFully(STDERR_FILENO, text, std::strlen(text));
}

void OnFatalSignal(int signal_number) {
  WriteToStderr("\nzend-async-conformance: the implementation crashed (");
  WriteToStderr(strsignal(signal_number));
  WriteToStderr(") in ");
  WriteToStderr(running_behaviour[0] != '\0' ? running_behaviour
                                             : "no behaviour (between tests)");
  WriteToStderr(
      "; no report (without --in-process each behaviour runs in a "
      "process of its own).\n");
  // SA_RESETHAND restored the default action: die of the same signal.
  raise(signal_number);
}

void InstallCrashReporter() {
  static char alternate_stack[64 * 1024];
  stack_t stack = {};
  stack.ss_sp = alternate_stack;
  stack.ss_size = sizeof(alternate_stack);
  sigaltstack(&stack, nullptr);
  struct sigaction action = {};
  action.sa_handler = OnFatalSignal;
  action.sa_flags = SA_RESETHAND | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (const int signal_number : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) {
    sigaction(signal_number, &action, nullptr);
  }
}
#else
void InstallCrashReporter() {}
#endif

}  // namespace

void RunIsolated(const std::vector<TestRef>& selected, int timeout_seconds,
                 std::string_view source_root, Report* report) {
  const Clock::time_point start = Clock::now();
  for (const TestRef& ref : selected) {
    report->behaviours.push_back(
        RunOneIsolated(ref, timeout_seconds, source_root));
  }
  report->elapsed_ms =
      std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void RunInProcess(const std::vector<TestRef>& selected,
                  std::string_view source_root, Report* report) {
  const std::string filter = absl::StrJoin(
      selected, ":",
      [](std::string* out, const TestRef& ref) { out->append(ref.full); });
  InstallCrashReporter();
  RunGoogleTest(filter, new RunningBehaviourListener);

  // The results, in `selected` order.
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  absl::flat_hash_map<std::string, const ::testing::TestResult*> results;
  for (int i = 0; i < unit.total_test_suite_count(); i++) {
    const ::testing::TestSuite* suite = unit.GetTestSuite(i);
    for (int j = 0; j < suite->total_test_count(); j++) {
      const ::testing::TestInfo* info = suite->GetTestInfo(j);
      if (info->should_run()) {
        results[absl::StrCat(suite->name(), ".", info->name())] =
            info->result();
      }
    }
  }
  for (const TestRef& ref : selected) {
    const auto found = results.find(ref.full);
    if (found == results.end()) continue;
    const ::testing::TestResult& result = *found->second;
    Behaviour behaviour = NewBehaviour(ref, source_root);
    behaviour.elapsed_ms = static_cast<double>(result.elapsed_time());
    behaviour.status = result.Failed()    ? Status::kFailed
                       : result.Skipped() ? Status::kSkipped
                                          : Status::kPassed;
    for (int k = 0; k < result.total_part_count(); k++) {
      const ::testing::TestPartResult& part = result.GetTestPartResult(k);
      if (part.failed()) {
        behaviour.failures.push_back(MakeFailure(
            part.file_name(), part.line_number(), part.message(), source_root));
      }
    }
    report->behaviours.push_back(std::move(behaviour));
  }
  const ::testing::TestResult& ad_hoc = unit.ad_hoc_test_result();
  for (int k = 0; k < ad_hoc.total_part_count(); k++) {
    const ::testing::TestPartResult& part = ad_hoc.GetTestPartResult(k);
    if (part.failed()) {
      report->run_failures.push_back(MakeFailure(
          part.file_name(), part.line_number(), part.message(), source_root));
    }
  }
  report->elapsed_ms = static_cast<double>(unit.elapsed_time());
}

}  // namespace zar::conformance
