// zend-async-ref: mock Zend engine. Error reporting and bailout (zend.h,
// php.h).
//
// Every zend_error() is appended to a process-wide log (level without
// E_DONT_BAIL, formatted message) that outlives requests and module
// restarts until zend_mock_errors_clear(). With ZEND_MOCK_PRINT_ERRORS set
// in the environment each report is also printed on stderr as PHP would
// ("PHP Warning:  ..."), and when the running SAPI has a log_message
// callback (main/SAPI.h) it receives the same line with the syslog
// priority of the level, as PHP's error log does. A fatal level bails out to
// the innermost zend_try unless E_DONT_BAIL is given or no zend_try is active.

#include <syslog.h>

#include <cstdlib>
#include <deque>
#include <string>

#include "engine_internal.h"

namespace {

struct LoggedError {
  int type;
  std::string message;
};

// A deque: appending never moves existing entries, so the message pointers
// handed out stay valid until the log is cleared.
std::deque<LoggedError>& ErrorLog() {
  static auto* log = new std::deque<LoggedError>();
  return *log;
}

const char* LevelLabel(int type) {
  switch (type) {
    case E_ERROR:
    case E_CORE_ERROR:
    case E_COMPILE_ERROR:
    case E_USER_ERROR:
      return "Fatal error";
    case E_RECOVERABLE_ERROR:
      return "Recoverable fatal error";
    case E_WARNING:
    case E_CORE_WARNING:
    case E_COMPILE_WARNING:
    case E_USER_WARNING:
      return "Warning";
    case E_PARSE:
      return "Parse error";
    case E_NOTICE:
    case E_USER_NOTICE:
      return "Notice";
    case E_STRICT:
      return "Strict Standards";
    case E_DEPRECATED:
    case E_USER_DEPRECATED:
      return "Deprecated";
    default:
      return "Unknown error";
  }
}

// The syslog priority PHP logs a level with.
int SyslogPriority(int level) {
  if (level & E_FATAL_ERRORS) return LOG_ERR;
  if (level & (E_WARNING | E_CORE_WARNING | E_COMPILE_WARNING | E_USER_WARNING |
               E_RECOVERABLE_ERROR)) {
    return LOG_WARNING;
  }
  if (level & (E_NOTICE | E_USER_NOTICE | E_STRICT)) return LOG_NOTICE;
  return LOG_INFO;
}

// Records the report; returns the level without E_DONT_BAIL.
int Record(int type, std::string message) {
  const int level = type & ~E_DONT_BAIL;
  if (getenv("ZEND_MOCK_PRINT_ERRORS") != nullptr) {
    fprintf(stderr, "PHP %s:  %s\n", LevelLabel(level), message.c_str());
  }
  if (sapi_module.log_message != nullptr) {
    const std::string line =
        std::string("PHP ") + LevelLabel(level) + ":  " + message;
    sapi_module.log_message(line.c_str(), SyslogPriority(level));
  }
  if ((level & E_FATAL_ERRORS) && EG(active)) {
    mock_zend::internal::NoteRequestFatalError(message);
  }
  if (php_module_started()) mock_zend::internal::NoteLastError(level, message);
  ErrorLog().push_back({level, std::move(message)});
  if (level & E_FATAL_ERRORS) EG(exit_status) = 255;
  return level;
}

void BailIfFatal(int type) {
  const int level = type & ~E_DONT_BAIL;
  if ((level & E_FATAL_ERRORS) && !(type & E_DONT_BAIL) &&
      EG(bailout) != nullptr) {
    zend_bailout();
  }
}

}  // namespace

extern "C" {

void zend_error(int type, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  std::string message = mock_zend::internal::VFormat(format, ap);
  va_end(ap);
  Record(type, std::move(message));
  BailIfFatal(type);
}

void zend_error_noreturn(int type, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  std::string message = mock_zend::internal::VFormat(format, ap);
  va_end(ap);
  Record(type, std::move(message));
  zend_bailout();
}

void zend_error_zstr(int type, zend_string* message) {
  Record(type, std::string(ZSTR_VAL(message), ZSTR_LEN(message)));
  BailIfFatal(type);
}

uint32_t zend_mock_error_count(void) {
  return static_cast<uint32_t>(ErrorLog().size());
}

int zend_mock_error_type(uint32_t index) {
  return index < ErrorLog().size() ? ErrorLog()[index].type : 0;
}

const char* zend_mock_error_message(uint32_t index) {
  return index < ErrorLog().size() ? ErrorLog()[index].message.c_str()
                                   : nullptr;
}

void zend_mock_errors_clear(void) { ErrorLog().clear(); }

// Like PHP: the frames being abandoned are forgotten (EG(current_execute_
// data) = NULL) and control jumps to the innermost zend_try. The references
// those frames held are remembered for zend_mock_release_bailout_frames().
void _zend_bailout(const char* filename, uint32_t lineno) {
  (void)filename;
  (void)lineno;
  if (EG(bailout) == nullptr) {
    fputs("Fatal: bailout without zend_try\n", stderr);
    abort();
  }
  mock_zend::internal::SnapshotFramesForBailout();
  EG(current_execute_data) = nullptr;
  LONGJMP(*EG(bailout), 1);
}

void php_error_docref(const char* docref, int type, const char* format, ...) {
  (void)docref;
  va_list ap;
  va_start(ap, format);
  std::string message = mock_zend::internal::VFormat(format, ap);
  va_end(ap);
  if (zend_string* function = get_active_function_or_method_name()) {
    message = std::string(ZSTR_VAL(function)) + "(): " + message;
    zend_string_release(function);
  }
  Record(type, std::move(message));
  BailIfFatal(type);
}

}  // extern "C"

namespace mock_zend::internal {

void Unsupported(const char* function, const char* reason) {
  zend_error(E_CORE_ERROR, "%s() is not supported by the mock engine: %s",
             function, reason);
}

}  // namespace mock_zend::internal
