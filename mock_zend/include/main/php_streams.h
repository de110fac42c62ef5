/*
 * zend-async-ref: mock PHP.
 *
 * Streams, as PHP's main/php_streams.h, for local files and php://stdin,
 * php://stdout, php://stderr (a duplicate of descriptor 0, 1 or 2):
 * opening, reading, writing, flushing, closing, casting to a descriptor or
 * FILE*, and passing a stream to PHP code as a resource.
 *
 * A stream is owned by its resource: php_stream_to_zval hands that
 * reference to the zval (as PHP does), and the stream is closed when the
 * last reference goes; php_stream_close closes it at once (the resource
 * then stays, closed, until its references go). A stream never exposed
 * with php_stream_to_zval is closed with php_stream_close.
 *
 * Not provided: socket transports (php_stream_xport_create reports
 * E_CORE_ERROR naming itself, sets *error_string and returns NULL), other
 * wrappers (opening "scheme://..." other than file:// and the three above
 * fails as for a missing file), filters, contexts (accepted and ignored).
 *
 * Failure: an open that fails returns NULL; with REPORT_ERRORS in `options`
 * it also warns "Failed to open stream: <reason>" as PHP does.
 */
#ifndef PHP_STREAMS_H
#define PHP_STREAMS_H

#include <stdio.h>
#include <sys/time.h>
#include <sys/types.h>

#include "php.h"
#include "zend_list.h"

BEGIN_EXTERN_C()

typedef struct _php_stream php_stream;
typedef struct _php_stream_wrapper php_stream_wrapper;
typedef struct _php_stream_context php_stream_context;
typedef struct _php_stream_filter php_stream_filter;

/* Allocation-site arguments of the stream API (ignored by the mock). */
#define STREAMS_D ZEND_FILE_LINE_D
#define STREAMS_C ZEND_FILE_LINE_C
#define STREAMS_DC ZEND_FILE_LINE_DC
#define STREAMS_CC ZEND_FILE_LINE_CC
#define STREAMS_REL_CC ZEND_FILE_LINE_RELAY_CC

/* The operations of a stream implementation. */
typedef struct _php_stream_ops {
  ssize_t (*write)(php_stream *stream, const char *buf, size_t count);
  ssize_t (*read)(php_stream *stream, char *buf, size_t count);
  int (*close)(php_stream *stream, int close_handle);
  int (*flush)(php_stream *stream);
  const char *label;
  int (*seek)(php_stream *stream, zend_off_t offset, int whence,
              zend_off_t *newoffset);
  int (*cast)(php_stream *stream, int castas, void **ret);
  int (*stat)(php_stream *stream, void *ssb);
  int (*set_option)(php_stream *stream, int option, int value, void *ptrparam);
} php_stream_ops;

struct _php_stream {
  const php_stream_ops *ops;
  void *abstract; /* the implementation's state */
  zend_resource *res;
  char mode[16];
  uint32_t flags;
  char *orig_path; /* emalloc'd copy of the opened path */
  uint16_t is_persistent : 1;
  uint16_t __exposed : 1; /* handed to PHP code (php_stream_to_zval) */
  uint16_t eof : 1;
};

/* open options */
#define IGNORE_PATH 0x00000000
#define USE_PATH 0x00000001
#define IGNORE_URL 0x00000002
#define REPORT_ERRORS 0x00000008
#define STREAM_MUST_SEEK 0x00000010
#define STREAM_WILL_CAST 0x00000020
#define STREAM_LOCATE_WRAPPERS_ONLY 0x00000040
#define STREAM_OPEN_FOR_INCLUDE 0x00000080
#define STREAM_USE_URL 0x00000100
#define STREAM_ONLY_GET_HEADERS 0x00000200
#define STREAM_DISABLE_OPEN_BASEDIR 0x00000400
#define STREAM_OPEN_FOR_ZEND_STREAM 0x00010000

/* cast targets and flags */
#define PHP_STREAM_AS_STDIO 0
#define PHP_STREAM_AS_FD 1
#define PHP_STREAM_AS_SOCKETD 2
#define PHP_STREAM_AS_FD_FOR_SELECT 3
#define PHP_STREAM_CAST_TRY_HARD 0x80000000
#define PHP_STREAM_CAST_RELEASE 0x40000000
#define PHP_STREAM_CAST_INTERNAL 0x20000000
#define PHP_STREAM_CAST_MASK                            \
  (PHP_STREAM_CAST_TRY_HARD | PHP_STREAM_CAST_RELEASE | \
   PHP_STREAM_CAST_INTERNAL)

/* transport flags */
#define STREAM_XPORT_CLIENT 0
#define STREAM_XPORT_SERVER 1
#define STREAM_XPORT_CONNECT 2
#define STREAM_XPORT_BIND 4
#define STREAM_XPORT_LISTEN 8
#define STREAM_XPORT_CONNECT_ASYNC 16

#define PHP_STREAM_FREE_CALL_DTOR 1
#define PHP_STREAM_FREE_RELEASE_STREAM 2
#define PHP_STREAM_FREE_PRESERVE_HANDLE 4
#define PHP_STREAM_FREE_RSRC_DTOR 8
#define PHP_STREAM_FREE_PERSISTENT 16
#define PHP_STREAM_FREE_IGNORE_ENCLOSING 32
#define PHP_STREAM_FREE_KEEP_RSRC 64
#define PHP_STREAM_FREE_CLOSE \
  (PHP_STREAM_FREE_CALL_DTOR | PHP_STREAM_FREE_RELEASE_STREAM)

/* The resource types of streams (persistent ones are the same type). */
PHPAPI int php_file_le_stream(void);
PHPAPI int php_file_le_pstream(void);

PHPAPI php_stream *_php_stream_open_wrapper_ex(
    const char *path, const char *mode, int options, zend_string **opened_path,
    php_stream_context *context STREAMS_DC);
#define php_stream_open_wrapper(path, mode, options, opened)       \
  _php_stream_open_wrapper_ex((path), (mode), (options), (opened), \
                              NULL STREAMS_CC)
#define php_stream_open_wrapper_ex(path, mode, options, opened, context) \
  _php_stream_open_wrapper_ex((path), (mode), (options), (opened),       \
                              (context)STREAMS_CC)

PHPAPI php_stream *_php_stream_xport_create(const char *name, size_t namelen,
                                            int options, int flags,
                                            const char *persistent_id,
                                            struct timeval *timeout,
                                            php_stream_context *context,
                                            zend_string **error_string,
                                            int *error_code STREAMS_DC);
#define php_stream_xport_create(name, namelen, options, flags, persistent_id, \
                                timeout, context, estr, ecode)                \
  _php_stream_xport_create(name, namelen, options, flags, persistent_id,      \
                           timeout, context, estr, ecode STREAMS_CC)

/* Closes and frees the stream (PHP_STREAM_FREE_* flags); 0 on success. */
PHPAPI int _php_stream_free(php_stream *stream, int close_options);
#define php_stream_free(stream, close_options) \
  _php_stream_free((stream), (close_options))
#define php_stream_close(stream) \
  _php_stream_free((stream), PHP_STREAM_FREE_CLOSE)

PHPAPI ssize_t _php_stream_write(php_stream *stream, const char *buf,
                                 size_t count);
PHPAPI ssize_t _php_stream_read(php_stream *stream, char *buf, size_t count);
PHPAPI int _php_stream_flush(php_stream *stream, int closing);
PHPAPI bool _php_stream_eof(php_stream *stream);
#define php_stream_write(stream, buf, count) \
  _php_stream_write((stream), (buf), (count))
#define php_stream_write_string(stream, str) \
  _php_stream_write((stream), (str), strlen(str))
#define php_stream_read(stream, buf, count) \
  _php_stream_read((stream), (buf), (count))
#define php_stream_flush(stream) _php_stream_flush((stream), 0)
#define php_stream_eof(stream) _php_stream_eof((stream))

/* Casts to a descriptor (PHP_STREAM_AS_FD, _SOCKETD, _FD_FOR_SELECT; *ret
 * is an int) or a FILE* (PHP_STREAM_AS_STDIO); the stream keeps owning it.
 * With ret NULL it only tells whether the cast is possible. */
PHPAPI zend_result _php_stream_cast(php_stream *stream, int castas, void **ret,
                                    int show_err);
#define php_stream_cast(stream, as, ret, show_err) \
  _php_stream_cast((stream), (as), (ret), (show_err))
#define php_stream_can_cast(stream, as) \
  _php_stream_cast((stream), (as), NULL, 0)

#define php_stream_to_zval(stream, zval) \
  {                                      \
    ZVAL_RES(zval, (stream)->res);       \
    (stream)->__exposed = 1;             \
  }
#define php_stream_from_zval_no_verify(xstr, pzval) \
  (xstr) = (php_stream *)zend_fetch_resource2_ex(   \
      (pzval), "stream", php_file_le_stream(), php_file_le_pstream())

END_EXTERN_C()

#endif /* PHP_STREAMS_H */
