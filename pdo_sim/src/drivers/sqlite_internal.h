// zend-async-ref pdo_sim: what the SQLite driver's files share: a
// connection's state, and the registry of user functions, aggregates and
// collations (pdo_sim/sqlite_driver.h).
//
// A plain handle owns a registry for the callables it registered; a pooled
// template's registry is shared by the template and every slot (each slot
// remembers how many entries it applied). Entries are never removed, so a
// slot's SQLite functions may point at them for the slot's lifetime.
//
// Threading: the engine's thread. Lifetime: a registry releases its
// callables when its last owner lets go (inside the request).

#ifndef ZAR_PDO_SIM_SRC_DRIVERS_SQLITE_INTERNAL_H_
#define ZAR_PDO_SIM_SRC_DRIVERS_SQLITE_INTERNAL_H_

#include <sqlite3.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "pdo_sim/sqlite_driver.h"

extern "C" {
#include "ext/pdo/pdo_pool.h"
#include "ext/pdo/php_pdo_driver.h"
}

namespace pdo_sim::sqlite::internal {

struct Entry {
  Entry() {
    ZVAL_UNDEF(&callback);
    ZVAL_UNDEF(&finalize);
  }
  ~Entry() {
    zval_ptr_dtor(&callback);
    zval_ptr_dtor(&finalize);
  }
  Entry(const Entry&) = delete;
  Entry& operator=(const Entry&) = delete;

  enum Kind { kFunction, kAggregate, kCollation };
  Kind kind = kFunction;
  std::string name;
  int arity = -1;
  int flags = 0;
  zval callback;  // function, aggregate step, or collation (one reference)
  zval finalize;  // aggregate finalize (one reference) or UNDEF
};

struct Registry {
  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  std::vector<std::unique_ptr<Entry>> entries;
  // A slot was used: no more registrations.
  bool frozen = false;
};

// Registers entries[from, end) on `db`; false at the first SQLite error.
bool ApplyEntries(sqlite3* db, const Registry& registry, size_t from);

// The registry of a pooled template (made when `create`), or null.
std::shared_ptr<Registry> TemplateRegistry(const pdo_dbh_t* tmpl, bool create);
void ForgetTemplateRegistry(const pdo_dbh_t* tmpl);

// A connected handle's driver_data.
struct SqliteConnection {
  sqlite3* db = nullptr;
  int last_errcode = 0;
  std::string last_errmsg;
  // The slot's statement cache (PDO::ATTR_POOL_STMT_CACHE_SIZE), or null.
  pdo_pool_stmt_cache_t* cache = nullptr;
  bool emulate_prepares = false;
  int64_t timeout_s = 60;  // how long SQLITE_BUSY is retried
  // Pooled: the template's registry (once used); plain: its own.
  std::shared_ptr<Registry> registry;
  size_t registry_applied = 0;
};

inline SqliteConnection* Conn(pdo_dbh_t* dbh) {
  return static_cast<SqliteConnection*>(dbh->driver_data);
}

// Throws PDOException(message).
void ThrowPdoException(const std::string& message);

// A statement's driver_data.
struct SqliteStatement {
  sqlite3_stmt* stmt = nullptr;
  zend_string* nsql = nullptr;  // the cache key, when cached on release
  bool pre_fetched = false;     // execute() stepped onto the first row
  bool done = false;
};

// ---- sqlite_common.cc -------------------------------------------------------

Stats& MutableStats();
absl::flat_hash_set<SqliteConnection*>& LiveConnections();

// Records an SQLite error (code and message) on the statement, or the
// handle, with pdo_sqlite's SQLSTATE for it.
void RecordError(pdo_dbh_t* dbh, pdo_stmt_t* stmt, int errcode,
                 const char* errmsg);
// The same with the connection's last error.
void RecordDbError(pdo_dbh_t* dbh, pdo_stmt_t* stmt);

// sqlite3_step, a busy or locked database retried after waiting on the
// reactor (1, 2, 4 ... 32 ms) until the handle's timeout, when the running
// code can wait.
int Step(SqliteConnection* conn, sqlite3_stmt* stmt);

// A slot's first use freezes its template's registry; entries the slot
// has not applied yet (it was pre-warmed before they were registered) are
// applied now. False with the handle's error set when SQLite refuses one.
bool SyncRegistry(pdo_dbh_t* dbh);

// ---- sqlite_statement.cc ----------------------------------------------------

// The handle method `preparer`: through the slot's statement cache.
bool Prepare(pdo_dbh_t* dbh, zend_string* sql, pdo_stmt_t* stmt,
             zval* driver_options);

}  // namespace pdo_sim::sqlite::internal

#endif  // ZAR_PDO_SIM_SRC_DRIVERS_SQLITE_INTERNAL_H_
