// zend-async-ref pdo_sim: what the "mysql" driver's files share
// (pdo_sim/mysql_driver.h): a connection's and a statement's state, errors
// as pdo_mysql records them, and running Connector/C's non-blocking calls
// on the reactor.
//
// Threading: the engine's thread. Lifetime: a connection and a statement
// are emalloc'd (a handle nobody closed is reported by the request's leak
// check); their MYSQL and MYSQL_STMT are Connector/C's (malloc).

#ifndef ZAR_PDO_SIM_SRC_DRIVERS_MYSQL_INTERNAL_H_
#define ZAR_PDO_SIM_SRC_DRIVERS_MYSQL_INTERNAL_H_

#include <mysql.h>

#include <set>
#include <string>
#include <vector>

#include "pdo_sim/mysql_driver.h"
#include "pdo_sim/src/drivers/reactor_wait.h"

extern "C" {
#include "ext/pdo/php_pdo_driver.h"
}

namespace pdo_sim::mysql::internal {

// pdo_mysql's einfo: the last error's native code and message (0 and ""
// when none).
struct ErrorInfo {
  unsigned int errcode = 0;
  std::string errmsg;
};

// A connected handle's driver_data.
struct MysqlConnection {
  MYSQL* mysql = nullptr;
  // The reactor's poll event on mysql_get_socket().
  pdo_sim::internal::ReactorSocket socket;
  ErrorInfo einfo;
  // PDO::ATTR_EMULATE_PREPARES (pdo_mysql's default: on).
  bool emulate_prepares = true;
  // The DSN's dbname ("" when none): the database a reset session returns
  // to.
  std::string database;
  // The character set to set after connecting and after each session
  // reset: the server's default when the DSN names none (mysqlnd speaks
  // the greeting's, Connector/C its own utf8mb4), else "" (the handshake
  // asked for the DSN's, and a reset keeps that).
  std::string charset;
  // The server's status after the last call that succeeded
  // (SERVER_STATUS_*): the client's view of its session, which a lost
  // connection does not change (Connector/C forgets it, mysqlnd does not).
  unsigned int last_status = 0;
  // The connection was lost with a transaction open, and the client has not
  // ended it: inTransaction() says yes until commit() or rollBack() reports
  // the loss, which ends it.
  bool lost_in_transaction = false;

  // Records the server's status when the last call succeeded.
  void NoteStatus() {
    if (mysql_errno(mysql) != 0) return;
    mariadb_get_infov(mysql, MARIADB_CONNECTION_SERVER_STATUS, &last_status);
  }
};

inline MysqlConnection* Conn(pdo_dbh_t* dbh) {
  return static_cast<MysqlConnection*>(dbh->driver_data);
}

// A statement's driver_data.
struct MysqlStatement {
  ErrorInfo einfo;
  // Emulated prepare (the SQL is the statement's query_string, its
  // placeholders replaced at each execute): the result of the last
  // execute, its current row.
  MYSQL_RES* result = nullptr;
  MYSQL_ROW row = nullptr;
  unsigned long* lengths = nullptr;
  // Server-side prepared statement (null when emulated): its placeholders'
  // names in order ("?" for a positional one) and the current row's
  // columns, fetched as strings.
  MYSQL_STMT* stmt = nullptr;
  std::vector<std::string> param_names;
  MYSQL_RES* metadata = nullptr;
  std::vector<MYSQL_BIND> columns;
  std::vector<std::string> buffers;
  std::vector<unsigned long> out_lengths;
  std::vector<my_bool> out_nulls;
  // The result's columns (of `result` or `metadata`), or null.
  MYSQL_FIELD* fields = nullptr;
};

// ---- mysql_common.cc --------------------------------------------------------

Stats& MutableStats();
// The driver's connected handles (LiveConnectionIds()).
std::set<MysqlConnection*>& LiveConnections();

// Records the last error of `conn` (of `s` when given: the statement's) as
// pdo_mysql's _pdo_mysql_error does: the SQLSTATE in the statement's or the
// handle's error code, the native code and message in its einfo; 2006 (the
// server has gone away) and 2013 (lost during a query) mark the connection
// broken (`dbh`, the slot). Returns the native code (0: no error, the
// SQLSTATE is then "00000").
unsigned int RecordError(pdo_dbh_t* dbh, pdo_stmt_t* stmt, MysqlStatement* s);

// A client error as PDO users see it: pdo_mysql is built over mysqlnd, whose
// texts are not Connector/C's. A connection lost between queries (2006) or
// during one (Connector/C's 2013) is mysqlnd's 2006 "MySQL server has gone
// away" (true-async/php-src ext/mysqlnd/mysqlnd_connection.c,
// mysqlnd_server_gone: mysqlnd reports every packet it could not send or
// read so, and 2013 only for LOAD DATA LOCAL INFILE); a connect that
// reached no server (Connector/C's 2002 for a Unix
// socket, 2003 for TCP) is mysqlnd's 2002 with the socket's own error text
// ("No such file or directory", "Connection refused": mysqlnd_vio.c reports
// the stream's). Anything else is left as it is.
void AsMysqlnd(unsigned int* code, std::string* message);

// One wait of Drive: the wait status to give _cont, or -1 when an exception
// interrupted it.
int WaitFor(MysqlConnection* conn, int status);
// Drive's abandon: every later read and write of the connection fails.
void Abandon(MysqlConnection* conn);

// Runs one non-blocking Connector/C operation to its end. `status` is what
// its _start returned; `cont(wait_status)` calls its _cont and returns the
// next status. While the status asks to wait, the calling coroutine parks
// on the connection's socket (and a timer for MYSQL_WAIT_TIMEOUT) through
// the reactor. Returns false when an exception (a cancellation, the
// reactor's error) interrupted a wait: the operation was abandoned
// (mariadb_cancel, then run to its failed end without waiting), the
// exception stays in flight, and Connector/C reports the failure (2013).
template <typename Cont>
bool Drive(MysqlConnection* conn, int status, Cont&& cont) {
  while (status != 0) {
    const int ready = WaitFor(conn, status);
    if (ready < 0) {
      Abandon(conn);
      // Every read and write now fails at once: the operation ends (with
      // CR_SERVER_LOST) in a few steps; a bound keeps a surprise finite.
      for (int i = 0; status != 0 && i < 64; i++) status = cont(status);
      return false;
    }
    status = cont(ready);
  }
  conn->NoteStatus();
  return true;
}

// A value of column `field` as pdo_mysql over mysqlnd gives it: null,
// an int for the integer types (a string beyond zend_long), a float for
// FLOAT and DOUBLE, else a string.
void ColumnValue(const MYSQL_FIELD& field, const char* data, size_t length,
                 zval* out);

// ---- mysql_statement.cc -----------------------------------------------------

// The handle method `preparer`.
bool Prepare(pdo_dbh_t* dbh, zend_string* sql, pdo_stmt_t* stmt,
             zval* driver_options);

// Reads and frees every further result of the last query (CALL, several
// statements), as pdo_mysql's doer does; false with the error recorded on
// `dbh` (and `stmt`) when one failed.
bool DrainResults(pdo_dbh_t* dbh, pdo_stmt_t* stmt, MysqlStatement* s);

}  // namespace pdo_sim::mysql::internal

#endif  // ZAR_PDO_SIM_SRC_DRIVERS_MYSQL_INTERNAL_H_
