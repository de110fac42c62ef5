// zend-async-ref pdo_sim: the "sqlite" PDO driver, over libsqlite3
// (pdo_sim/sqlite_driver.h).
//
// Follows php-src's pdo_sqlite where PDO users can see it (SQLSTATE
// mapping, "SQLSTATE[HY000]: General error: 1 no such table: t", native
// integer/float/NULL/text results, BEGIN/COMMIT/ROLLBACK), plus what a
// pool needs: templates that refuse private in-memory databases, the
// template registry of user functions (sqlite_registry.cc), a slot's
// statement cache, and SQLITE_BUSY retried on the reactor instead of
// blocking the thread.

#include "pdo_sim/sqlite_driver.h"

#include <cstring>
#include <new>
#include <string>

#include "pdo_sim/src/drivers/sqlite_internal.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "ext/pdo/php_pdo_int.h"
}

namespace pdo_sim::sqlite {
namespace {

using internal::Conn;
using internal::LiveConnections;
using internal::MutableStats;
using internal::RecordDbError;
using internal::RecordError;
using internal::SqliteConnection;
using internal::Step;
using internal::SyncRegistry;

// Pdo\Sqlite::ATTR_OPEN_FLAGS.
constexpr zend_long kAttrOpenFlags = PDO_ATTR_DRIVER_SPECIFIC;

// ---- Handles ----------------------------------------------------------------

void Close(pdo_dbh_t* dbh) {
  SqliteConnection* conn = Conn(dbh);
  if (conn == nullptr) {
    internal::ForgetTemplateRegistry(dbh);  // a pool template
    return;
  }
  pdo_pool_stmt_cache_destroy(conn->cache);
  conn->cache = nullptr;
  sqlite3_close_v2(conn->db);  // statements still open keep it a zombie
  LiveConnections().erase(conn);
  conn->~SqliteConnection();
  efree(conn);
  dbh->driver_data = nullptr;
  MutableStats().connections_closed++;
}

zend_long Exec(pdo_dbh_t* dbh, const char* sql, size_t len) {
  SqliteConnection* conn = Conn(dbh);
  const char* tail = sql;
  const char* end = sql + len;
  while (tail < end) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(conn->db, tail, static_cast<int>(end - tail), &s,
                           &tail) != SQLITE_OK) {
      RecordDbError(dbh, nullptr);
      return -1;
    }
    if (s == nullptr) continue;  // blank or a comment
    int rc;
    while ((rc = Step(conn, s)) == SQLITE_ROW) {
    }
    if (rc != SQLITE_DONE) {
      RecordError(dbh, nullptr, rc, sqlite3_errmsg(conn->db));
      sqlite3_finalize(s);
      return -1;
    }
    sqlite3_finalize(s);
  }
  return sqlite3_changes(conn->db);
}

zend_long Do(pdo_dbh_t* dbh, const zend_string* sql) {
  if (!SyncRegistry(dbh)) return -1;
  return Exec(dbh, ZSTR_VAL(sql), ZSTR_LEN(sql));
}

// IMMEDIATE, not pdo_sqlite's deferred BEGIN: coroutines share the
// thread, so a deferred transaction upgrading to a write lock while
// another coroutine's waits for it would deadlock; a writer takes the lock
// at BEGIN (waiting for it on the reactor) instead.
bool Begin(pdo_dbh_t* dbh) {
  return SyncRegistry(dbh) && Exec(dbh, ZEND_STRL("BEGIN IMMEDIATE")) >= 0;
}
bool Commit(pdo_dbh_t* dbh) { return Exec(dbh, ZEND_STRL("COMMIT")) >= 0; }
bool Rollback(pdo_dbh_t* dbh) { return Exec(dbh, ZEND_STRL("ROLLBACK")) >= 0; }

bool InTransaction(pdo_dbh_t* dbh) {
  SqliteConnection* conn = Conn(dbh);
  return conn != nullptr && sqlite3_get_autocommit(conn->db) == 0;
}

bool SetAttribute(pdo_dbh_t* dbh, zend_long attr, zval* value) {
  SqliteConnection* conn = Conn(dbh);
  switch (attr) {
    case PDO_ATTR_TIMEOUT:
      conn->timeout_s = zval_get_long(value);
      return true;
    case PDO_ATTR_EMULATE_PREPARES:
      conn->emulate_prepares = zend_is_true(value);
      return true;
    default:
      return false;
  }
}

int GetAttribute(pdo_dbh_t* dbh, zend_long attr, zval* value) {
  SqliteConnection* conn = Conn(dbh);
  switch (attr) {
    case PDO_ATTR_SERVER_VERSION:
    case PDO_ATTR_CLIENT_VERSION:
      ZVAL_STRING(value, sqlite3_libversion());
      return 1;
    case PDO_ATTR_TIMEOUT:
      ZVAL_LONG(value, conn->timeout_s);
      return 1;
    case PDO_ATTR_EMULATE_PREPARES:
      ZVAL_BOOL(value, conn->emulate_prepares);
      return 1;
    default:
      return 0;
  }
}

zend_string* LastId(pdo_dbh_t* dbh, const zend_string*) {
  const std::string id =
      std::to_string(sqlite3_last_insert_rowid(Conn(dbh)->db));
  return zend_string_init(id.data(), id.size(), 0);
}

void FetchError(pdo_dbh_t* dbh, pdo_stmt_t*, zval* info) {
  SqliteConnection* conn = Conn(dbh);
  if (conn->last_errcode == 0 && conn->last_errmsg.empty()) return;
  add_next_index_long(info, conn->last_errcode);
  add_next_index_string(info, conn->last_errmsg.c_str());
}

zend_result CheckLiveness(pdo_dbh_t* dbh) {
  return Conn(dbh) != nullptr && Conn(dbh)->db != nullptr ? SUCCESS : FAILURE;
}

// The pool takes the slot back (after rolling back). SQLite cannot reset a
// session: a slot whose SQL left state behind (a TEMPORARY table, ...) is
// closed rather than handed to another coroutine.
bool PoolBeforeRelease(pdo_dbh_t* dbh) { return !dbh->pool_session_dirty; }

const pdo_dbh_methods kMethods = {
    Close,
    internal::Prepare,
    Do,
    Begin,
    Commit,
    Rollback,
    SetAttribute,
    LastId,
    FetchError,
    GetAttribute,
    CheckLiveness,
    InTransaction,
    nullptr,
    PoolBeforeRelease,
};

// ---- Connecting -------------------------------------------------------------

bool HasParam(std::string_view query, std::string_view param) {
  size_t pos = 0;
  while (pos <= query.size()) {
    const size_t amp = query.find('&', pos);
    const std::string_view part =
        query.substr(pos, amp == std::string_view::npos ? std::string_view::npos
                                                        : amp - pos);
    if (part == param) return true;
    if (amp == std::string_view::npos) break;
    pos = amp + 1;
  }
  return false;
}

// A database only its own connection sees: every slot would get its own.
bool IsPrivateMemory(std::string_view dsn) {
  if (dsn.empty() || dsn == ":memory:") return true;
  if (dsn.substr(0, 5) != "file:") return false;
  const std::string_view uri = dsn.substr(5);
  const size_t q = uri.find('?');
  const std::string_view path = uri.substr(0, q);
  const std::string_view query =
      q == std::string_view::npos ? std::string_view() : uri.substr(q + 1);
  const bool memory =
      path.empty() || path == ":memory:" || HasParam(query, "mode=memory");
  return memory && !HasParam(query, "cache=shared");
}

int Factory(pdo_dbh_t* dbh, zval* options) {
  int flags = static_cast<int>(pdo_attr_lval(
      options, kAttrOpenFlags, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE));
  if (strncmp(dbh->data_source, "file:", 5) == 0) flags |= SQLITE_OPEN_URI;
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(dbh->data_source, &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    pdo_error_type state = "HY000";
    pdo_throw_exception(static_cast<unsigned>(rc),
                        db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc),
                        &state);
    sqlite3_close_v2(db);
    return 0;
  }
  auto* conn = new (emalloc(sizeof(SqliteConnection))) SqliteConnection;
  conn->db = db;
  conn->timeout_s = pdo_attr_lval(options, PDO_ATTR_TIMEOUT, 60);
  conn->emulate_prepares = pdo_attr_lval(options, PDO_ATTR_EMULATE_PREPARES, 0);
  dbh->driver_data = conn;
  dbh->methods = &kMethods;
  if (dbh->pool != nullptr) {
    auto* tmpl = static_cast<const pdo_dbh_t*>(dbh->pool->user_data);
    conn->cache = pdo_pool_stmt_cache_create(tmpl->pool_stmt_cache_size);
    conn->registry = internal::TemplateRegistry(tmpl, false);
    if (conn->registry != nullptr) {
      internal::ApplyEntries(db, *conn->registry, 0);
      conn->registry_applied = conn->registry->entries.size();
    }
  }
  LiveConnections().insert(conn);
  MutableStats().connections_opened++;
  return 1;
}

void InitMethods(pdo_dbh_t* dbh, bool* supports_pool) {
  if (IsPrivateMemory(dbh->data_source)) {
    internal::ThrowPdoException(
        "PDO_SQLite: in-memory databases cannot be used with "
        "PDO::ATTR_POOL_ENABLED: every pooled connection would open its own "
        "empty database; use a file or a shared-cache URI such as "
        "file::memory:?cache=shared");
    return;
  }
  dbh->methods = &kMethods;
  *supports_pool = true;
}

}  // namespace

Stats GetStats() {
  Stats current = MutableStats();
  current.cached_statements = 0;
  for (SqliteConnection* conn : LiveConnections()) {
    current.cached_statements += pdo_pool_stmt_cache_size(conn->cache);
  }
  return current;
}

void ResetStats() { MutableStats() = Stats{}; }

}  // namespace pdo_sim::sqlite

extern "C" {

const pdo_driver_t pdo_sqlite_driver = {
    PDO_DRIVER_HEADER(sqlite),
    pdo_sim::sqlite::Factory,
    pdo_sim::sqlite::InitMethods,
};

}  // extern "C"
