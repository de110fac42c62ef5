// zend-async-ref: mock PHP. Socket helpers (main/php_network.h).

#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <type_traits>

#include "engine_internal.h"

extern "C" {
#include "main/php_network.h"
}

namespace {

// strerror_r has a GNU and an XSI form; both are handled.
const char* Describe(int err, char* buf, size_t size) {
  const auto result = strerror_r(err, buf, size);
  if constexpr (std::is_same_v<decltype(result), const char* const> ||
                std::is_same_v<decltype(result), char* const>) {
    return result;
  } else {
    return result == 0 ? buf : "Unknown error";
  }
}

}  // namespace

extern "C" {

char* php_socket_strerror(long err, char* buf, size_t bufsize) {
  char scratch[256];
  const char* message =
      Describe(static_cast<int>(err), scratch, sizeof(scratch));
  if (buf == nullptr) return estrdup(message);
  if (bufsize == 0) return buf;
  const size_t len = strnlen(message, bufsize - 1);
  memcpy(buf, message, len);
  buf[len] = '\0';
  return buf;
}

zend_string* php_socket_error_str(long err) {
  char scratch[256];
  const char* message =
      Describe(static_cast<int>(err), scratch, sizeof(scratch));
  return zend_string_init(message, strlen(message), false);
}

zend_result php_set_sock_blocking(php_socket_t socketd, bool block) {
  const int flags = fcntl(socketd, F_GETFL);
  if (flags == -1) return FAILURE;
  const int wanted = block ? (flags & ~O_NONBLOCK) : (flags | O_NONBLOCK);
  if (wanted != flags && fcntl(socketd, F_SETFL, wanted) == -1) {
    return FAILURE;
  }
  return SUCCESS;
}

}  // extern "C"
