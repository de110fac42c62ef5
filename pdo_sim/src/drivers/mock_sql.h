// zend-async-ref pdo_sim: the mock driver's in-process SQL server.
//
// A small SQL surface, what the PDO tests, the trace scenarios and the
// fault scripts run (each statement has a test in
// tests/pdo/unit/mock_sql_test.cc):
//
//   CREATE [TEMPORARY] TABLE [IF NOT EXISTS] t (column type [words], ...)
//     (INTEGER PRIMARY KEY numbers the rows: the last insert id)
//   INSERT INTO t [(columns)] VALUES (...), ...
//   SELECT * | expression, ... [FROM t [WHERE expression]
//     [ORDER BY expression [ASC | DESC]]]   (COUNT(*), COUNT(x), SUM(x)
//     as select items)
//   UPDATE t SET column = expression, ... [WHERE expression]
//   DELETE FROM t [WHERE expression]
//   START TRANSACTION, COMMIT, ROLLBACK
//   SET @var = ..., SET autocommit = ..., SET name = ... (system variable),
//   SET NAMES charset
//   DO expression, USE database
//
// Expressions: literals (numbers, 'strings' without escapes, NULL), '?'
// and ':name' parameters, @var, @var := ..., @@var, @@session.var,
// columns, a + b, a = b, and the functions CONNECTION_ID(), DATABASE(),
// SLEEP(seconds), GET_LOCK(name, timeout), RELEASE_LOCK(name),
// IS_USED_LOCK(name). Comments are skipped; the bodies of MySQL's
// executable comments (/*!...*/, /*M!...*/) run. Several statements may
// be separated by ';'. Anything else is a syntax error (42000/1064).
// Errors use MySQL's SQLSTATEs and native codes (42S02/1146 unknown
// table, 42S22/1054 unknown column, 42S01/1050 table exists, 21S01/1136
// value count, 42000/1305 unknown function, HY093 parameter number).
//
// Sessions are per connection: user variables, system variables,
// autocommit, temporary tables, named locks, and a transaction whose
// changes only its session sees until COMMIT (rows merged by row id;
// ROLLBACK drops them). With autocommit off every statement opens a
// transaction implicitly, as MySQL does.
//
// Threading: the engine's thread. Lifetime: Server lives for the process;
// Reset() forgets databases, scripts and counters.

#ifndef ZAR_PDO_SIM_SRC_DRIVERS_MOCK_SQL_H_
#define ZAR_PDO_SIM_SRC_DRIVERS_MOCK_SQL_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace pdo_sim::mock::internal {

using Value = std::variant<std::monostate, int64_t, double, std::string>;

struct Row {
  uint64_t rowid = 0;  // unique within its table, never reused
  std::vector<Value> values;
};

// What a column stores, as MySQL converts what it is given: integers
// (TINYINT ... BIGINT), floating point (FLOAT, DOUBLE, REAL), text (any
// other type).
enum class ColumnType { kInteger, kDouble, kText };

struct ColumnDef {
  ColumnType type = ColumnType::kText;
  // NOT NULL (a PRIMARY KEY is): NULL is refused.
  bool not_null = false;
  // DEFAULT <literal>, else NULL; a NOT NULL column without one must be
  // given a value (strict mode).
  std::optional<Value> default_value;
};

struct Table {
  std::string name;  // as created
  std::vector<std::string> columns;
  std::vector<ColumnDef> defs;  // one per column
  int auto_column = -1;         // the AUTO_INCREMENT column, or -1
  std::vector<Row> rows;
  // The next AUTO_INCREMENT value. A transaction's copy uses the committed
  // table's (never rolled back, as in MySQL).
  int64_t next_auto = 1;
};

struct Database {
  std::map<std::string, Table> tables;  // committed state; lowercase names
  uint64_t next_rowid = 1;
};

// A session's open transaction: private copies of the tables it touched,
// with the row ids each copy started from.
struct Transaction {
  struct Copy {
    Table table;
    std::set<uint64_t> base_rowids;
  };
  std::map<std::string, Copy> copies;
};

struct Session {
  int64_t id = 0;
  std::string database;
  std::string default_database;  // the DSN's
  // The character set the connection was made with (the DSN's, else the
  // server's default, latin1): character_set_client, _connection and
  // _results until SET NAMES, and again after a reset.
  std::string charset = "latin1";
  bool autocommit = true;
  bool in_transaction = false;
  Transaction transaction;
  std::map<std::string, Value> user_vars;    // lowercase names, without '@'
  std::map<std::string, Value> system_vars;  // lowercase names
  std::map<std::string, Table> temp_tables;  // lowercase names
  int64_t last_insert_id = 0;
};

struct Error {
  std::string sqlstate;
  int64_t native_code = 0;
  std::string message;
};

struct Result {
  bool ok = true;
  Error error;
  std::vector<std::string> columns;
  std::vector<std::vector<Value>> rows;
  int64_t affected = 0;
  // SLEEP(n) evaluated: how long the statement takes, in milliseconds.
  uint32_t sleep_ms = 0;
};

// Parameters of a prepared statement: positional (0-based) and named
// (without the ':').
struct Params {
  std::vector<Value> positional;
  std::map<std::string, Value> named;
};

// Named locks (GET_LOCK) of the server: lock name -> session id.
using NamedLocks = std::map<std::string, int64_t>;

// Runs one or more ';'-separated statements of `sql` in `session` against
// `db`; the result is the last statement's (or the first error).
Result Execute(Database& db, NamedLocks& locks, Session& session,
               std::string_view sql, const Params& params);

// Ends the session's transaction.
void Commit(Database& db, Session& session);
void Rollback(Session& session);

// COM_RESET_CONNECTION: forgets the session's state (user and system
// variables, temporary tables, named locks; autocommit back to the server's
// default, on) and keeps its current database, as MariaDB does. The
// transaction must have ended.
void ResetSession(NamedLocks& locks, Session& session);

}  // namespace pdo_sim::mock::internal

#endif  // ZAR_PDO_SIM_SRC_DRIVERS_MOCK_SQL_H_
