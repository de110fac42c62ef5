// zend-async-ref pdo_sim: what tests can observe of the "mysql" PDO driver
// (a MySQL or MariaDB server through MariaDB Connector/C's non-blocking
// API). Built only where Connector/C was found (ZAR_PDO_MYSQL).
//
//   new PDO("mysql:unix_socket=/tmp/x/mysqld.sock;dbname=test", "root", "")
//
// DSN as pdo_mysql's: host (default "localhost"; the Unix socket is used
// only for "localhost"), port (3306), unix_socket, dbname, charset, user
// and password (when the constructor gives none). Constructor options:
// PDO::ATTR_TIMEOUT (the connect timeout, 30 s when options are given),
// PDO::ATTR_EMULATE_PREPARES (default true, as pdo_mysql: the values are
// quoted into the SQL; false: server-side prepared statements, ":name"
// rewritten to "?"), PDO::ATTR_AUTOCOMMIT.
//
// Every call that talks to the server runs Connector/C's _start/_cont
// functions; when one asks to wait, the calling coroutine parks on the
// reactor (a poll event on the connection's socket, and a timer when
// Connector/C asks for a timeout), so other coroutines run while a query is
// in flight. Outside a coroutine the thread blocks in poll(2). A
// cancellation while a query is in flight abandons it (mariadb_cancel): the
// connection is lost (2006) and broken.
//
// Errors as pdo_mysql reports them: the SQLSTATE is mysql_sqlstate(), the
// native code mysql_errno() and the message mysql_error() (the server's
// text); client errors with mysqlnd's codes and texts, which PDO users see
// (a lost connection is 2006 "MySQL server has gone away", a connect that
// reached no server 2002 with the socket's error, such as "No such file or
// directory"). A lost connection marks it broken, and a pool destroys it
// instead of reusing it. ATTR_SERVER_VERSION is the server's greeting as
// mysqlnd keeps it (MariaDB 10's "5.5.5-" prefix included).
//
// inTransaction() is the server's last reported status, kept when the
// connection is lost (as mysqlnd keeps it) until commit() or rollBack()
// reports the loss, which ends it.
// Results: integer and floating-point columns as PHP ints and floats, NULL
// as null, everything else as strings (pdo_mysql over mysqlnd).
//
// Pooling, as pdo_mysql's: a slot whose SQL left session state behind is
// reset when the next coroutine takes it (mysql_reset_connection,
// COM_RESET_CONNECTION), then its autocommit mode and the DSN's database are
// restored; until then the idle slot's session keeps what it held.
//
// Threading: the engine's thread.

#ifndef ZAR_PDO_SIM_MYSQL_DRIVER_H_
#define ZAR_PDO_SIM_MYSQL_DRIVER_H_

#include <cstdint>
#include <vector>

namespace pdo_sim::mysql {

struct Stats {
  uint64_t connections_opened = 0;
  uint64_t connections_closed = 0;
  uint64_t connect_failures = 0;
  // Statements sent: PDO::exec() and statement executions.
  uint64_t queries = 0;
  // Times a call waited for the server's socket: its coroutine parked on
  // the reactor (or, where nothing can park, the thread blocked).
  uint64_t socket_waits = 0;
  // Sessions reset when a pool handed a dirty slot to the next coroutine.
  uint64_t resets = 0;
  // Transactions rolled back by the driver: PDO::rollBack(), a pool giving
  // back a slot mid-transaction, a handle destroyed mid-transaction.
  uint64_t rollbacks = 0;
  // Operations abandoned because a cancellation interrupted their wait.
  uint64_t cancelled = 0;
};

Stats GetStats();
void ResetStats();
// The server's ids (CONNECTION_ID(), mysql_thread_id) of the driver's
// connections open now, ascending.
std::vector<uint64_t> LiveConnectionIds();

}  // namespace pdo_sim::mysql

#endif  // ZAR_PDO_SIM_MYSQL_DRIVER_H_
