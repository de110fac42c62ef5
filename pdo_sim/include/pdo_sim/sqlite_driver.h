// zend-async-ref pdo_sim: what tests can observe of the "sqlite" PDO
// driver (real SQLite through libsqlite3).
//
// DSNs: "sqlite:/path/to/file.db", "sqlite:file:name?mode=memory&cache=
// shared" (URIs), and, without a pool, "sqlite::memory:". A pooled
// template refuses in-memory databases that are not shared-cache (each
// slot would open its own empty database): PDOException containing
// "in-memory databases cannot be used with PDO::ATTR_POOL_ENABLED".
//
// Pdo\Sqlite (extends PDO) adds createFunction, createAggregate and
// createCollation. On a pooled template they are recorded in the
// template's registry and applied to every slot (pre-warmed ones on their
// first use); the registry freezes when a slot is first used, after which
// they throw; a name registered twice with the same arity throws.
// setAuthorizer, openBlob and loadExtension throw on a pooled template.
//
// SQLITE_BUSY / SQLITE_LOCKED never block the thread: the statement is
// retried after a wait on a reactor timer (1, 2, 4 ... 32 ms) until
// PDO::ATTR_TIMEOUT seconds (default 60) have passed, so other coroutines
// run meanwhile.
//
// Threading: the engine's thread.

#ifndef ZAR_PDO_SIM_SQLITE_DRIVER_H_
#define ZAR_PDO_SIM_SQLITE_DRIVER_H_

#include <cstdint>

namespace pdo_sim::sqlite {

struct Stats {
  uint64_t connections_opened = 0;
  uint64_t connections_closed = 0;
  // sqlite3_prepare_v2 calls for PDO::prepare()/query() (a statement
  // served from a slot's statement cache is not prepared again).
  uint64_t prepares = 0;
  uint64_t cache_hits = 0;
  // Prepared statements sitting in the slots' caches now.
  uint64_t cached_statements = 0;
  // Waits on the reactor after SQLITE_BUSY / SQLITE_LOCKED.
  uint64_t busy_waits = 0;
};

Stats GetStats();
void ResetStats();

}  // namespace pdo_sim::sqlite

#endif  // ZAR_PDO_SIM_SQLITE_DRIVER_H_
