// zend-async-ref pdo_sim: the SQLite driver's statements
// (sqlite_internal.h): preparing (through the slot's statement cache),
// binding, stepping (busy waits on the reactor), fetching, and giving the
// prepared statement back to the cache when the PDOStatement goes.

#include <cctype>
#include <cstring>
#include <string>

#include "pdo_sim/src/drivers/sqlite_internal.h"

namespace pdo_sim::sqlite::internal {
namespace {

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)); }

// The statement cache's key for `sql` (a new reference): leading and
// trailing whitespace dropped, every run of whitespace outside quotes made
// one space, so that the same query written differently shares a prepared
// statement while 'a  b' and 'a b' do not.
zend_string* CacheKey(const zend_string* sql) {
  const char* p = ZSTR_VAL(sql);
  const char* end = p + ZSTR_LEN(sql);
  while (p < end && IsSpace(*p)) p++;
  while (end > p && IsSpace(end[-1])) end--;
  zend_string* out = zend_string_alloc(static_cast<size_t>(end - p), false);
  char* w = ZSTR_VAL(out);
  char quote = 0;
  for (; p < end; p++) {
    const char c = *p;
    if (quote != 0) {
      *w++ = c;
      if (c == '\\' && p + 1 < end) {
        *w++ = *++p;
      } else if (c == quote) {
        quote = 0;
      }
    } else if (IsSpace(c)) {
      if (w[-1] != ' ') *w++ = ' ';
    } else {
      if (c == '\'' || c == '"' || c == '`') quote = c;
      *w++ = c;
    }
  }
  *w = '\0';
  ZSTR_LEN(out) = static_cast<size_t>(w - ZSTR_VAL(out));
  return out;
}

void FinalizeStmt(void* stmt) {
  sqlite3_finalize(static_cast<sqlite3_stmt*>(stmt));
}

int StmtDtor(pdo_stmt_t* stmt) {
  auto* s = static_cast<SqliteStatement*>(stmt->driver_data);
  // A plain handle may already be closed (collected first); a slot lives
  // until its last statement lets go.
  SqliteConnection* conn =
      stmt->pooled_conn != nullptr ? Conn(stmt->pooled_conn) : nullptr;
  // Cached for the next prepare of the same SQL, unless another statement
  // with that SQL got there first.
  if (conn != nullptr && conn->cache != nullptr && s->nsql != nullptr &&
      pdo_pool_stmt_cache_lookup(conn->cache, s->nsql) == nullptr) {
    sqlite3_reset(s->stmt);
    sqlite3_clear_bindings(s->stmt);
    pdo_pool_stmt_cache_entry_t* evicted = nullptr;
    pdo_pool_stmt_cache_entry_t* entry =
        pdo_pool_stmt_cache_insert(conn->cache, s->nsql, &evicted);
    entry->driver_data = s->stmt;
    entry->driver_data_dtor = FinalizeStmt;
    pdo_pool_stmt_cache_entry_free(evicted);
  } else {
    sqlite3_finalize(s->stmt);
  }
  if (s->nsql != nullptr) zend_string_release(s->nsql);
  s->~SqliteStatement();
  efree(s);
  stmt->driver_data = nullptr;
  return 1;
}

bool BindParams(pdo_stmt_t* stmt, sqlite3_stmt* s) {
  if (stmt->bound_params == nullptr) return true;
  zend_ulong index;
  zend_string* name;
  zval* value;
  ZEND_HASH_FOREACH_KEY_VAL(stmt->bound_params, index, name, value) {
    int position = static_cast<int>(index) + 1;
    if (name != nullptr) {
      std::string key(ZSTR_VAL(name), ZSTR_LEN(name));
      if (key.empty() || key[0] != ':') key.insert(0, ":");
      position = sqlite3_bind_parameter_index(s, key.c_str());
    }
    if (position <= 0 || position > sqlite3_bind_parameter_count(s)) {
      memcpy(stmt->error_code, "HY093", sizeof(pdo_error_type));
      Conn(pdo_stmt_conn(stmt))->last_errcode = 0;
      Conn(pdo_stmt_conn(stmt))->last_errmsg =
          "Invalid parameter number: parameter was not defined";
      return false;
    }
    switch (Z_TYPE_P(value)) {
      case IS_NULL:
        sqlite3_bind_null(s, position);
        break;
      case IS_LONG:
        sqlite3_bind_int64(s, position, Z_LVAL_P(value));
        break;
      case IS_DOUBLE:
        sqlite3_bind_double(s, position, Z_DVAL_P(value));
        break;
      case IS_TRUE:
      case IS_FALSE:
        sqlite3_bind_int(s, position, Z_TYPE_P(value) == IS_TRUE);
        break;
      default: {
        zend_string* str = zval_get_string(value);
        sqlite3_bind_text(s, position, ZSTR_VAL(str),
                          static_cast<int>(ZSTR_LEN(str)), SQLITE_TRANSIENT);
        zend_string_release(str);
      }
    }
  }
  ZEND_HASH_FOREACH_END();
  return true;
}

int StmtExecute(pdo_stmt_t* stmt) {
  auto* s = static_cast<SqliteStatement*>(stmt->driver_data);
  pdo_dbh_t* dbh = pdo_stmt_conn(stmt);
  SqliteConnection* conn = Conn(dbh);
  sqlite3_reset(s->stmt);
  if (stmt->bound_params != nullptr) sqlite3_clear_bindings(s->stmt);
  s->pre_fetched = false;
  s->done = false;
  if (!BindParams(stmt, s->stmt)) return 0;
  const int rc = Step(conn, s->stmt);
  switch (rc) {
    case SQLITE_ROW:
      s->pre_fetched = true;
      php_pdo_stmt_set_column_count(stmt, sqlite3_data_count(s->stmt));
      stmt->row_count = 0;
      return 1;
    case SQLITE_DONE:
      php_pdo_stmt_set_column_count(stmt, sqlite3_column_count(s->stmt));
      stmt->row_count = sqlite3_changes(conn->db);
      sqlite3_reset(s->stmt);
      s->done = true;
      return 1;
    default:
      sqlite3_reset(s->stmt);
      RecordError(dbh, stmt, rc, sqlite3_errmsg(conn->db));
      return 0;
  }
}

int StmtFetch(pdo_stmt_t* stmt, enum pdo_fetch_orientation, zend_long) {
  auto* s = static_cast<SqliteStatement*>(stmt->driver_data);
  if (s->pre_fetched) {
    s->pre_fetched = false;
    return 1;
  }
  if (s->done) return 0;
  pdo_dbh_t* dbh = pdo_stmt_conn(stmt);
  const int rc = Step(Conn(dbh), s->stmt);
  if (rc == SQLITE_ROW) return 1;
  s->done = true;
  if (rc != SQLITE_DONE) {
    RecordError(dbh, stmt, rc, sqlite3_errmsg(Conn(dbh)->db));
  }
  sqlite3_reset(s->stmt);
  return 0;
}

int StmtDescribe(pdo_stmt_t* stmt, int colno) {
  auto* s = static_cast<SqliteStatement*>(stmt->driver_data);
  const char* name = sqlite3_column_name(s->stmt, colno);
  if (name == nullptr) name = "";
  stmt->columns[colno].name = zend_string_init(name, strlen(name), 0);
  return 1;
}

int StmtGetCol(pdo_stmt_t* stmt, int colno, zval* result,
               enum pdo_param_type*) {
  auto* s = static_cast<SqliteStatement*>(stmt->driver_data);
  switch (sqlite3_column_type(s->stmt, colno)) {
    case SQLITE_INTEGER:
      ZVAL_LONG(result, sqlite3_column_int64(s->stmt, colno));
      break;
    case SQLITE_FLOAT:
      ZVAL_DOUBLE(result, sqlite3_column_double(s->stmt, colno));
      break;
    case SQLITE_NULL:
      ZVAL_NULL(result);
      break;
    default:
      ZVAL_STRINGL(
          result,
          reinterpret_cast<const char*>(sqlite3_column_text(s->stmt, colno)),
          static_cast<size_t>(sqlite3_column_bytes(s->stmt, colno)));
  }
  return 1;
}

}  // namespace

const pdo_stmt_methods kStmtMethods = {
    StmtDtor, StmtExecute, StmtFetch, StmtDescribe, StmtGetCol,
};

bool Prepare(pdo_dbh_t* dbh, zend_string* sql, pdo_stmt_t* stmt, zval*) {
  SqliteConnection* conn = Conn(dbh);
  if (!SyncRegistry(dbh)) return false;
  zend_string* nsql = nullptr;
  sqlite3_stmt* prepared = nullptr;
  if (conn->cache != nullptr && !conn->emulate_prepares) {
    nsql = CacheKey(sql);
    pdo_pool_stmt_cache_entry_t* entry =
        pdo_pool_stmt_cache_take(conn->cache, nsql);
    if (entry != nullptr) {
      prepared = static_cast<sqlite3_stmt*>(entry->driver_data);
      entry->driver_data = nullptr;
      pdo_pool_stmt_cache_entry_free(entry);
      MutableStats().cache_hits++;
    }
  }
  if (prepared == nullptr) {
    MutableStats().prepares++;
    if (sqlite3_prepare_v2(conn->db, ZSTR_VAL(sql),
                           static_cast<int>(ZSTR_LEN(sql)), &prepared,
                           nullptr) != SQLITE_OK) {
      RecordDbError(dbh, nullptr);
      if (nsql != nullptr) zend_string_release(nsql);
      return false;
    }
  }
  auto* s = new (emalloc(sizeof(SqliteStatement))) SqliteStatement;
  s->stmt = prepared;
  s->nsql = nsql;
  stmt->driver_data = s;
  stmt->methods = &kStmtMethods;
  // SQLite binds ? and :name itself and reports its own errors.
  stmt->supports_placeholders = static_cast<pdo_placeholder_support>(
      PDO_PLACEHOLDER_POSITIONAL | PDO_PLACEHOLDER_NAMED);
  return true;
}

// Runs every statement of `sql`; the changes of the last, or -1.
}  // namespace pdo_sim::sqlite::internal
