// zend-async-ref: mock PHP. Streams over stdio (main/php_streams.h).
//
// Every stream wraps a FILE* (the `abstract` state) and is emalloc'd, like
// PHP's non-persistent streams. Its resource is made at open, with one
// reference that belongs to the stream until php_stream_to_zval hands it
// to a zval (the stream is then "exposed").

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "engine_internal.h"

extern "C" {
#include "main/php_streams.h"
}

namespace {

FILE* FileOf(php_stream* stream) {
  return static_cast<FILE*>(stream->abstract);
}

ssize_t StdioWrite(php_stream* stream, const char* buf, size_t count) {
  const size_t written = fwrite(buf, 1, count, FileOf(stream));
  return written == 0 && count > 0 ? -1 : static_cast<ssize_t>(written);
}

ssize_t StdioRead(php_stream* stream, char* buf, size_t count) {
  const size_t got = fread(buf, 1, count, FileOf(stream));
  if (got < count && feof(FileOf(stream))) stream->eof = 1;
  return got == 0 && ferror(FileOf(stream)) ? -1 : static_cast<ssize_t>(got);
}

int StdioClose(php_stream* stream, int close_handle) {
  (void)close_handle;
  return fclose(FileOf(stream)) == 0 ? 0 : EOF;
}

int StdioFlush(php_stream* stream) { return fflush(FileOf(stream)); }

int StdioCast(php_stream* stream, int castas, void** ret) {
  switch (castas & ~PHP_STREAM_CAST_MASK) {
    case PHP_STREAM_AS_STDIO:
      if (ret != nullptr) *ret = FileOf(stream);
      return SUCCESS;
    case PHP_STREAM_AS_FD:
    case PHP_STREAM_AS_SOCKETD:
    case PHP_STREAM_AS_FD_FOR_SELECT:
      fflush(FileOf(stream));
      if (ret != nullptr) *reinterpret_cast<int*>(ret) = fileno(FileOf(stream));
      return SUCCESS;
    default:
      return FAILURE;
  }
}

const php_stream_ops kStdioOps = {
    StdioWrite, StdioRead, StdioClose, StdioFlush, "STDIO",
    nullptr,    StdioCast, nullptr,    nullptr,
};

// The resource destructor: the last reference to an exposed stream went.
void StreamResourceDtor(zend_resource* res) {
  auto* stream = static_cast<php_stream*>(res->ptr);
  if (stream != nullptr) {
    _php_stream_free(stream, PHP_STREAM_FREE_CLOSE | PHP_STREAM_FREE_RSRC_DTOR);
  }
}

// fopen(3) of `path`, or of a duplicate of 0/1/2 for php://std*.
FILE* OpenFile(const char* path, const char* mode) {
  int std_fd = -1;
  if (strcasecmp(path, "php://stdin") == 0) std_fd = STDIN_FILENO;
  if (strcasecmp(path, "php://stdout") == 0) std_fd = STDOUT_FILENO;
  if (strcasecmp(path, "php://stderr") == 0) std_fd = STDERR_FILENO;
  if (std_fd != -1) {
    const int fd = fcntl(std_fd, F_DUPFD_CLOEXEC, 0);
    if (fd == -1) return nullptr;
    FILE* fp = fdopen(fd, mode);
    if (fp == nullptr) close(fd);
    return fp;
  }
  if (strncasecmp(path, "file://", 7) == 0) path += 7;
  if (strstr(path, "://") != nullptr) {
    errno = EPROTONOSUPPORT;  // no such wrapper in the mock
    return nullptr;
  }
  return fopen(path, mode);
}

}  // namespace

extern "C" {

int php_file_le_stream(void) {
  static const int type = zend_register_list_destructors_ex(
      StreamResourceDtor, nullptr, "stream", 0);
  return type;
}

int php_file_le_pstream(void) { return php_file_le_stream(); }

php_stream* _php_stream_open_wrapper_ex(
    const char* path, const char* mode, int options, zend_string** opened_path,
    php_stream_context* context STREAMS_DC) {
  (void)context;
  (void)__zend_filename;
  (void)__zend_lineno;
  if (opened_path != nullptr) *opened_path = nullptr;
  FILE* fp =
      path != nullptr && mode != nullptr ? OpenFile(path, mode) : nullptr;
  if (fp == nullptr) {
    if (options & REPORT_ERRORS) {
      php_error_docref(nullptr, E_WARNING, "Failed to open stream: %s",
                       path == nullptr || mode == nullptr ? "Invalid argument"
                                                          : strerror(errno));
    }
    return nullptr;
  }
  auto* stream = static_cast<php_stream*>(ecalloc(1, sizeof(php_stream)));
  stream->ops = &kStdioOps;
  stream->abstract = fp;
  snprintf(stream->mode, sizeof(stream->mode), "%s", mode);
  stream->orig_path = estrdup(path);
  stream->res = zend_register_resource(stream, php_file_le_stream());
  if (opened_path != nullptr) {
    *opened_path = zend_string_init(path, strlen(path), false);
  }
  return stream;
}

php_stream* _php_stream_xport_create(const char* name, size_t namelen,
                                     int options, int flags,
                                     const char* persistent_id,
                                     struct timeval* timeout,
                                     php_stream_context* context,
                                     zend_string** error_string,
                                     int* error_code STREAMS_DC) {
  (void)name;
  (void)namelen;
  (void)options;
  (void)flags;
  (void)persistent_id;
  (void)timeout;
  (void)context;
  (void)__zend_filename;
  (void)__zend_lineno;
  static const char kMessage[] =
      "socket transports are not supported by the mock engine";
  if (error_string != nullptr) {
    *error_string = zend_string_init(kMessage, sizeof(kMessage) - 1, false);
  }
  if (error_code != nullptr) *error_code = 0;
  zend_error(E_CORE_ERROR, "php_stream_xport_create(): %s", kMessage);
  return nullptr;
}

int _php_stream_free(php_stream* stream, int close_options) {
  if (stream == nullptr) return 0;
  zend_resource* res = stream->res;
  stream->res = nullptr;
  if (res != nullptr && !(close_options & PHP_STREAM_FREE_RSRC_DTOR)) {
    // Closed explicitly: the resource is detached (and closed). An exposed
    // resource lives on until its holders release it; otherwise the
    // stream held its only reference.
    res->ptr = nullptr;
    res->type = -1;
    if (!stream->__exposed) zend_list_delete(res);
  }
  const int rc = stream->ops->close(stream, 1);
  efree(stream->orig_path);
  efree(stream);
  return rc;
}

ssize_t _php_stream_write(php_stream* stream, const char* buf, size_t count) {
  if (count == 0) return 0;
  return stream->ops->write(stream, buf, count);
}

ssize_t _php_stream_read(php_stream* stream, char* buf, size_t count) {
  return stream->ops->read(stream, buf, count);
}

int _php_stream_flush(php_stream* stream, int closing) {
  (void)closing;
  return stream->ops->flush != nullptr ? stream->ops->flush(stream) : 0;
}

bool _php_stream_eof(php_stream* stream) { return stream->eof != 0; }

zend_result _php_stream_cast(php_stream* stream, int castas, void** ret,
                             int show_err) {
  if (stream->ops->cast != nullptr &&
      stream->ops->cast(stream, castas, ret) == SUCCESS) {
    return SUCCESS;
  }
  if (show_err) {
    php_error_docref(nullptr, E_WARNING,
                     "Cannot represent a stream of type %s as the requested "
                     "type",
                     stream->ops->label);
  }
  return FAILURE;
}

}  // extern "C"
