/*
 * zend-async-ref: tracing. Not part of the upstream ABI.
 *
 * One readable line per semantic event (a spawn, a switch, a pool
 * hand-off, a PDO pin, ...), written to a sink:
 *
 *   [trace] <actor> <event> <arguments>
 *   [trace] #3 pool acquire Pool#1 -> wait (idle=0 active=1 reserved=0
 *           waiters=1)
 *
 * <actor> names the coroutine running when the event happens: "main" (the
 * main flow, before and after the scheduler runs too), "scheduler" (the
 * scheduler's own fiber) or "#<object handle>". docs/tracing.md lists every
 * event, its arguments and the layer that emits it; the format is stable
 * (tests compare whole traces with golden files). Lines carry no addresses
 * and no times, so equal programs give equal traces.
 *
 * Enabling: ZEND_ASYNC_REF_TRACE in the environment, read by
 * zend_async_ref_trace_configure_from_env() (the reference extension calls
 * it in its MINIT): "1" or "stderr" -> stderr, "stdout" -> stdout, "0" or
 * empty -> off, anything else is a file name opened for appending. At run
 * time: zend_async_ref_trace_to_stream() or _to_callback(), and
 * zend_async_ref_trace_disable().
 *
 * Stopping a debugger: ZEND_ASYNC_REF_TRACE_BREAK, read with
 * ZEND_ASYNC_REF_TRACE, is a line number N (the tracer calls
 * zend_async_ref_trace_break() after the N-th line) or a text (after every
 * line containing it); `break zend_async_ref_trace_break` in gdb then stops
 * right after that event.
 *
 * Cost when off: each site tests ZEND_ASYNC_REF_TRACING(), one load of a
 * global bool and a branch predicted not taken. Use ZEND_ASYNC_REF_TRACE()
 * (or test ZEND_ASYNC_REF_TRACING() first), so that the arguments are only
 * evaluated, and the line only formatted, when tracing is on.
 *
 * Threading: the request's thread (like the rest of the ABI); the sink is
 * process-wide.
 */
#ifndef ZEND_ASYNC_REF_TRACE_H
#define ZEND_ASYNC_REF_TRACE_H

#include <stdio.h>

#include "Zend/zend_async_API.h"

BEGIN_EXTERN_C()

/* True while a sink is installed. Read it through ZEND_ASYNC_REF_TRACING();
 * change it only through the functions below. */
extern ZEND_API bool zend_async_ref_trace_on;

#define ZEND_ASYNC_REF_TRACING() UNEXPECTED(zend_async_ref_trace_on)

/* Emits one line when tracing is on; the arguments are not evaluated
 * otherwise. */
#define ZEND_ASYNC_REF_TRACE(...)                                    \
  do {                                                               \
    if (ZEND_ASYNC_REF_TRACING()) zend_async_ref_trace(__VA_ARGS__); \
  } while (0)

/* Receives each line, without its newline; `line` is valid for the call
 * only. */
typedef void (*zend_async_ref_trace_sink_t)(const char *line, size_t length,
                                            void *arg);

/* Traces to `stream` (not closed by the tracer; flushed after each line). */
ZEND_API void zend_async_ref_trace_to_stream(FILE *stream);
/* Traces to `sink`, called with `arg`. */
ZEND_API void zend_async_ref_trace_to_callback(zend_async_ref_trace_sink_t sink,
                                               void *arg);
/* Stops tracing (closes the file ZEND_ASYNC_REF_TRACE opened, if any). */
ZEND_API void zend_async_ref_trace_disable(void);
/* ---- Stopping a debugger at a trace event ----------------------------------
 */

/* The number of the last line emitted (1 for the first line since the sink
 * was installed): the line's line number in a trace file that this sink
 * began. */
extern ZEND_API uint64_t zend_async_ref_trace_line_number;

/* Makes the tracer call zend_async_ref_trace_break() just after it emits
 * line `number` (0: never). */
ZEND_API void zend_async_ref_trace_break_at(uint64_t number);
/* Makes the tracer call zend_async_ref_trace_break() after each line that
 * contains `text` (copied; NULL or "": never). */
ZEND_API void zend_async_ref_trace_break_on(const char *text);
/* Does nothing, and is never inlined: the place for a debugger's breakpoint
 * (`break zend_async_ref_trace_break`), reached with the line just emitted
 * (without "[trace] ") and its number. Counts its calls in
 * zend_async_ref_trace_breaks. */
ZEND_API zend_never_inline void zend_async_ref_trace_break(const char *line,
                                                           uint64_t number);
extern ZEND_API uint64_t zend_async_ref_trace_breaks;

/* Applies ZEND_ASYNC_REF_TRACE (see above) when it is set; an unset variable
 * leaves the current setting. Returns whether tracing is on. A file that
 * cannot be opened is reported with E_CORE_WARNING and leaves tracing off. */
ZEND_API bool zend_async_ref_trace_configure_from_env(void);

/* Formats "[trace] <actor> " + format and hands it to the sink. The actor
 * is the current coroutine (zend_async_ref_trace_actor). No-op when off.
 * Lines longer than 1 KiB are cut. */
ZEND_API ZEND_COLD void zend_async_ref_trace(const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 1, 2);
/* The same with an explicit actor (a switch is told by the coroutine that
 * leaves, even when the code runs on behalf of the scheduler). */
ZEND_API ZEND_COLD void zend_async_ref_trace_as(const char *actor,
                                                const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);

/* ---- Names (also used by strict mode's diagnostics) ---------------------- */

/* Room for any name below. */
#define ZEND_ASYNC_REF_NAME_SIZE 48

/* "main" (F_MAIN), "scheduler" (ZEND_ASYNC_SCHEDULER), "#<handle>" (a
 * coroutine object), "#?" (a coroutine that is not an object), "none"
 * (NULL). Returns `buf`. */
ZEND_API const char *zend_async_ref_coroutine_name(
    const zend_coroutine_t *coroutine, char buf[ZEND_ASYNC_REF_NAME_SIZE]);
/* The actor of a line: the current coroutine's name, "main" when none runs
 * (the main flow before the launch and after the scheduler ended). */
ZEND_API const char *zend_async_ref_trace_actor(
    char buf[ZEND_ASYNC_REF_NAME_SIZE]);

/* A short rendering of a value: int(42), float(1.5), bool(true), null,
 * string(3) "abc" (cut after 24 bytes), array(2), object(Foo)#3, and
 * ptr(0x...) or, without `with_address`, ptr. Returns `buf`. */
ZEND_API const char *zend_async_ref_describe_zval(const zval *value,
                                                  bool with_address, char *buf,
                                                  size_t size);
/* `Class "message"` of an exception (NULL: "none"). Returns `buf`. */
ZEND_API const char *zend_async_ref_describe_exception(zend_object *exception,
                                                       char *buf, size_t size);

END_EXTERN_C()

#endif /* ZEND_ASYNC_REF_TRACE_H */
