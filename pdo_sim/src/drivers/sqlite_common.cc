// zend-async-ref pdo_sim: what the SQLite driver's handles and statements
// share (sqlite_internal.h): errors, busy waits, the registry's sync.

#include <algorithm>
#include <chrono>

#include "pdo_sim/src/drivers/reactor_wait.h"
#include "pdo_sim/src/drivers/sqlite_internal.h"

namespace pdo_sim::sqlite::internal {

Stats& MutableStats() {
  static Stats stats;
  return stats;
}

absl::flat_hash_set<SqliteConnection*>& LiveConnections() {
  static auto* live = new absl::flat_hash_set<SqliteConnection*>;
  return *live;
}

// Records SQLite's last error on the statement (or the handle).
void RecordError(pdo_dbh_t* dbh, pdo_stmt_t* stmt, int errcode,
                 const char* errmsg) {
  SqliteConnection* conn = Conn(dbh);
  conn->last_errcode = errcode;
  conn->last_errmsg = errmsg != nullptr ? errmsg : "";
  const char* state = "HY000";
  switch (errcode & 0xff) {
    case SQLITE_NOTFOUND:
      state = "42S02";
      break;
    case SQLITE_INTERRUPT:
      state = "01002";
      break;
    case SQLITE_NOLFS:
      state = "HYC00";
      break;
    case SQLITE_TOOBIG:
      state = "22001";
      break;
    case SQLITE_CONSTRAINT:
      state = "23000";
      break;
    default:
      break;
  }
  pdo_error_type* dest = stmt != nullptr ? &stmt->error_code : &dbh->error_code;
  snprintf(*dest, sizeof(pdo_error_type), "%s", state);
}

void RecordDbError(pdo_dbh_t* dbh, pdo_stmt_t* stmt) {
  sqlite3* db = Conn(dbh)->db;
  RecordError(dbh, stmt, sqlite3_errcode(db), sqlite3_errmsg(db));
}

// ---- Busy handling ----------------------------------------------------------

bool Retryable(int rc) {
  return (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
}

// Steps `stmt`; a busy or locked database is retried after waiting on the
// reactor (1, 2, 4 ... 32 ms) until the handle's timeout.
int Step(SqliteConnection* conn, sqlite3_stmt* stmt) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(conn->timeout_s);
  for (uint32_t attempt = 0;; attempt++) {
    const int rc = sqlite3_step(stmt);
    if (!Retryable(rc) || !pdo_sim::internal::CanWaitOnReactor() ||
        std::chrono::steady_clock::now() >= deadline) {
      return rc;
    }
    sqlite3_reset(stmt);
    MutableStats().busy_waits++;
    if (!pdo_sim::internal::SleepOnReactor(1u
                                           << std::min<uint32_t>(attempt, 5))) {
      return rc;
    }
  }
}

// ---- The registry -----------------------------------------------------------

// A slot's first use freezes its template's registry; entries the slot
// has not applied yet (it was pre-warmed before they were registered) are
// applied now.
bool SyncRegistry(pdo_dbh_t* dbh) {
  SqliteConnection* conn = Conn(dbh);
  if (dbh->pool == nullptr) return true;
  auto* tmpl = static_cast<const pdo_dbh_t*>(dbh->pool->user_data);
  if (tmpl != nullptr) {
    std::shared_ptr<internal::Registry> registry =
        internal::TemplateRegistry(tmpl, true);
    registry->frozen = true;
    if (conn->registry != registry) {
      conn->registry = std::move(registry);
      conn->registry_applied = 0;
    }
  }
  if (conn->registry == nullptr ||
      conn->registry_applied == conn->registry->entries.size()) {
    return true;
  }
  const bool ok =
      internal::ApplyEntries(conn->db, *conn->registry, conn->registry_applied);
  conn->registry_applied = conn->registry->entries.size();
  if (!ok) RecordDbError(dbh, nullptr);
  return ok;
}

}  // namespace pdo_sim::sqlite::internal
