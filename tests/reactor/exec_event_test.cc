// Exec events and exec(): a shell command with its output, by mode (php-async
// tests/exec: exec, system, passthru, shell_exec).

#include <csignal>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mock_zend/inspect.h"
#include "tests/reactor/support/reactor_test.h"
#include "zend_async_ref/testing/coroutines.h"

extern "C" {
#include "SAPI.h"
}

namespace zar::reactor_testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The strings of an array zval, in order.
std::vector<std::string> Lines(const zval* array) {
  std::vector<std::string> lines;
  if (Z_TYPE_P(array) != IS_ARRAY) return lines;
  const zval* entry;
  ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(array), entry) {
    lines.emplace_back(Z_STRVAL_P(entry), Z_STRLEN_P(entry));
  }
  ZEND_HASH_FOREACH_END();
  return lines;
}

std::string StringOf(const zval* value) {
  return Z_TYPE_P(value) == IS_STRING
             ? std::string(Z_STRVAL_P(value), Z_STRLEN_P(value))
             : "<type " + std::to_string(Z_TYPE_P(value)) + ">";
}

// What the SAPI was given to write while it is alive.
class CapturedOutput {
 public:
  CapturedOutput() : saved_(sapi_module.ub_write) {
    current_ = this;
    sapi_module.ub_write = Write;
  }
  ~CapturedOutput() {
    sapi_module.ub_write = saved_;
    current_ = nullptr;
  }
  const std::string& text() const { return text_; }

 private:
  static size_t Write(const char* str, size_t length) {
    current_->text_.append(str, length);
    return length;
  }
  static inline CapturedOutput* current_ = nullptr;
  size_t (*saved_)(const char*, size_t);
  std::string text_;
};

// The outcome of one exec() run in a coroutine.
struct ExecRun {
  int exit_code = 0;
  std::string exception;
};

class ExecTest : public ReactorTest {
 protected:
  void SetUp() override {
    ReactorTest::SetUp();
    ZVAL_NULL(&buffer_);
    ZVAL_NULL(&value_);
    ZVAL_NULL(&std_error_);
  }
  void TearDown() override {
    zval_ptr_dtor(&buffer_);
    zval_ptr_dtor(&value_);
    zval_ptr_dtor(&std_error_);
    ReactorTest::TearDown();
  }

  // ZEND_ASYNC_EXEC in a coroutine with this fixture's zvals. The output
  // buffer is given only to the modes that fill one (EXEC_ARRAY, SHELL_EXEC):
  // PHP's exec() without an array, system() and passthru() pass none, and
  // the ABI says nothing of what the others do with one (php-async keeps
  // each EXEC/SYSTEM line in it).
  ExecRun Run(zend_async_exec_mode mode, const char* cmd,
              bool capture_stderr = false, const char* cwd = nullptr,
              const char* env = nullptr, zend_ulong timeout = 0) {
    ExecRun run;
    EXPECT_TRUE(RunMain([&] {
      // As php-src's exec functions: the scheduler first.
      ZEND_ASYNC_SCHEDULER_INIT();
      const bool fills_a_buffer = mode == ZEND_ASYNC_EXEC_MODE_EXEC_ARRAY ||
                                  mode == ZEND_ASYNC_EXEC_MODE_SHELL_EXEC;
      run.exit_code = ZEND_ASYNC_EXEC(
          mode, cmd, fills_a_buffer ? &buffer_ : nullptr, &value_,
          capture_stderr ? &std_error_ : nullptr, cwd, env, timeout);
      run.exception = TakeExceptionText();
    }));
    return run;
  }

  zval buffer_;
  zval value_;
  zval std_error_;
};

// php-async tests/exec 004-exec_basic, 012-exec_exit_code.
TEST_F(ExecTest, ExecReturnsTheExitStatusAndTheLastLine) {
  ExecRun run = Run(ZEND_ASYNC_EXEC_MODE_EXEC, "echo first; echo last; exit 7");

  EXPECT_EQ(run.exception, "");
  EXPECT_EQ(run.exit_code, 7);
  EXPECT_EQ(StringOf(&value_), "last");
}

// php-async tests/exec 013-exec_crlf_line_endings, 014-exec_empty_lines,
// 015-exec_trailing_whitespace.
TEST_F(ExecTest, ExecArrayAppendsEveryLineWithTrailingWhitespaceStripped) {
  array_init(&buffer_);
  ExecRun run =
      Run(ZEND_ASYNC_EXEC_MODE_EXEC_ARRAY,
          "printf 'space   \\ntab\\t\\t\\ncr\\r\\n\\n\\nmixed \\t\\r\\n'");

  EXPECT_EQ(run.exit_code, 0);
  EXPECT_THAT(Lines(&buffer_),
              ElementsAre("space", "tab", "cr", "", "", "mixed"));
  EXPECT_EQ(StringOf(&value_), "mixed");
}

// php-async tests/exec 016-exec_no_trailing_newline.
TEST_F(ExecTest, AnUnterminatedLastLineIsTheLastLine) {
  array_init(&buffer_);
  Run(ZEND_ASYNC_EXEC_MODE_EXEC_ARRAY, "printf 'first\\nsecond\\nthird_no_nl'");

  EXPECT_THAT(Lines(&buffer_), ElementsAre("first", "second", "third_no_nl"));
  EXPECT_EQ(StringOf(&value_), "third_no_nl");
}

// php-async tests/exec 016-exec_no_trailing_newline (test 3).
TEST_F(ExecTest, NoOutputGivesAnEmptyLastLineAndNoLines) {
  array_init(&buffer_);
  ExecRun run = Run(ZEND_ASYNC_EXEC_MODE_EXEC_ARRAY, "true");

  EXPECT_EQ(run.exit_code, 0);
  EXPECT_TRUE(Lines(&buffer_).empty());
  EXPECT_EQ(StringOf(&value_), "");
}

// php-async tests/exec 017-exec_unicode_binary: only trailing whitespace
// goes; bytes are kept as they are.
TEST_F(ExecTest, LeadingAndInnerWhitespaceAndUtf8BytesAreKept) {
  array_init(&buffer_);
  Run(ZEND_ASYNC_EXEC_MODE_EXEC_ARRAY,
      "printf '\320\237\321\200\320\270\n  lead\n\tlead\na\tb\tc\n'");

  EXPECT_THAT(Lines(&buffer_), ElementsAre("\xD0\x9F\xD1\x80\xD0\xB8", "  lead",
                                           "\tlead", "a\tb\tc"));
}

// php-async tests/exec 019-system_crlf.
TEST_F(ExecTest, SystemWritesCrlfOutputAsIsAndStripsTheLastLine) {
  CapturedOutput output;
  ExecRun run =
      Run(ZEND_ASYNC_EXEC_MODE_SYSTEM, "printf 'alpha\r\nbeta\r\ngamma\r\n'");

  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(output.text(), "alpha\r\nbeta\r\ngamma\r\n");
  EXPECT_EQ(StringOf(&value_), "gamma");
}

// php-async tests/exec 018-exec_long_lines: lines longer than a read.
TEST_F(ExecTest, LinesLongerThanOneReadStayWhole) {
  array_init(&buffer_);
  Run(ZEND_ASYNC_EXEC_MODE_EXEC_ARRAY,
      "head -c 200000 /dev/zero | tr '\\0' a; echo; echo end");

  std::vector<std::string> lines = Lines(&buffer_);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], std::string(200000, 'a'));
  EXPECT_EQ(lines[1], "end");
}

// php-async tests/exec 005-shell_exec_basic, 020-shell_exec_raw_output.
TEST_F(ExecTest, ShellExecKeepsTheRawOutput) {
  ExecRun run = Run(ZEND_ASYNC_EXEC_MODE_SHELL_EXEC, "printf 'a  \\r\\n\\nb'");

  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(StringOf(&buffer_), "a  \r\n\nb");
}

TEST_F(ExecTest, ShellExecWithoutOutputLeavesTheBufferAsItWas) {
  Run(ZEND_ASYNC_EXEC_MODE_SHELL_EXEC, "true");

  EXPECT_EQ(Z_TYPE(buffer_), IS_NULL);
}

// php-async tests/exec 008-system_basic.
TEST_F(ExecTest, SystemWritesTheOutputAndReturnsTheLastLine) {
  CapturedOutput output;
  ExecRun run = Run(ZEND_ASYNC_EXEC_MODE_SYSTEM, "echo one; echo 'two  '");

  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(output.text(), "one\ntwo  \n");
  EXPECT_EQ(StringOf(&value_), "two");
}

// php-async tests/exec 009-passthru_basic.
TEST_F(ExecTest, PassthruWritesTheRawOutputAndKeepsNothing) {
  CapturedOutput output;
  ExecRun run = Run(ZEND_ASYNC_EXEC_MODE_PASSTHRU, "printf 'x\\r\\ny'; exit 2");

  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(output.text(), "x\r\ny");
  EXPECT_EQ(Z_TYPE(buffer_), IS_NULL);
}

TEST_F(ExecTest, StandardErrorIsCollectedWhenAsked) {
  ExecRun run = Run(ZEND_ASYNC_EXEC_MODE_SHELL_EXEC,
                    "echo out; echo err 1>&2; echo more 1>&2",
                    /*capture_stderr=*/true);

  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(StringOf(&buffer_), "out\n");
  EXPECT_EQ(StringOf(&std_error_), "err\nmore\n");
}

// php-async tests/exec 021..024 (chdir/cwd).
TEST_F(ExecTest, TheCommandRunsInTheGivenDirectory) {
  Run(ZEND_ASYNC_EXEC_MODE_EXEC, "pwd", false, "/");

  EXPECT_EQ(StringOf(&value_), "/");
}

TEST_F(ExecTest, TheGivenEnvironmentReplacesTheProcesses) {
  const char* env[] = {"ZAR_EXEC_VALUE=forty-two", nullptr};
  Run(ZEND_ASYNC_EXEC_MODE_EXEC, "echo \"$ZAR_EXEC_VALUE-$HOME\"", false,
      nullptr, reinterpret_cast<const char*>(env));

  EXPECT_EQ(StringOf(&value_), "forty-two-");
}

// php-async tests/exec 006-exec_multiple_concurrent.
TEST_F(ExecTest, ConcurrentCommandsEachGetTheirOwnOutput) {
  std::string first;
  std::string second;
  EXPECT_TRUE(RunMain([&] {
    auto runner = [](const char* cmd, std::string* out) {
      return zar::testing::Spawn([cmd, out] {
        zval value;
        ZVAL_NULL(&value);
        ZEND_ASYNC_EXEC(ZEND_ASYNC_EXEC_MODE_EXEC, cmd, nullptr, &value,
                        nullptr, nullptr, nullptr, 0);
        *out = StringOf(&value);
        zval_ptr_dtor(&value);
      });
    };
    zar::testing::CoroutineRef a(runner("sleep 0.05; echo slow", &first));
    zar::testing::CoroutineRef b(runner("echo fast", &second));
    EXPECT_EQ(zar::testing::Await(a.get()).error, "");
    EXPECT_EQ(zar::testing::Await(b.get()).error, "");
  }));
  EXPECT_EQ(first, "slow");
  EXPECT_EQ(second, "fast");
}

TEST_F(ExecTest, ExecOutsideACoroutineThrowsAndReturnsMinusOne) {
  EXPECT_EQ(ZEND_ASYNC_EXEC(ZEND_ASYNC_EXEC_MODE_EXEC, "true", &buffer_,
                            &value_, nullptr, nullptr, nullptr, 0),
            -1);
  EXPECT_EQ(TakeExceptionText(),
            "Error: Cannot call async_exec() outside of an async context");
  EXPECT_EQ(Z_TYPE(value_), IS_FALSE);
}

TEST_F(ExecTest, ATimeoutEndsTheWaitWithTimeoutExceptionAndEndsTheCommand) {
  ExecRun run = Run(ZEND_ASYNC_EXEC_MODE_EXEC, "exec sleep 30", false, nullptr,
                    nullptr, /*timeout=*/20);

  EXPECT_EQ(run.exit_code, -1);
  EXPECT_EQ(run.exception,
            "Async\\TimeoutException: Operation has been cancelled by timeout");
  EXPECT_EQ(RunningChildProcesses(), 0) << "the command still runs";
}

TEST_F(ExecTest, ASpawnThatFailsWarnsAndReturnsMinusOne) {
  ExecRun run = Run(ZEND_ASYNC_EXEC_MODE_EXEC, "true", false,
                    "/nonexistent-zar-directory");

  EXPECT_EQ(run.exit_code, -1);
  EXPECT_EQ(run.exception, "");
  EXPECT_THAT(zar::testing::ErrorLog(),
              ElementsAre(HasSubstr(
                  "Failed to spawn process: no such file or directory")));
  EXPECT_EQ(Z_TYPE(value_), IS_FALSE);
}

// ---- The event itself
// ---------------------------------------------------------

class ExecEventTest : public ReactorTest {
 protected:
  void SetUp() override {
    ReactorTest::SetUp();
    ZVAL_NULL(&buffer_);
    ZVAL_NULL(&value_);
  }
  void TearDown() override {
    zval_ptr_dtor(&buffer_);
    zval_ptr_dtor(&value_);
    ReactorTest::TearDown();
  }
  zend_async_exec_event_t* NewExec(zend_async_exec_mode mode, const char* cmd) {
    return ZEND_ASYNC_NEW_EXEC_EVENT(mode, cmd, &buffer_, &value_, nullptr,
                                     nullptr, nullptr);
  }
  // An EXEC-mode event for `cmd`, recorded into `log` as "done", started.
  zend_async_exec_event_t* StartedExec(const char* cmd, NotificationLog* log) {
    zend_async_exec_event_t* exec = NewExec(ZEND_ASYNC_EXEC_MODE_EXEC, cmd);
    AddRecorder(&exec->base, log, "done");
    EXPECT_TRUE(exec->base.start(&exec->base));
    return exec;
  }
  zval buffer_;
  zval value_;
};

TEST_F(ExecEventTest, TheEventCompletesOnceWithExitCodeAndAllOutput) {
  NotificationLog log;
  zend_async_exec_event_t* exec =
      NewExec(ZEND_ASYNC_EXEC_MODE_SHELL_EXEC, "echo hello; exit 3");
  ASSERT_NE(exec, nullptr);
  EXPECT_EQ(exec->exec_mode, ZEND_ASYNC_EXEC_MODE_SHELL_EXEC);
  EXPECT_STREQ(exec->cmd, "echo hello; exit 3");
  EXPECT_FALSE(exec->terminated);
  AddRecorder(&exec->base, &log, "done");
  ASSERT_TRUE(exec->base.start(&exec->base));

  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  ASSERT_EQ(log.size(), 1u);
  EXPECT_FALSE(log[0].has_result);
  EXPECT_EQ(log[0].exception, "");
  EXPECT_TRUE(exec->terminated);
  EXPECT_EQ(exec->exit_code, 3);
  EXPECT_EQ(exec->term_signal, 0);
  EXPECT_EQ(StringOf(&buffer_), "hello\n");
  ZEND_ASYNC_EVENT_RELEASE(&exec->base);
}

TEST_F(ExecEventTest, ARunningCommandCountsAsAnActiveEventUntilItEnds) {
  NotificationLog log;
  zend_async_exec_event_t* exec = NewExec(ZEND_ASYNC_EXEC_MODE_EXEC, "true");
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 1u);
  AddRecorder(&exec->base, &log, "done");
  ASSERT_TRUE(exec->base.start(&exec->base));
  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 2u);

  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));
  // Whether the ended command still counts until its owner stops it is the
  // implementation's (php-async: it does; the reference: it does not).
  EXPECT_TRUE(exec->base.stop(&exec->base));

  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  ZEND_ASYNC_EVENT_RELEASE(&exec->base);
}

TEST_F(ExecEventTest, TheLastStopWhileTheCommandRunsEndsItWithSigterm) {
  NotificationLog log;
  zend_async_exec_event_t* exec = StartedExec("exec sleep 30", &log);
  ASSERT_TRUE(exec->base.start(&exec->base));
  EXPECT_TRUE(exec->base.stop(&exec->base));  // one reference left: runs on

  EXPECT_TRUE(exec->base.stop(&exec->base));
  ASSERT_TRUE(RunUntil([&] { return !log.empty(); }));

  EXPECT_TRUE(exec->terminated);
  EXPECT_EQ(exec->term_signal, SIGTERM);
  ZEND_ASYNC_EVENT_RELEASE(&exec->base);
}

TEST_F(ExecEventTest, DisposingARunningCommandEndsItAndLeaksNothing) {
  NotificationLog log;
  zend_async_exec_event_t* exec = StartedExec("exec sleep 30", &log);

  ZEND_ASYNC_EVENT_RELEASE(&exec->base);

  EXPECT_EQ(ZEND_ASYNC_ACTIVE_EVENT_COUNT, 0u);
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(RunningChildProcesses(), 0) << "the command still runs";
}

TEST_F(ExecEventTest, InfoNamesTheCommand) {
  zend_async_exec_event_t* exec = NewExec(ZEND_ASYNC_EXEC_MODE_EXEC, "echo hi");
  EXPECT_EQ(InfoOf(&exec->base), "Exec(cmd=echo hi)");
  ZEND_ASYNC_EVENT_RELEASE(&exec->base);
}

}  // namespace
}  // namespace zar::reactor_testing
