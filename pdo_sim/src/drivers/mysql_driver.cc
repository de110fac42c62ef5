// zend-async-ref pdo_sim: the "mysql" PDO driver over MariaDB Connector/C's
// non-blocking API (pdo_sim/mysql_driver.h): connecting, the handle's
// methods, the pool's hooks.
//
// Follows php-src's pdo_mysql where PDO users can see it (the DSN, START
// TRANSACTION / COMMIT / ROLLBACK, the server's in-transaction status,
// errors, last insert id, attributes), waiting on the reactor instead of
// blocking the thread.

#include "pdo_sim/mysql_driver.h"

#include <cstdlib>
#include <new>
#include <string>

#include "pdo_sim/src/drivers/mysql_internal.h"

extern "C" {
#include "ext/pdo/php_pdo_int.h"
}

namespace pdo_sim::mysql {
namespace {

using internal::Conn;
using internal::Drive;
using internal::MutableStats;
using internal::MysqlConnection;
using internal::RecordError;

// ---- Commands ---------------------------------------------------------------

// mysql_real_query of `sql`, its result (if any) read and freed, and every
// further result: the affected rows, or -1 with the error recorded.
zend_long RunCommand(pdo_dbh_t* dbh, const char* sql, size_t len) {
  MysqlConnection* conn = Conn(dbh);
  int err = 0;
  Drive(conn, mysql_real_query_start(&err, conn->mysql, sql, len),
        [&](int ready) {
          return mysql_real_query_cont(&err, conn->mysql, ready);
        });
  if (err != 0) {
    RecordError(dbh, nullptr, nullptr);
    return -1;
  }
  zend_long affected = 0;
  if (mysql_field_count(conn->mysql) > 0) {
    // A query with rows, through exec(): pdo_mysql reports 0 rows.
    MYSQL_RES* result = nullptr;
    Drive(conn, mysql_store_result_start(&result, conn->mysql), [&](int ready) {
      return mysql_store_result_cont(&result, conn->mysql, ready);
    });
    if (result == nullptr) {
      RecordError(dbh, nullptr, nullptr);
      return -1;
    }
    mysql_free_result(result);
  } else {
    affected = static_cast<zend_long>(mysql_affected_rows(conn->mysql));
  }
  if (!internal::DrainResults(dbh, nullptr, nullptr)) return -1;
  return affected;
}

// A call of Connector/C whose result is its failure (a my_bool for commit,
// rollback, autocommit; an int for reset, select_db, set_character_set)
// through its _start/_cont; false with the error recorded.
template <typename Failed, typename Start, typename Cont>
bool RunCall(pdo_dbh_t* dbh, Start start, Cont cont) {
  MysqlConnection* conn = Conn(dbh);
  Failed failed = 0;
  Drive(conn, start(&failed), [&](int ready) { return cont(&failed, ready); });
  if (failed) {
    RecordError(dbh, nullptr, nullptr);
    return false;
  }
  return true;
}

// SET NAMES conn->charset (nothing when it is ""); false with the error
// recorded.
bool SetCharset(pdo_dbh_t* dbh) {
  MysqlConnection* conn = Conn(dbh);
  if (conn->charset.empty()) return true;
  MYSQL* mysql = conn->mysql;
  return RunCall<int>(
      dbh,
      [&](int* r) {
        return mysql_set_character_set_start(r, mysql, conn->charset.c_str());
      },
      [&](int* r, int ready) {
        return mysql_set_character_set_cont(r, mysql, ready);
      });
}

bool SetAutocommit(pdo_dbh_t* dbh, bool on) {
  MYSQL* mysql = Conn(dbh)->mysql;
  return RunCall<my_bool>(
      dbh, [&](my_bool* r) { return mysql_autocommit_start(r, mysql, on); },
      [&](my_bool* r, int ready) {
        return mysql_autocommit_cont(r, mysql, ready);
      });
}

// ---- Handles ----------------------------------------------------------------

// Frees a connection (connected or not) and detaches it from `dbh`.
void Discard(pdo_dbh_t* dbh) {
  MysqlConnection* conn = Conn(dbh);
  // The poll event first: it must never watch a closed descriptor.
  conn->socket.Close();
  mysql_close(conn->mysql);  // COM_QUIT: a write, never a wait
  conn->~MysqlConnection();
  efree(conn);
  dbh->driver_data = nullptr;
}

void Close(pdo_dbh_t* dbh) {
  if (Conn(dbh) == nullptr) return;  // a pool template
  internal::LiveConnections().erase(Conn(dbh));
  Discard(dbh);
  MutableStats().connections_closed++;
}

zend_long Do(pdo_dbh_t* dbh, const zend_string* sql) {
  MutableStats().queries++;
  return RunCommand(dbh, ZSTR_VAL(sql), ZSTR_LEN(sql));
}

bool Begin(pdo_dbh_t* dbh) {
  return RunCommand(dbh, ZEND_STRL("START TRANSACTION")) >= 0;
}

// COMMIT or ROLLBACK through Connector/C's call for it.
// A transaction lost with its connection ends when this reports the loss.
bool EndTransaction(pdo_dbh_t* dbh, int (*start)(my_bool*, MYSQL*),
                    int (*cont)(my_bool*, MYSQL*, int)) {
  MysqlConnection* conn = Conn(dbh);
  MYSQL* mysql = conn->mysql;
  const bool ended = RunCall<my_bool>(
      dbh, [&](my_bool* r) { return start(r, mysql); },
      [&](my_bool* r, int ready) { return cont(r, mysql, ready); });
  conn->lost_in_transaction = false;
  return ended;
}

bool Commit(pdo_dbh_t* dbh) {
  return EndTransaction(dbh, mysql_commit_start, mysql_commit_cont);
}

bool Rollback(pdo_dbh_t* dbh) {
  MutableStats().rollbacks++;
  return EndTransaction(dbh, mysql_rollback_start, mysql_rollback_cont);
}

// The server's last reported status: a transaction opened with SQL counts;
// a connection killed meanwhile still says what it last said until the
// client learns of the loss, and then until commit() or rollBack() reports
// it.
bool InTransaction(pdo_dbh_t* dbh) {
  MysqlConnection* conn = Conn(dbh);
  if (conn == nullptr) return false;
  if (dbh->conn_broken) return conn->lost_in_transaction;
  unsigned int status = 0;
  mariadb_get_infov(conn->mysql, MARIADB_CONNECTION_SERVER_STATUS, &status);
  return (status & SERVER_STATUS_IN_TRANS) != 0;
}

bool SetAttribute(pdo_dbh_t* dbh, zend_long attr, zval* value) {
  bool on;
  switch (attr) {
    case PDO_ATTR_AUTOCOMMIT:
      if (!pdo_get_bool_param(&on, value)) return false;
      if (dbh->auto_commit != on) {
        dbh->auto_commit = on;
        if (!SetAutocommit(dbh, on)) return false;
      }
      return true;
    case PDO_ATTR_EMULATE_PREPARES:
      if (!pdo_get_bool_param(&on, value)) return false;
      Conn(dbh)->emulate_prepares = on;
      return true;
    default:
      return false;
  }
}

int GetAttribute(pdo_dbh_t* dbh, zend_long attr, zval* value) {
  MysqlConnection* conn = Conn(dbh);
  switch (attr) {
    case PDO_ATTR_CLIENT_VERSION:
      ZVAL_STRING(value, mysql_get_client_info());
      return 1;
    case PDO_ATTR_SERVER_VERSION: {
      // mysqlnd keeps the greeting's version as it came: a MariaDB server
      // before 11.0 puts "5.5.5-" before its own (for old replicas), which
      // Connector/C takes off.
      std::string version = mysql_get_server_info(conn->mysql);
      if (mariadb_connection(conn->mysql) &&
          mysql_get_server_version(conn->mysql) < 110000) {
        version = "5.5.5-" + version;
      }
      ZVAL_STRINGL(value, version.data(), version.size());
      return 1;
    }
    case PDO_ATTR_CONNECTION_STATUS:
      ZVAL_STRING(value, mysql_get_host_info(conn->mysql));
      return 1;
    case PDO_ATTR_SERVER_INFO: {
      const char* stat = nullptr;
      Drive(conn, mysql_stat_start(&stat, conn->mysql), [&](int ready) {
        return mysql_stat_cont(&stat, conn->mysql, ready);
      });
      if (stat == nullptr) {
        RecordError(dbh, nullptr, nullptr);
        return -1;
      }
      ZVAL_STRING(value, stat);
      return 1;
    }
    case PDO_ATTR_AUTOCOMMIT:
      ZVAL_BOOL(value, dbh->auto_commit);
      return 1;
    case PDO_ATTR_EMULATE_PREPARES:
      ZVAL_BOOL(value, conn->emulate_prepares);
      return 1;
    default:
      return 0;
  }
}

zend_string* LastId(pdo_dbh_t* dbh, const zend_string*) {
  const std::string id = std::to_string(mysql_insert_id(Conn(dbh)->mysql));
  return zend_string_init(id.data(), id.size(), 0);
}

void FetchError(pdo_dbh_t* dbh, pdo_stmt_t* stmt, zval* info) {
  const internal::ErrorInfo& einfo =
      stmt != nullptr && stmt->driver_data != nullptr
          ? static_cast<internal::MysqlStatement*>(stmt->driver_data)->einfo
          : Conn(dbh)->einfo;
  if (einfo.errcode == 0) return;
  add_next_index_long(info, einfo.errcode);
  add_next_index_string(info, einfo.errmsg.c_str());
}

// COM_PING.
zend_result CheckLiveness(pdo_dbh_t* dbh) {
  MysqlConnection* conn = Conn(dbh);
  if (conn == nullptr || dbh->conn_broken) return FAILURE;
  int err = 0;
  Drive(conn, mysql_ping_start(&err, conn->mysql),
        [&](int ready) { return mysql_ping_cont(&err, conn->mysql, ready); });
  return err == 0 ? SUCCESS : FAILURE;
}

// A slot leaves idle for a coroutine. As pdo_mysql's pool hook
// (true-async/php-src ext/pdo_mysql/mysql_driver.c, 079b9eea): a session an
// earlier coroutine's SQL dirtied is reset now, by whoever takes the slot
// (COM_RESET_CONNECTION: variables, temporary tables, locks, prepared
// statements), so what it held - a GET_LOCK, say - is held while the slot
// idles; a clean one is handed over without a round trip. What the reset
// does not give back is put back: the handle's autocommit mode, the
// character set it speaks (a reset brings back the handshake's) and the
// DSN's database (a reset keeps the current one). A reset that fails (the
// connection is gone) refuses the slot: the pool destroys it. The driver
// clears the mark.
bool PoolBeforeAcquire(pdo_dbh_t* dbh) {
  MysqlConnection* conn = Conn(dbh);
  if (conn == nullptr || dbh->conn_broken) return false;
  if (!dbh->pool_session_dirty) return true;
  MYSQL* mysql = conn->mysql;
  const bool reset =
      RunCall<int>(
          dbh, [&](int* r) { return mysql_reset_connection_start(r, mysql); },
          [&](int* r, int ready) {
            return mysql_reset_connection_cont(r, mysql, ready);
          }) &&
      (dbh->auto_commit || SetAutocommit(dbh, false)) && SetCharset(dbh) &&
      (conn->database.empty() ||
       RunCall<int>(
           dbh,
           [&](int* r) {
             return mysql_select_db_start(r, mysql, conn->database.c_str());
           },
           [&](int* r, int ready) {
             return mysql_select_db_cont(r, mysql, ready);
           }));
  if (!reset) return false;
  MutableStats().resets++;
  dbh->pool_session_dirty = false;
  return true;
}

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
    PoolBeforeAcquire,
    nullptr,  // pool_before_release: the session is reset at the next acquire
};

// ---- Connecting -------------------------------------------------------------

// pdo_mysql's DSN options, in its order.
enum DsnOption {
  kCharset,
  kDbname,
  kHost,
  kPort,
  kUnixSocket,
  kUser,
  kPassword
};

int Factory(pdo_dbh_t* dbh, zval* options) {
  pdo_data_src_parser vars[] = {{"charset", nullptr, 0},
                                {"dbname", const_cast<char*>(""), 0},
                                {"host", const_cast<char*>("localhost"), 0},
                                {"port", const_cast<char*>("3306"), 0},
                                {"unix_socket", nullptr, 0},
                                {"user", nullptr, 0},
                                {"password", nullptr, 0}};
  php_pdo_parse_data_source(dbh->data_source, dbh->data_source_len, vars,
                            sizeof(vars) / sizeof(vars[0]));
  const std::string host = vars[kHost].optval;
  const unsigned port = static_cast<unsigned>(atoi(vars[kPort].optval));
  const char* unix_socket =
      host == "localhost" ? vars[kUnixSocket].optval : nullptr;
  if (dbh->username == nullptr && vars[kUser].optval != nullptr) {
    dbh->username = estrdup(vars[kUser].optval);
  }
  if (dbh->password == nullptr && vars[kPassword].optval != nullptr) {
    dbh->password = estrdup(vars[kPassword].optval);
  }

  auto* conn = new (emalloc(sizeof(MysqlConnection))) MysqlConnection;
  conn->database = vars[kDbname].optval;
  conn->emulate_prepares =
      pdo_attr_lval(options, PDO_ATTR_EMULATE_PREPARES, 1) != 0;
  conn->mysql = mysql_init(nullptr);
  mysql_options(conn->mysql, MYSQL_OPT_NONBLOCK, nullptr);
  if (options != nullptr) {
    const unsigned timeout =
        static_cast<unsigned>(pdo_attr_lval(options, PDO_ATTR_TIMEOUT, 30));
    mysql_options(conn->mysql, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
  }
  const unsigned local_infile = 0;
  mysql_options(conn->mysql, MYSQL_OPT_LOCAL_INFILE, &local_infile);
  if (vars[kCharset].optval != nullptr) {
    mysql_options(conn->mysql, MYSQL_SET_CHARSET_NAME, vars[kCharset].optval);
  }

  const std::string dsn_charset =
      vars[kCharset].optval != nullptr ? vars[kCharset].optval : "";
  MYSQL* connected = nullptr;
  const bool waited =
      Drive(conn,
            mysql_real_connect_start(
                &connected, conn->mysql, host.c_str(), dbh->username,
                dbh->password, conn->database.c_str(), port, unix_socket,
                CLIENT_MULTI_RESULTS | CLIENT_MULTI_STATEMENTS),
            [&](int ready) {
              return mysql_real_connect_cont(&connected, conn->mysql, ready);
            });
  for (pdo_data_src_parser& var : vars) {
    if (var.freeme) efree(var.optval);
  }
  dbh->driver_data = conn;
  if (connected == nullptr) {
    MutableStats().connect_failures++;
    // "SQLSTATE[HY000] [2002] ...", as pdo_mysql throws it; a cancellation
    // while connecting stays the exception in flight.
    if (waited) {
      pdo_error_type state;
      snprintf(state, sizeof(state), "%s", mysql_sqlstate(conn->mysql));
      unsigned int code = mysql_errno(conn->mysql);
      std::string message = mysql_error(conn->mysql);
      internal::AsMysqlnd(&code, &message);
      pdo_throw_exception(code, message.c_str(), &state);
    }
    Discard(dbh);
    return 0;
  }
  // Without a charset in the DSN, mysqlnd speaks the server's default (the
  // greeting's), where Connector/C asked for its own.
  if (dsn_charset.empty()) {
    const MARIADB_CHARSET_INFO* server_charset =
        mariadb_get_charset_by_nr(conn->mysql->server_language);
    if (server_charset != nullptr) conn->charset = server_charset->csname;
  }
  if ((!dbh->auto_commit && !SetAutocommit(dbh, false)) || !SetCharset(dbh)) {
    if (EG(exception) == nullptr) {
      pdo_throw_exception(conn->einfo.errcode, conn->einfo.errmsg.c_str(),
                          &dbh->error_code);
    }
    Discard(dbh);
    return 0;
  }
  dbh->methods = &kMethods;
  MutableStats().connections_opened++;
  internal::LiveConnections().insert(conn);
  return 1;
}

void InitMethods(pdo_dbh_t* dbh, bool* supports_pool) {
  dbh->methods = &kMethods;
  *supports_pool = true;
}

}  // namespace
}  // namespace pdo_sim::mysql

extern "C" {

const pdo_driver_t pdo_mysql_driver = {
    PDO_DRIVER_HEADER(mysql),
    pdo_sim::mysql::Factory,
    pdo_sim::mysql::InitMethods,
};

}  // extern "C"
