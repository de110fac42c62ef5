// zend-async-ref pdo_sim: scripting the "mock" PDO driver from C++ tests.
//
// The mock driver is an in-process database server (pdo_sim/src/drivers):
//
//   new PDO("mock:dbname=shop", user, password, options)
//
// DSN options (';'-separated name=value): dbname (the database; default
// "test"), charset (the connection's; default the server's, latin1), user
// and password (see mutate=mysql), mutate (how the driver
// rewrites the credentials it is given, as real drivers do: "pgsql" turns
// every ';' of the DSN into ' ', "mysql" fills the username and password
// from the DSN's user= and password= when they were not given, "odbc"
// rebuilds the DSN as "<dsn>;UID=<user>;PWD=<password>").
// The driver "nopool" is the same server whose templates refuse
// PDO::ATTR_POOL_ENABLED.
//
// Its SQL (pdo_sim/src/drivers/mock_sql.h lists it): CREATE [TEMPORARY]
// TABLE [IF NOT EXISTS], INSERT, SELECT (WHERE a = b, ORDER BY one key,
// COUNT/SUM), UPDATE, DELETE, START TRANSACTION / COMMIT / ROLLBACK,
// SET @var = ..., SET autocommit, SET name = ..., DO, USE; '+' and '=';
// functions CONNECTION_ID(), DATABASE(), SLEEP(seconds), GET_LOCK(name,
// t), RELEASE_LOCK(name), IS_USED_LOCK(name); @var, @@autocommit,
// @@session.name; '?' and ':name' parameters. Errors carry MySQL's
// SQLSTATEs and native codes (42S02/1146 "Table 'db.t' doesn't exist",
// 42S22/1054, 42000/1064).
//
// Each connection has a session (CONNECTION_ID(), user variables,
// autocommit, temporary tables, named locks) and its own transaction:
// its changes are invisible to other connections until COMMIT; ROLLBACK
// (or the pool's rollback on release) drops them. With autocommit off
// every statement opens a transaction, as MySQL does.
//
// Latency suspends the calling coroutine on a reactor timer (the scheduler
// keeps running others); tests assert order and outcome, never durations.
//
// Threading: the engine's thread. Lifetime: the server state lives for the
// process; Reset() (call it in SetUp) forgets databases, scripts and
// counters. Connections are PDO handles and die with them.

#ifndef ZAR_PDO_SIM_MOCK_DRIVER_H_
#define ZAR_PDO_SIM_MOCK_DRIVER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pdo_sim::mock {

// An error the server returns.
struct Failure {
  // Case-insensitive substring of the SQL that triggers it ("" = any).
  std::string pattern;
  std::string sqlstate = "HY000";
  int64_t native_code = 0;
  std::string message = "injected failure";
  // How many more times it triggers; -1 = every time.
  int times = -1;
};

struct Counters {
  uint64_t connections_made = 0;    // successful connects
  uint64_t connections_closed = 0;  // closed handles
  uint64_t connect_failures = 0;
  uint64_t queries = 0;    // PDO::exec() and statement executions
  uint64_t prepares = 0;   // PDO::prepare() and PDO::query()
  uint64_t rollbacks = 0;  // transactions rolled back by ROLLBACK or PDO
  uint64_t resets = 0;     // session resets when a pool hands a dirty slot
                           // to the next coroutine
};

// What the driver received when asked to connect (before it rewrote any
// of it).
struct ConnectAttempt {
  std::string data_source;
  std::optional<std::string> username;
  std::optional<std::string> password;
};

// Forgets every database, script (latencies, failures, credentials) and
// counter. Live connections keep their sessions.
void Reset();

Counters GetCounters();
// Connections open now, and their CONNECTION_ID()s in connect order.
uint32_t LiveConnections();
std::vector<int64_t> LiveConnectionIds();
// Every connect attempt since Reset(), in order.
std::vector<ConnectAttempt> ConnectLog();

// Latency of every query (added to SLEEP()s), of the queries matching a
// pattern (case-insensitive substring), of connecting, and of ending a
// transaction (COMMIT / ROLLBACK through PDO or the pool's rollback).
void SetQueryLatency(uint32_t ms);
void SetLatency(const std::string& pattern, uint32_t ms);
void SetConnectLatency(uint32_t ms);
void SetTransactionEndLatency(uint32_t ms);

// The next matching statements fail with `failure`.
void InjectFailure(const Failure& failure);
// The next connects fail (PDOException "SQLSTATE[%s] [%d] %s").
void FailConnect(const Failure& failure);
// Connects must present these credentials, else they fail with
// SQLSTATE[28000] [1045] "Access denied for user '<user>'".
void RequireCredentials(const std::string& username,
                        const std::string& password);

// Kills a connection server-side: its next use fails with SQLSTATE HY000,
// native 2006 "MySQL server has gone away", and marks the handle broken
// (a pool destroys it instead of reusing it); its transaction is lost.
// False if no live connection has that id.
bool KillConnection(int64_t connection_id);

// The CONNECTION_ID() holding named lock `name` (GET_LOCK), as
// IS_USED_LOCK(name) answers it; nullopt when it is free.
std::optional<int64_t> LockHolder(const std::string& name);

// The committed rows of a table (NULL as "NULL"), for checking from
// outside any connection; empty when the table does not exist.
std::vector<std::vector<std::string>> CommittedRows(const std::string& database,
                                                    const std::string& table);

}  // namespace pdo_sim::mock

#endif  // ZAR_PDO_SIM_MOCK_DRIVER_H_
