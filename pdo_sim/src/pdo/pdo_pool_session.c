/*
 * zend-async-ref pdo_sim: spotting SQL that leaves session state on a
 * pooled connection (pdo_pool_note_statement, pdo_pool.h).
 *
 * The marking is deliberately coarse: a false positive only keeps a slot
 * pinned to its coroutine until the coroutine ends (and costs a session
 * reset then); a false negative hands a lock, a user variable or a
 * temporary table to the next coroutine. Plain SELECT/INSERT/UPDATE are
 * decided by their first keyword and a scan for '@'.
 */
#include <ctype.h>
#include <string.h>

#include "pdo_pool.h"

/* `c` in upper case: keywords are ASCII, whatever the locale. */
static inline char ascii_upper(char c) {
  return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* Case-insensitive: does [p, end) start with `word` (upper case)? */
static bool starts_with_ci(const char *p, const char *end, const char *word) {
  const size_t len = strlen(word);
  if ((size_t)(end - p) < len) return false;
  for (size_t i = 0; i < len; i++) {
    if (ascii_upper(p[i]) != word[i]) return false;
  }
  return true;
}

static bool is_word_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/* Does [p, end) start with the keyword `word` (not a longer word)? */
static bool starts_with_keyword(const char *p, const char *end,
                                const char *word) {
  const size_t len = strlen(word);
  return starts_with_ci(p, end, word) &&
         (p + len == end || !is_word_char(p[len]));
}

/* Case-insensitive search of `word` (upper case) in [p, end): the whole
 * word is compared only where its first letter is found. */
static bool contains_ci(const char *p, const char *end, const char *word) {
  for (; p < end; p++) {
    if (ascii_upper(*p) == word[0] && starts_with_ci(p, end, word)) {
      return true;
    }
  }
  return false;
}

/* Skips whitespace and comments. The body of an executable comment
 * (MySQL's / *!40101 ... * / and MariaDB's / *M!100000 ... * /) is SQL:
 * only its marker is skipped. */
static const char *skip_blank(const char *p, const char *end) {
  while (p < end) {
    if (isspace((unsigned char)*p)) {
      p++;
    } else if (end - p >= 2 && p[0] == '/' && p[1] == '*') {
      const char *body = p + 2;
      if (body < end && *body == 'M' && body + 1 < end && body[1] == '!') {
        body += 2;
      } else if (body < end && *body == '!') {
        body += 1;
      } else {
        const char *close = body;
        while (close + 1 < end && !(close[0] == '*' && close[1] == '/')) {
          close++;
        }
        p = close + 1 < end ? close + 2 : end;
        continue;
      }
      while (body < end && isdigit((unsigned char)*body)) body++;
      p = body;
    } else if (end - p >= 2 && p[0] == '*' && p[1] == '/') {
      p += 2; /* the end of an executable comment */
    } else if (*p == '#' || (end - p >= 2 && p[0] == '-' && p[1] == '-' &&
                             (end - p == 2 || isspace((unsigned char)p[2])))) {
      while (p < end && *p != '\n') p++;
    } else {
      break;
    }
  }
  return p;
}

/* The end of the statement starting at `p`: the next ';' outside quotes
 * and comments, or `end`. */
static const char *statement_end(const char *p, const char *end) {
  while (p < end) {
    const char c = *p;
    if (c == ';') return p;
    if (c == '\'' || c == '"' || c == '`') {
      p++;
      while (p < end && *p != c) {
        if (*p == '\\' && p + 1 < end) p++;
        p++;
      }
      if (p < end) p++;
    } else if (end - p >= 2 && p[0] == '/' && p[1] == '*' &&
               (end - p < 3 || (p[2] != '!' && p[2] != 'M'))) {
      p += 2;
      while (p + 1 < end && !(p[0] == '*' && p[1] == '/')) p++;
      p = p + 1 < end ? p + 2 : end;
    } else {
      p++;
    }
  }
  return end;
}

static bool statement_is_stateful(const char *p, const char *end) {
  if (memchr(p, '@', (size_t)(end - p)) != NULL) return true;
  static const char *const kStateful[] = {
      "SET",     "USE",     "LOCK",       "UNLOCK", "FLUSH",
      "HANDLER", "PREPARE", "DEALLOCATE", "XA",
  };
  const char first = p < end ? ascii_upper(*p) : '\0';
  for (size_t i = 0; i < sizeof(kStateful) / sizeof(kStateful[0]); i++) {
    if (kStateful[i][0] == first && starts_with_keyword(p, end, kStateful[i])) {
      return true;
    }
  }
  if (starts_with_keyword(p, end, "CREATE") &&
      contains_ci(p, end, "TEMPORARY")) {
    return true;
  }
  return contains_ci(p, end, "GET_LOCK");
}

void pdo_pool_note_statement(pdo_dbh_t *conn, const zend_string *sql) {
  if (conn == NULL || conn->pool == NULL || conn->pool_session_dirty) return;
  const char *p = ZSTR_VAL(sql);
  const char *const end = p + ZSTR_LEN(sql);
  while (p < end) {
    p = skip_blank(p, end);
    const char *stmt_end = statement_end(p, end);
    if (stmt_end > p && statement_is_stateful(p, stmt_end)) {
      conn->pool_session_dirty = true;
      return;
    }
    p = stmt_end + (stmt_end < end ? 1 : 0);
  }
}
