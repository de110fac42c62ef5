// zend-async-ref: mock PHP. Temporary files
// (main/php_open_temporary_file.h), with mkstemp(3).

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

#include "engine_internal.h"

extern "C" {
#include "main/php_open_temporary_file.h"
}

namespace {

// mkstemp in `dir`; -1 on failure.
int OpenIn(const std::string& dir, const char* pfx,
           zend_string** opened_path_p) {
  if (dir.empty()) return -1;
  std::string path = dir;
  if (path.back() != '/') path += '/';
  path += (pfx != nullptr ? pfx : "");
  path += "XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd == -1) return -1;
  if (opened_path_p != nullptr) {
    *opened_path_p = zend_string_init(path.data(), path.size(), false);
  }
  return fd;
}

}  // namespace

extern "C" {

const char* php_get_temporary_directory(void) {
  static const std::string* dir = [] {
    const char* env = getenv("TMPDIR");
    std::string value = env != nullptr && *env != '\0' ? env : "/tmp";
    while (value.size() > 1 && value.back() == '/') value.pop_back();
    return new std::string(value);
  }();
  return dir->c_str();
}

int php_open_temporary_fd_ex(const char* dir, const char* pfx,
                             zend_string** opened_path_p, uint32_t flags) {
  (void)flags;  // no open_basedir in the mock
  if (opened_path_p != nullptr) *opened_path_p = nullptr;
  if (dir != nullptr && *dir != '\0') {
    const int fd = OpenIn(dir, pfx, opened_path_p);
    if (fd != -1) return fd;
  }
  return OpenIn(php_get_temporary_directory(), pfx, opened_path_p);
}

int php_open_temporary_fd(const char* dir, const char* pfx,
                          zend_string** opened_path_p) {
  return php_open_temporary_fd_ex(dir, pfx, opened_path_p,
                                  PHP_TMP_FILE_DEFAULT);
}

FILE* php_open_temporary_file(const char* dir, const char* pfx,
                              zend_string** opened_path_p) {
  const int fd = php_open_temporary_fd(dir, pfx, opened_path_p);
  if (fd == -1) return nullptr;
  FILE* fp = fdopen(fd, "r+b");
  if (fp == nullptr) {
    const int saved = errno;
    close(fd);
    if (opened_path_p != nullptr && *opened_path_p != nullptr) {
      unlink(ZSTR_VAL(*opened_path_p));
      zend_string_release(*opened_path_p);
      *opened_path_p = nullptr;
    }
    errno = saved;
  }
  return fp;
}

}  // extern "C"
