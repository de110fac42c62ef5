// The corpus replay driver: a plain main (no libFuzzer) that feeds every
// file it is given, or finds under a directory it is given, to the
// target's LLVMFuzzerTestOneInput, in name order, once each.
//
//   zar_fuzz_replay_dsn tools/fuzz/corpus/dsn [more files or folders]
//
// Linked with each target in every build (GCC too), it runs the committed
// corpus as a ctest regression test (label fuzz-replay). A violated check
// aborts inside the target, naming itself and the input that was running.
// Exit status 0 when every input ran; 1 when an argument cannot be read
// or no input was found (an empty corpus would test nothing).

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include "tools/fuzz/fuzz_support.h"

namespace {

namespace fs = std::filesystem;

bool Collect(const fs::path& path, std::vector<fs::path>* inputs) {
  std::error_code error;
  if (fs::is_directory(path, error)) {
    std::vector<fs::path> found;
    for (const fs::directory_entry& entry :
         fs::recursive_directory_iterator(path, error)) {
      if (entry.is_regular_file()) found.push_back(entry.path());
    }
    if (error) return false;
    std::sort(found.begin(), found.end());
    inputs->insert(inputs->end(), found.begin(), found.end());
    return true;
  }
  if (!fs::is_regular_file(path, error)) return false;
  inputs->push_back(path);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; i++) {
    if (!Collect(argv[i], &inputs)) {
      std::fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[i]);
      return 1;
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr,
                 "usage: %s CORPUS_DIR_OR_FILE...\n  (no input found)\n",
                 argv[0]);
    return 1;
  }
  for (const fs::path& input : inputs) {
    std::ifstream file(input, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(file)),
                                  std::istreambuf_iterator<char>());
    if (!file.good() && !file.eof()) {
      std::fprintf(stderr, "%s: cannot read %s\n", argv[0], input.c_str());
      return 1;
    }
    // Named before it runs: a failed check aborts inside the target.
    std::fprintf(stderr, "replaying %s\n", input.c_str());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()),
                           bytes.size());
  }
  std::printf("%zu inputs replayed without a failure\n", inputs.size());
  return 0;
}
