// What the fuzz targets share (fuzz_support.h).

#include "tools/fuzz/fuzz_support.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include "core/extension.h"
#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request.h"

extern "C" {
#include "Zend/zend.h"
#include "ext/pdo/php_pdo.h"
}

namespace zar::fuzz {

std::string_view Input::Until(char delimiter) {
  if (empty()) return {};
  const char* begin = reinterpret_cast<const char*>(data_ + pos_);
  size_t length = 0;
  while (pos_ + length < size_ && begin[length] != delimiter) length++;
  pos_ += length;
  if (pos_ < size_) pos_++;  // the delimiter
  return {begin, length};
}

std::string_view Input::Rest() {
  if (empty()) return {};
  std::string_view rest(reinterpret_cast<const char*>(data_ + pos_),
                        size_ - pos_);
  pos_ = size_;
  return rest;
}

std::string Format(const char* format, ...) {
  va_list args;
  va_start(args, format);
  char buffer[1024];
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  return buffer;
}

void Fail(const char* target, const std::string& message) {
  std::fprintf(stderr, "zend-async-ref fuzz %s: %s\n", target, message.c_str());
  std::fflush(stderr);
  std::abort();
}

namespace {

bool engine_started = false;

void StopEngineAtExit() {
  if (engine_started) zar::testing::StopEngine();
}

}  // namespace

void StartEngineOnce() {
  if (engine_started) return;
  static zend_module_entry* const modules[] = {&zar_async_module_entry,
                                               &pdo_module_entry};
  if (zar::testing::StartEngine({modules[0], modules[1]}) != SUCCESS) {
    Fail("engine", "a module's MINIT failed");
  }
  engine_started = true;
  std::atexit(StopEngineAtExit);
}

void RunInRequest(const char* target, const std::function<void()>& body) {
  StartEngineOnce();
  if (zar::testing::StartRequest() != SUCCESS) {
    Fail(target, "the request did not start (a module's RINIT failed)");
  }
  std::string uncaught;
  const bool completed = zar::testing::RunMain([&] {
    body();
    uncaught = TakeException();
  });
  const php_mock_request_report report = zar::testing::EndRequest();
  if (!uncaught.empty()) {
    Fail(target, "the script left an exception uncaught: " + uncaught);
  }
  if (!completed || report.bailed_out) {
    std::string log;
    for (const std::string& error : zar::testing::ErrorLog()) {
      log += "\n  " + error;
    }
    Fail(target, "the request bailed out; the engine's error log:" + log);
  }
  // The log grows with every input otherwise.
  zend_mock_errors_clear();
  const std::string leaks = zar::testing::RequestLeaks(report);
  if (!leaks.empty()) Fail(target, "the request leaked: " + leaks);
}

std::string TakeException() { return zar::testing::TakeExceptionText(); }

}  // namespace zar::fuzz
