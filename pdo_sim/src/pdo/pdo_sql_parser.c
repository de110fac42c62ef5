/*
 * zend-async-ref pdo_sim: the placeholders of a statement's SQL and the
 * check of execute()'s parameters against them (php-src's
 * ext/pdo/pdo_sql_parser.re, the part a driver without native placeholders
 * relies on; the values themselves reach the driver in stmt->bound_params,
 * nothing is rewritten).
 *
 * Threading: the request's thread. Failure: HY093 through
 * pdo_raise_impl_error (an exception or a warning by the error mode).
 */
#include <ctype.h>
#include <string.h>

#include "php_pdo_int.h"

/* One placeholder: "?" or ":name" at [pos, pos + len) of the query. */
typedef struct {
  const char *pos;
  size_t len;
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
 * comments ("??" is an escaped "?", not a placeholder), into `out` (up to
 * `cap`). Returns their number; `query_type` gets PDO_PLACEHOLDER_NAMED
 * and/or PDO_PLACEHOLDER_POSITIONAL. */
static size_t scan(const zend_string *sql, php_mock_pdo_placeholder *out,
                   size_t cap, int *query_type) {
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
      p += 2;
    } else if (c == '?') {
      if (count < cap) out[count] = (php_mock_pdo_placeholder){p, 1};
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
        out[count] = (php_mock_pdo_placeholder){p, (size_t)(name_end - p)};
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

bool php_mock_pdo_check_params(pdo_stmt_t *stmt) {
  HashTable *params = stmt->bound_params;
  if (stmt->supports_placeholders != PDO_PLACEHOLDER_NONE ||
      stmt->query_string == NULL) {
    return true;
  }
  int query_type;
  const size_t count = scan(stmt->query_string, NULL, 0, &query_type);
  if (query_type == (PDO_PLACEHOLDER_NAMED | PDO_PLACEHOLDER_POSITIONAL)) {
    pdo_raise_impl_error(stmt->dbh, stmt, "HY093",
                         "mixed named and positional parameters");
    return false;
  }
  if (params == NULL || count == 0) {
    if (params != NULL && zend_hash_num_elements(params) != 0) {
      pdo_raise_impl_error(
          stmt->dbh, stmt, "HY093",
          "number of bound variables does not match number of tokens");
      return false;
    }
    return true;
  }
  php_mock_pdo_placeholder *placeholders =
      safe_emalloc(count, sizeof(php_mock_pdo_placeholder), 0);
  scan(stmt->query_string, placeholders, count, &query_type);
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
  efree(placeholders);
  return ok;
}
