/*
 * zend-async-ref: tracing (zend_async_ref/trace.h).
 *
 * The sink is one of: a stream (stderr, stdout, or a file this file opened
 * from ZEND_ASYNC_REF_TRACE and closes when tracing stops), or a callback.
 * zend_async_ref_trace_on mirrors "a sink is installed", so that the sites
 * test one bool.
 */
#include "zend_async_ref/trace.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "zend_exceptions.h"

ZEND_API bool zend_async_ref_trace_on = false;
ZEND_API uint64_t zend_async_ref_trace_line_number = 0;
ZEND_API uint64_t zend_async_ref_trace_breaks = 0;

/* The longest line (longer ones are cut). */
#define TRACE_LINE_SIZE 1024

static struct {
  FILE *stream;     /* the stream sink, or NULL */
  bool owns_stream; /* opened from the environment: closed on disable */
  zend_async_ref_trace_sink_t sink; /* the callback sink, or NULL */
  void *sink_arg;
} trace_sink;

/* Where zend_async_ref_trace_break() is called: after line `at`, and after
 * every line containing `text` (malloc'd; the process's, as the sink). */
static struct {
  uint64_t at;
  char *text;
} trace_break;

/* ===================================================================== */
/* Sinks                                                                  */
/* ===================================================================== */

static void close_owned_stream(void) {
  if (trace_sink.owns_stream && trace_sink.stream != NULL) {
    fclose(trace_sink.stream);
  }
  trace_sink.stream = NULL;
  trace_sink.owns_stream = false;
}

ZEND_API void zend_async_ref_trace_to_stream(FILE *stream) {
  if (stream == trace_sink.stream && stream != NULL) {
    zend_async_ref_trace_on = true;
    return;
  }
  close_owned_stream();
  trace_sink.sink = NULL;
  trace_sink.sink_arg = NULL;
  trace_sink.stream = stream;
  zend_async_ref_trace_line_number = 0;
  zend_async_ref_trace_on = stream != NULL;
}

ZEND_API void zend_async_ref_trace_to_callback(zend_async_ref_trace_sink_t sink,
                                               void *arg) {
  close_owned_stream();
  trace_sink.sink = sink;
  trace_sink.sink_arg = arg;
  zend_async_ref_trace_line_number = 0;
  zend_async_ref_trace_on = sink != NULL;
}

ZEND_API void zend_async_ref_trace_disable(void) {
  zend_async_ref_trace_on = false;
  close_owned_stream();
  trace_sink.sink = NULL;
  trace_sink.sink_arg = NULL;
}

ZEND_API void zend_async_ref_trace_break_at(uint64_t number) {
  trace_break.at = number;
}

ZEND_API void zend_async_ref_trace_break_on(const char *text) {
  free(trace_break.text);
  trace_break.text = NULL;
  if (text == NULL || text[0] == '\0') return;
  const size_t size = strlen(text) + 1;
  trace_break.text = malloc(size);
  if (trace_break.text != NULL) memcpy(trace_break.text, text, size);
}

ZEND_API zend_never_inline void zend_async_ref_trace_break(const char *line,
                                                           uint64_t number) {
  (void)line;
  (void)number;
  zend_async_ref_trace_breaks++;
  __asm__ volatile("" ::: "memory"); /* a call a debugger can stop in */
}

/* ZEND_ASYNC_REF_TRACE_BREAK: all digits is a line number, anything else a
 * text. Unset leaves the current setting; empty clears both. */
static void configure_break_from_env(void) {
  const char *value = getenv("ZEND_ASYNC_REF_TRACE_BREAK");
  if (value == NULL) return;
  zend_async_ref_trace_break_at(0);
  zend_async_ref_trace_break_on(NULL);
  if (value[0] == '\0') return;
  if (strspn(value, "0123456789") == strlen(value)) {
    zend_async_ref_trace_break_at(strtoull(value, NULL, 10));
  } else {
    zend_async_ref_trace_break_on(value);
  }
}

ZEND_API bool zend_async_ref_trace_configure_from_env(void) {
  configure_break_from_env();
  const char *value = getenv("ZEND_ASYNC_REF_TRACE");
  if (value == NULL) return zend_async_ref_trace_on;
  if (value[0] == '\0' || strcmp(value, "0") == 0) {
    zend_async_ref_trace_disable();
  } else if (strcmp(value, "1") == 0 || strcmp(value, "stderr") == 0) {
    zend_async_ref_trace_to_stream(stderr);
  } else if (strcmp(value, "stdout") == 0) {
    zend_async_ref_trace_to_stream(stdout);
  } else if (!trace_sink.owns_stream) {
    /* A file: opened once per process (module startups repeat in tests). */
    FILE *file = fopen(value, "a");
    if (file == NULL) {
      zend_error(E_CORE_WARNING,
                 "zend-async-ref: cannot open the trace file \"%s\"", value);
      zend_async_ref_trace_disable();
      return false;
    }
    zend_async_ref_trace_to_stream(file);
    trace_sink.owns_stream = true;
  }
  return zend_async_ref_trace_on;
}

/* ===================================================================== */
/* Lines                                                                  */
/* ===================================================================== */

static void emit_line(const char *actor, const char *format, va_list args) {
  if (!zend_async_ref_trace_on) return;
  char line[TRACE_LINE_SIZE];
  int prefix = snprintf(line, sizeof(line), "[trace] %s ", actor);
  if (prefix < 0) return;
  if ((size_t)prefix >= sizeof(line)) prefix = (int)sizeof(line) - 1;
  const int body =
      vsnprintf(line + prefix, sizeof(line) - (size_t)prefix, format, args);
  size_t length = (size_t)prefix + (body > 0 ? (size_t)body : 0);
  if (length >= sizeof(line)) length = sizeof(line) - 1;

  if (trace_sink.sink != NULL) {
    trace_sink.sink(line, length, trace_sink.sink_arg);
  } else if (trace_sink.stream != NULL) {
    fwrite(line, 1, length, trace_sink.stream);
    fputc('\n', trace_sink.stream);
    fflush(trace_sink.stream);
  }
  const uint64_t number = ++zend_async_ref_trace_line_number;
  const char *event = line + sizeof("[trace] ") - 1;
  if (number == trace_break.at ||
      (trace_break.text != NULL && strstr(event, trace_break.text) != NULL)) {
    zend_async_ref_trace_break(event, number);
  }
}

ZEND_API void zend_async_ref_trace(const char *format, ...) {
  char actor[ZEND_ASYNC_REF_NAME_SIZE];
  va_list args;
  va_start(args, format);
  emit_line(zend_async_ref_trace_actor(actor), format, args);
  va_end(args);
}

ZEND_API void zend_async_ref_trace_as(const char *actor, const char *format,
                                      ...) {
  va_list args;
  va_start(args, format);
  emit_line(actor, format, args);
  va_end(args);
}

/* ===================================================================== */
/* Names                                                                  */
/* ===================================================================== */

ZEND_API const char *zend_async_ref_coroutine_name(
    const zend_coroutine_t *coroutine, char buf[ZEND_ASYNC_REF_NAME_SIZE]) {
  if (coroutine == NULL) {
    snprintf(buf, ZEND_ASYNC_REF_NAME_SIZE, "none");
  } else if (coroutine == ZEND_ASYNC_SCHEDULER) {
    snprintf(buf, ZEND_ASYNC_REF_NAME_SIZE, "scheduler");
  } else if (ZEND_COROUTINE_IS_MAIN(coroutine)) {
    snprintf(buf, ZEND_ASYNC_REF_NAME_SIZE, "main");
  } else if (ZEND_ASYNC_EVENT_IS_ZEND_OBJ(&coroutine->event)) {
    const zend_object *object = ZEND_ASYNC_EVENT_TO_OBJECT(&coroutine->event);
    snprintf(buf, ZEND_ASYNC_REF_NAME_SIZE, "#%" PRIu32, object->handle);
  } else {
    snprintf(buf, ZEND_ASYNC_REF_NAME_SIZE, "#?");
  }
  return buf;
}

ZEND_API const char *zend_async_ref_trace_actor(
    char buf[ZEND_ASYNC_REF_NAME_SIZE]) {
  const zend_coroutine_t *current = ZEND_ASYNC_CURRENT_COROUTINE;
  if (current == NULL) {
    snprintf(buf, ZEND_ASYNC_REF_NAME_SIZE, "main");
    return buf;
  }
  return zend_async_ref_coroutine_name(current, buf);
}

ZEND_API const char *zend_async_ref_describe_zval(const zval *value,
                                                  bool with_address, char *buf,
                                                  size_t size) {
  if (value == NULL) {
    snprintf(buf, size, "none");
    return buf;
  }
  switch (Z_TYPE_P(value)) {
    case IS_UNDEF:
      snprintf(buf, size, "undef");
      break;
    case IS_NULL:
      snprintf(buf, size, "null");
      break;
    case IS_FALSE:
      snprintf(buf, size, "bool(false)");
      break;
    case IS_TRUE:
      snprintf(buf, size, "bool(true)");
      break;
    case IS_LONG:
      snprintf(buf, size, "int(" ZEND_LONG_FMT ")", Z_LVAL_P(value));
      break;
    case IS_DOUBLE:
      snprintf(buf, size, "float(%.17g)", Z_DVAL_P(value));
      break;
    case IS_STRING: {
      const zend_string *string = Z_STR_P(value);
      const int shown = ZSTR_LEN(string) > 24 ? 24 : (int)ZSTR_LEN(string);
      snprintf(buf, size, "string(%zu) \"%.*s%s\"", ZSTR_LEN(string), shown,
               ZSTR_VAL(string), ZSTR_LEN(string) > 24 ? "..." : "");
      break;
    }
    case IS_ARRAY:
      snprintf(buf, size, "array(%" PRIu32 ")",
               zend_hash_num_elements(Z_ARRVAL_P(value)));
      break;
    case IS_OBJECT:
      snprintf(buf, size, "object(%s)#%" PRIu32,
               ZSTR_VAL(Z_OBJCE_P(value)->name), Z_OBJ_P(value)->handle);
      break;
    case IS_PTR:
      if (with_address) {
        snprintf(buf, size, "ptr(%p)", Z_PTR_P(value));
      } else {
        snprintf(buf, size, "ptr");
      }
      break;
    default:
      snprintf(buf, size, "type(%u)", (unsigned)Z_TYPE_P(value));
      break;
  }
  return buf;
}

ZEND_API const char *zend_async_ref_describe_exception(zend_object *exception,
                                                       char *buf, size_t size) {
  if (exception == NULL) {
    snprintf(buf, size, "none");
    return buf;
  }
  zval rv;
  ZVAL_UNDEF(&rv);
  const zval *message =
      zend_read_property(zend_get_exception_base(exception), exception,
                         "message", sizeof("message") - 1, true, &rv);
  if (message != NULL && Z_TYPE_P(message) == IS_STRING) {
    snprintf(buf, size, "%s \"%s\"", ZSTR_VAL(exception->ce->name),
             Z_STRVAL_P(message));
  } else {
    snprintf(buf, size, "%s", ZSTR_VAL(exception->ce->name));
  }
  return buf;
}
