// zend-async-ref fuzzing: what the fuzz targets share (docs/fuzzing.md).
//
// Every target defines libFuzzer's entry point, LLVMFuzzerTestOneInput,
// and is linked twice: with libFuzzer (-fsanitize=fuzzer, Clang, behind
// ZAR_FUZZ) to search for inputs, and with replay_main.cc (any compiler,
// every build) to run the committed corpus as a regression test.
//
//   zar::fuzz::Input in(data, size);
//   zar::fuzz::RunInRequest("fuzz_dsn", [&] { ... in.Byte() ... });
//   ZAR_FUZZ_CHECK(count == idle + active, "count %ld != ...", count);
//
// A violated check or a leaked request aborts the process with
// "zend-async-ref fuzz <target>: <what>" on stderr, which libFuzzer (and
// the replay driver, through the abort) reports as a crash with its input.
//
// Threading: the engine's thread; one input at a time.

#ifndef ZAR_TOOLS_FUZZ_FUZZ_SUPPORT_H_
#define ZAR_TOOLS_FUZZ_FUZZ_SUPPORT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace zar::fuzz {

// Reads an input front to back; past its end every read gives zeros (or
// an empty string), so any input is a valid program.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool empty() const { return pos_ >= size_; }
  size_t remaining() const { return empty() ? 0 : size_ - pos_; }
  uint8_t Byte() { return empty() ? 0 : data_[pos_++]; }
  // A number in [0, bound) from one byte; 0 when bound is 0.
  uint32_t Below(uint32_t bound) { return bound == 0 ? 0 : Byte() % bound; }
  // The bytes up to `delimiter` (consumed, not included) or the end.
  std::string_view Until(char delimiter);
  // Everything not read yet.
  std::string_view Rest();

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// Aborts the process: "zend-async-ref fuzz <target>: <message>".
[[noreturn]] void Fail(const char* target, const std::string& message);

// Starts the engine, with the async extension and PDO, the first time it
// is called; it stays up until the process exits.
void StartEngineOnce();

// Runs `body` as the main script of one request (the scheduler runs until
// every coroutine has finished) and ends the request. Fails when the
// request could not start, bailed out, left an exception uncaught, or
// leaked an emalloc block or an object. Strict mode is as the caller set
// it.
void RunInRequest(const char* target, const std::function<void()>& body);

// The exception in flight as "Class: message", taken (cleared); "" when
// none.
std::string TakeException();

}  // namespace zar::fuzz

// Aborts with the message (printf format) unless `cond` holds. Each target
// defines kTarget, its name.
#define ZAR_FUZZ_CHECK(cond, ...)                                       \
  do {                                                                  \
    if (!(cond)) {                                                      \
      ::zar::fuzz::Fail(kTarget, "check failed: " #cond ": " +          \
                                     ::zar::fuzz::Format(__VA_ARGS__)); \
    }                                                                   \
  } while (0)

namespace zar::fuzz {
// printf into a std::string.
std::string Format(const char* format, ...)
    __attribute__((format(printf, 1, 2)));
}  // namespace zar::fuzz

#endif  // ZAR_TOOLS_FUZZ_FUZZ_SUPPORT_H_
