/*
 * zend-async-ref: strict mode. Not part of the upstream ABI.
 *
 * In strict mode misuse of the ABI that is otherwise undefined behaviour
 * (or silently tolerated) is refused safely and reported with a diagnostic
 * naming the call and the object:
 *
 *   zend-async-ref strict: ZEND_ASYNC_POOL_RELEASE: Pool#1 Pool(idle=1,
 *       active=0, reserved=0, max=2): resource int(42) is released twice
 *
 * Each diagnostic is zend_error(ZEND_ASYNC_REF_STRICT_LEVEL, "zend-async-ref
 * strict: %s: %s", call, message): E_CORE_WARNING, so it never bails out and
 * reaches the engine's error log (and stderr, as PHP prints warnings). The
 * checks live where the objects are (core/, pdo_sim/); docs/strict_mode.md
 * lists them and what each costs.
 *
 * Enabling: ZEND_ASYNC_REF_STRICT=1 in the environment, read by
 * zend_async_ref_strict_configure_from_env() (the reference extension calls
 * it in its MINIT); or zend_async_ref_strict_enable() at run time. Some
 * checks depend on state kept from the start (a pool tracks what it lends
 * only if strict mode was on when it was created).
 *
 * Cost when off: each check site tests ZEND_ASYNC_REF_STRICT(), one load of
 * a global bool and a branch predicted not taken (or a test of a field the
 * object sets only in strict mode).
 *
 * The event quarantine. ZEND_ASYNC_EVENT_RELEASE is a header macro: a
 * release of an event already disposed cannot be caught where it happens.
 * In strict mode the reference implementation's events are not freed by
 * their dispose: zend_async_ref_strict_quarantine() keeps the memory, keeps
 * the header's flags (CLOSED added) and ref_count, empties its callbacks,
 * points its handlers at traps that report any later use, and poisons the
 * rest (with AddressSanitizer, also for ASan). Every later quarantine, and
 * the request's end, checks every entry: a ref_count that moved since the
 * dispose (a release below zero wraps it to UINT32_MAX) is reported with the
 * name captured at dispose. Entries are freed when they leave the bounded
 * quarantine (the oldest first) or at request end.
 *
 * Threading: the request's thread.
 */
#ifndef ZEND_ASYNC_REF_STRICT_H
#define ZEND_ASYNC_REF_STRICT_H

#include "Zend/zend_async_API.h"

BEGIN_EXTERN_C()

/* The level of every strict-mode diagnostic. */
#define ZEND_ASYNC_REF_STRICT_LEVEL E_CORE_WARNING

/* The quarantine keeps the most recently disposed events, up to this many. */
#define ZEND_ASYNC_REF_QUARANTINE_SIZE 256

/* True in strict mode. Read it through ZEND_ASYNC_REF_STRICT(); change it
 * only through zend_async_ref_strict_enable(). */
extern ZEND_API bool zend_async_ref_strict_on;

#define ZEND_ASYNC_REF_STRICT() UNEXPECTED(zend_async_ref_strict_on)

ZEND_API void zend_async_ref_strict_enable(bool enabled);
ZEND_API bool zend_async_ref_strict_is_enabled(void);
/* Applies ZEND_ASYNC_REF_STRICT when it is set ("0" or empty: off, anything
 * else: on); an unset variable leaves the current setting. Returns whether
 * strict mode is on. */
ZEND_API bool zend_async_ref_strict_configure_from_env(void);

/* Reports misuse: zend_error(ZEND_ASYNC_REF_STRICT_LEVEL, "zend-async-ref
 * strict: <call>: <message>"), and the same as a "strict" line when tracing.
 * Reports even when strict mode is off (callers test first). */
ZEND_API ZEND_COLD void zend_async_ref_strict_report(const char *call,
                                                     const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);
/* Diagnostics reported since the process started. */
ZEND_API uint32_t zend_async_ref_strict_report_count(void);

/* ---- The event quarantine --------------------------------------------------
 */

/* Takes over a disposed event's memory instead of the caller's efree():
 * true when taken (strict mode on and a request running, see
 * _request_startup), false when the caller must free it itself. `size`:
 * the bytes of the block the implementation owns (at least the header);
 * `name`: how diagnostics name the event (copied), typically
 * "Timer#2 Timer(timeout=10ms, once)" captured before the dispose tore the
 * event down; `disposed_ref_count`: the event's ref_count when it was
 * disposed (normally 0), the baseline of the checks (an event whose memory
 * outlives its dispose, like a libuv handle waiting for its close callback,
 * is quarantined later, and a release meanwhile must still be seen).
 * Checks the quarantine first. */
ZEND_API bool zend_async_ref_strict_quarantine(zend_async_event_t *event,
                                               size_t size, const char *name,
                                               uint32_t disposed_ref_count);
/* The name `event` was quarantined under, or NULL when it is not in the
 * quarantine. For an entry point handed an event (a pool) its caller may
 * have let go of already: the header of a quarantined event stays
 * readable, so a caller tests ZEND_ASYNC_EVENT_IS_CLOSED first and asks
 * only then (a scan of the quarantine). */
ZEND_API const char *zend_async_ref_strict_disposed_name(
    const zend_async_event_t *event);
/* Reports every quarantined event whose ref_count moved (each change once). */
ZEND_API void zend_async_ref_strict_check_quarantine(void);
/* Events quarantined now. */
ZEND_API uint32_t zend_async_ref_strict_quarantined(void);

/* The request's bounds of the quarantine: opened at request startup; at
 * request shutdown (before the allocator's leak check) every entry is
 * checked and freed and the quarantine closes, so that events disposed
 * later (the object store's teardown) are freed at once. The reference
 * extension calls these from RINIT and RSHUTDOWN. */
ZEND_API void zend_async_ref_strict_request_startup(void);
ZEND_API void zend_async_ref_strict_request_shutdown(void);

END_EXTERN_C()

#endif /* ZEND_ASYNC_REF_STRICT_H */
