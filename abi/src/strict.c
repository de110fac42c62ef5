/*
 * zend-async-ref: strict mode (zend_async_ref/strict.h): the switch, the
 * diagnostic, and the quarantine of disposed events.
 *
 * The quarantine is a ring of the most recently disposed events, oldest
 * first. Each entry remembers the event's ref_count when it was disposed
 * (the baseline) and its name. A check compares every entry's ref_count
 * with its baseline; a difference is reported and becomes the new
 * baseline, so each change is reported once. Entries leave (and are freed)
 * when the ring is full and a newer event comes, or at request end.
 */
#include "zend_async_ref/strict.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zend_async_ref/trace.h"

#if defined(__SANITIZE_ADDRESS__)
#define ZAR_STRICT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZAR_STRICT_ASAN 1
#endif
#endif
#if defined(ZAR_STRICT_ASAN)
#include <sanitizer/asan_interface.h>
#define POISON(addr, size) ASAN_POISON_MEMORY_REGION(addr, size)
#define UNPOISON(addr, size) ASAN_UNPOISON_MEMORY_REGION(addr, size)
#else
#define POISON(addr, size) ((void)(addr), (void)(size))
#define UNPOISON(addr, size) ((void)(addr), (void)(size))
#endif

ZEND_API bool zend_async_ref_strict_on = false;

static uint32_t report_count = 0;

/* The byte written over a quarantined event's private part. */
#define POISON_BYTE 0xDB

/* ===================================================================== */
/* The switch and the diagnostic                                          */
/* ===================================================================== */

ZEND_API void zend_async_ref_strict_enable(bool enabled) {
  zend_async_ref_strict_on = enabled;
}

ZEND_API bool zend_async_ref_strict_is_enabled(void) {
  return zend_async_ref_strict_on;
}

ZEND_API bool zend_async_ref_strict_configure_from_env(void) {
  const char *value = getenv("ZEND_ASYNC_REF_STRICT");
  if (value != NULL) {
    zend_async_ref_strict_on = value[0] != '\0' && strcmp(value, "0") != 0;
  }
  return zend_async_ref_strict_on;
}

ZEND_API void zend_async_ref_strict_report(const char *call, const char *format,
                                           ...) {
  char message[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  report_count++;
  ZEND_ASYNC_REF_TRACE("strict %s: %s", call, message);
  zend_error(ZEND_ASYNC_REF_STRICT_LEVEL, "zend-async-ref strict: %s: %s", call,
             message);
}

ZEND_API uint32_t zend_async_ref_strict_report_count(void) {
  return report_count;
}

/* ===================================================================== */
/* The quarantine                                                         */
/* ===================================================================== */

typedef struct {
  zend_async_event_t *event;
  size_t size;       /* bytes of the block (header included) */
  uint32_t baseline; /* ref_count when disposed, or when last reported */
  char *name;        /* malloc'd */
} quarantined_event;

static struct {
  quarantined_event entries[ZEND_ASYNC_REF_QUARANTINE_SIZE];
  uint32_t first; /* index of the oldest entry */
  uint32_t count;
  bool open; /* between request startup and shutdown */
} quarantine;

static quarantined_event *entry_at(uint32_t i) {
  return &quarantine
              .entries[(quarantine.first + i) % ZEND_ASYNC_REF_QUARANTINE_SIZE];
}

static quarantined_event *find_entry(const zend_async_event_t *event) {
  for (uint32_t i = 0; i < quarantine.count; i++) {
    quarantined_event *entry = entry_at(i);
    if (entry->event == event) return entry;
  }
  return NULL;
}

static const char *name_of(const zend_async_event_t *event) {
  const quarantined_event *entry = find_entry(event);
  return entry != NULL && entry->name != NULL ? entry->name
                                              : "a disposed event";
}

/* Compares one entry's ref_count with its baseline. An event destroyed
 * while still referenced (the reactor closes every event at request end)
 * may still be released by its owners, down to zero; below zero is the
 * misuse. A reference taken on an event disposed with none left is one
 * too. */
static void check_entry(quarantined_event *entry) {
  const uint32_t now = entry->event->ref_count;
  const uint32_t baseline = entry->baseline;
  if (now == baseline) return;
  const int64_t delta = (int64_t)(int32_t)(now - baseline);
  if ((int32_t)now < 0) {
    char left[64] = "";
    if (baseline != 0 && (int32_t)baseline > 0) {
      snprintf(left, sizeof(left), " with %" PRIu32 " reference(s) left",
               baseline);
    }
    zend_async_ref_strict_report(
        "ZEND_ASYNC_EVENT_RELEASE",
        "%s: released %" PRId64
        " time(s) after it was disposed%s: its reference count went below "
        "zero (%" PRIu32 ")",
        name_of(entry->event), -delta, left, now);
  } else if (baseline == 0 && delta > 0) {
    zend_async_ref_strict_report("ZEND_ASYNC_EVENT_ADD_REF",
                                 "%s: referenced %" PRId64
                                 " time(s) after it was disposed",
                                 name_of(entry->event), delta);
  }
  entry->baseline = now;
}

static char *copy_string(const char *text) {
  const size_t length = strlen(text);
  char *copy = malloc(length + 1);
  if (copy != NULL) memcpy(copy, text, length + 1);
  return copy;
}

static void free_entry(quarantined_event *entry) {
  UNPOISON(entry->event, entry->size);
  efree(entry->event);
  free(entry->name);
  entry->event = NULL;
  entry->name = NULL;
}

/* ---- The handlers of a quarantined event: each use is reported ---------- */

static bool trap_add_callback(zend_async_event_t *event,
                              zend_async_event_callback_t *callback) {
  (void)callback;
  zend_async_ref_strict_report("add_callback", "%s: used after it was disposed",
                               name_of(event));
  return false;
}

static bool trap_del_callback(zend_async_event_t *event,
                              zend_async_event_callback_t *callback) {
  (void)callback;
  zend_async_ref_strict_report("del_callback", "%s: used after it was disposed",
                               name_of(event));
  return false;
}

static bool trap_start(zend_async_event_t *event) {
  zend_async_ref_strict_report("start", "%s: used after it was disposed",
                               name_of(event));
  return false;
}

static bool trap_stop(zend_async_event_t *event) {
  zend_async_ref_strict_report("stop", "%s: used after it was disposed",
                               name_of(event));
  return false;
}

static bool trap_replay(zend_async_event_t *event,
                        zend_async_event_callback_t *callback, zval *result,
                        zend_object **exception) {
  (void)callback;
  (void)result;
  (void)exception;
  zend_async_ref_strict_report("replay", "%s: used after it was disposed",
                               name_of(event));
  return false;
}

static bool trap_dispose(zend_async_event_t *event) {
  zend_async_ref_strict_report("dispose", "%s: disposed twice", name_of(event));
  return true;
}

static zend_string *trap_info(zend_async_event_t *event) {
  const char *name = name_of(event);
  zend_async_ref_strict_report("info", "%s: used after it was disposed", name);
  return zend_string_init(name, strlen(name), 0);
}

/* Makes `event` inert: flags kept (CLOSED added), ref_count kept, no
 * callbacks, every handler a trap, the private part poisoned. */
static void neutralize(zend_async_event_t *event, size_t size) {
  ZEND_ASYNC_EVENT_SET_CLOSED(event);
  event->loop_ref_count = 0;
  memset(&event->callbacks, 0, sizeof(event->callbacks));
  event->add_callback = trap_add_callback;
  event->del_callback = trap_del_callback;
  event->start = trap_start;
  event->stop = trap_stop;
  event->replay = trap_replay;
  event->dispose = trap_dispose;
  event->info = trap_info;
  event->notify_handler = NULL;
  if (size > sizeof(zend_async_event_t)) {
    char *private_part = (char *)event + sizeof(zend_async_event_t);
    const size_t private_size = size - sizeof(zend_async_event_t);
    memset(private_part, POISON_BYTE, private_size);
    POISON(private_part, private_size);
  }
}

ZEND_API void zend_async_ref_strict_check_quarantine(void) {
  for (uint32_t i = 0; i < quarantine.count; i++) check_entry(entry_at(i));
}

ZEND_API bool zend_async_ref_strict_quarantine(zend_async_event_t *event,
                                               size_t size, const char *name,
                                               uint32_t disposed_ref_count) {
  if (!zend_async_ref_strict_on || !quarantine.open) return false;
  zend_async_ref_strict_check_quarantine();
  if (quarantine.count == ZEND_ASYNC_REF_QUARANTINE_SIZE) {
    free_entry(entry_at(0));
    quarantine.first = (quarantine.first + 1) % ZEND_ASYNC_REF_QUARANTINE_SIZE;
    quarantine.count--;
  }
  quarantined_event *entry = entry_at(quarantine.count);
  quarantine.count++;
  entry->event = event;
  entry->size = size;
  entry->baseline = disposed_ref_count;
  entry->name = copy_string(name != NULL ? name : "an event");
  neutralize(event, size);
  return true;
}

ZEND_API const char *zend_async_ref_strict_disposed_name(
    const zend_async_event_t *event) {
  return find_entry(event) != NULL ? name_of(event) : NULL;
}

ZEND_API uint32_t zend_async_ref_strict_quarantined(void) {
  return quarantine.count;
}

ZEND_API void zend_async_ref_strict_request_startup(void) {
  quarantine.open = true;
}

ZEND_API void zend_async_ref_strict_request_shutdown(void) {
  zend_async_ref_strict_check_quarantine();
  for (uint32_t i = 0; i < quarantine.count; i++) free_entry(entry_at(i));
  quarantine.first = 0;
  quarantine.count = 0;
  quarantine.open = false;
}
