/*
 * zend-async-ref pdo_sim: the placeholders of a statement's SQL and the
 * check of execute()'s parameters against them (php-src's
 * ext/pdo/pdo_sql_parser.re, the part a driver without native placeholders
 * relies on; the values themselves reach the driver in stmt->bound_params),
 * and the rewrite of the placeholders for a driver that sends the SQL
 * itself (pdo_parse_params's query generation and ":name" to "?").
 *
 * Threading: the request's thread. Failure: HY093 through
 * pdo_raise_impl_error (an exception or a warning by the error mode).
 */
#include <ctype.h>
#include <string.h>

#include "Zend/zend_smart_str.h"
#include "php_pdo_int.h"

/* One placeholder: "?" or ":name" at [pos, pos + len) of the query; or,
 * when the scan keeps them, an escaped "??" (escaped). */
typedef struct {
  const char *pos;
  size_t len;
  bool escaped;
} php_mock_pdo_placeholder;

/* Skips a quoted run starting at the quote `*p`; backslash escapes the
 * next character, a doubled quote is one quote. Returns the position after
 * the closing quote (or the end of an unterminated one). */
static const char *skip_quoted(const char *p, const char *end) {
  const char quote = *p++;
  while (p < end) {
    if (*p == '\\' && p + 1 < end) {
      p += 2;
    } else if (*p == quote) {
      if (p + 1 < end && p[1] == quote) {
        p += 2;
      } else {
        return p + 1;
      }
    } else {
      p++;
    }
  }
  return end;
}

static bool is_bind_char(char c) {
  return isalnum((unsigned char)c) || c == '_';
}

/* Collects the placeholders of `sql` outside strings, quoted names and
 * comments ("??" is an escaped "?", not a placeholder; kept as an entry
 * when `keep_escapes`), into `out` (up to `cap`). Returns the number of
 * entries; `query_type` gets PDO_PLACEHOLDER_NAMED and/or
 * PDO_PLACEHOLDER_POSITIONAL. */
static size_t scan(const zend_string *sql, php_mock_pdo_placeholder *out,
                   size_t cap, int *query_type, bool keep_escapes) {
  const char *p = ZSTR_VAL(sql);
  const char *const begin = p;
  const char *const end = p + ZSTR_LEN(sql);
  size_t count = 0;
  *query_type = PDO_PLACEHOLDER_NONE;
  while (p < end) {
    const char c = *p;
    if (c == '\'' || c == '"' || c == '`') {
      p = skip_quoted(p, end);
    } else if (c == '-' && p + 1 < end && p[1] == '-') {
      while (p < end && *p != '\n') p++;
    } else if (c == '#') {
      while (p < end && *p != '\n') p++;
    } else if (c == '/' && p + 1 < end && p[1] == '*') {
      const char *close = p + 2;
      while (close + 1 < end && !(close[0] == '*' && close[1] == '/')) close++;
      p = close + 1 < end ? close + 2 : end;
    } else if (c == '?' && p + 1 < end && p[1] == '?') {
      if (keep_escapes) {
        if (count < cap) out[count] = (php_mock_pdo_placeholder){p, 2, true};
        count++;
      }
      p += 2;
    } else if (c == '?') {
      if (count < cap) out[count] = (php_mock_pdo_placeholder){p, 1, false};
      count++;
      *query_type |= PDO_PLACEHOLDER_POSITIONAL;
      p++;
    } else if (c == ':' && p + 1 < end && p[1] == ':') {
      p += 2;
    } else if (c == ':' && p + 1 < end && is_bind_char(p[1]) &&
               (p == begin || !isalnum((unsigned char)p[-1]))) {
      const char *name_end = p + 1;
      while (name_end < end && is_bind_char(*name_end)) name_end++;
      if (count < cap) {
        out[count] =
            (php_mock_pdo_placeholder){p, (size_t)(name_end - p), false};
      }
      count++;
      *query_type |= PDO_PLACEHOLDER_NAMED;
      p = name_end;
    } else {
      p++;
    }
  }
  return count;
}

/* Whether execute()'s array has ":name" (given as "name" or ":name"). */
static bool has_named(HashTable *params, const php_mock_pdo_placeholder *plc) {
  return zend_hash_str_exists(params, plc->pos, plc->len) ||
         zend_hash_str_exists(params, plc->pos + 1, plc->len - 1);
}

/* How many placeholders a statement may have for scan_all() to find them
 * in one pass, in its caller's buffer. */
#define SMALL_PLACEHOLDERS 8

/* The placeholders of `sql` (as scan() finds them) in *out: `small` (room
 * for SMALL_PLACEHOLDERS) when they fit, found in one pass, else an
 * emalloc'd array, which the caller frees when *out != small. */
static size_t scan_all(const zend_string *sql, php_mock_pdo_placeholder *small,
                       php_mock_pdo_placeholder **out, int *query_type,
                       bool keep_escapes) {
  const size_t count =
      scan(sql, small, SMALL_PLACEHOLDERS, query_type, keep_escapes);
  *out = small;
  if (count > SMALL_PLACEHOLDERS) {
    *out = safe_emalloc(count, sizeof(php_mock_pdo_placeholder), 0);
    scan(sql, *out, count, query_type, keep_escapes);
  }
  return count;
}

bool php_mock_pdo_check_params(pdo_stmt_t *stmt) {
  HashTable *params = stmt->bound_params;
  if (stmt->supports_placeholders != PDO_PLACEHOLDER_NONE ||
      stmt->query_string == NULL) {
    return true;
  }
  int query_type;
  php_mock_pdo_placeholder small[SMALL_PLACEHOLDERS];
  php_mock_pdo_placeholder *placeholders;
  const size_t count =
      scan_all(stmt->query_string, small, &placeholders, &query_type, false);
  if (query_type == (PDO_PLACEHOLDER_NAMED | PDO_PLACEHOLDER_POSITIONAL)) {
    if (placeholders != small) efree(placeholders);
    pdo_raise_impl_error(stmt->dbh, stmt, "HY093",
                         "mixed named and positional parameters");
    return false;
  }
  if (params == NULL || count == 0) {
    if (placeholders != small) efree(placeholders);
    if (params != NULL && zend_hash_num_elements(params) != 0) {
      pdo_raise_impl_error(
          stmt->dbh, stmt, "HY093",
          "number of bound variables does not match number of tokens");
      return false;
    }
    return true;
  }
  bool ok = true;
  const uint32_t given = zend_hash_num_elements(params);
  if (count != given) {
    /* A name used more than once is bound once: more tokens than values
     * is fine when every name has its value. */
    bool every_name_bound =
        query_type == PDO_PLACEHOLDER_NAMED && count > given;
    for (size_t i = 0; every_name_bound && i < count; i++) {
      every_name_bound = has_named(params, &placeholders[i]);
    }
    if (!every_name_bound) {
      pdo_raise_impl_error(
          stmt->dbh, stmt, "HY093",
          "number of bound variables does not match number of tokens");
      ok = false;
    }
  }
  for (size_t i = 0; ok && i < count; i++) {
    const bool found = query_type == PDO_PLACEHOLDER_POSITIONAL
                           ? zend_hash_index_exists(params, (zend_ulong)i)
                           : has_named(params, &placeholders[i]);
    if (!found) {
      pdo_raise_impl_error(stmt->dbh, stmt, "HY093",
                           "parameter was not defined");
      ok = false;
    }
  }
  if (placeholders != small) efree(placeholders);
  return ok;
}

zend_string *php_mock_pdo_rewrite_placeholders(
    const zend_string *query, php_mock_pdo_placeholder_fn replace, void *ctx) {
  int query_type;
  php_mock_pdo_placeholder small[SMALL_PLACEHOLDERS];
  php_mock_pdo_placeholder *placeholders;
  const size_t count = scan_all(query, small, &placeholders, &query_type, true);
  if (count == 0) return zend_string_copy((zend_string *)query);
  smart_str out = {0};
  const char *copied = ZSTR_VAL(query);
  uint32_t index = 0;
  bool ok = true;
  for (size_t i = 0; ok && i < count; i++) {
    const php_mock_pdo_placeholder *plc = &placeholders[i];
    smart_str_appendl(&out, copied, (size_t)(plc->pos - copied));
    copied = plc->pos + plc->len;
    if (plc->escaped) {
      smart_str_appendc(&out, '?');
      continue;
    }
    zend_string *text = replace(ctx, index++, plc->pos, plc->len);
    if (text == NULL) {
      ok = false;
    } else {
      smart_str_append(&out, text);
      zend_string_release(text);
    }
  }
  if (placeholders != small) efree(placeholders);
  if (!ok) {
    smart_str_free(&out);
    return NULL;
  }
  smart_str_appendl(&out, copied,
                    (size_t)(ZSTR_VAL(query) + ZSTR_LEN(query) - copied));
  return smart_str_extract(&out);
}
