// zend-async-ref pdo_sim: what the "mysql" driver's handles and statements
// share (mysql_internal.h): errors, waiting on the reactor, column values.

#include <errmsg.h>
#include <errno.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "pdo_sim/src/drivers/mysql_internal.h"

namespace pdo_sim::mysql::internal {

Stats& MutableStats() {
  static Stats stats;
  return stats;
}

std::set<MysqlConnection*>& LiveConnections() {
  static auto* live = new std::set<MysqlConnection*>;
  return *live;
}

unsigned int RecordError(pdo_dbh_t* dbh, pdo_stmt_t* stmt, MysqlStatement* s) {
  MysqlConnection* conn = Conn(dbh);
  ErrorInfo* einfo = stmt != nullptr ? &s->einfo : &conn->einfo;
  pdo_error_type* pdo_err =
      stmt != nullptr ? &stmt->error_code : &dbh->error_code;
  // A server-side statement's own error, else the connection's.
  MYSQL_STMT* from = s != nullptr ? s->stmt : nullptr;
  einfo->errcode =
      from != nullptr ? mysql_stmt_errno(from) : mysql_errno(conn->mysql);
  if ((einfo->errcode == CR_SERVER_GONE_ERROR ||
       einfo->errcode == CR_SERVER_LOST) &&
      !dbh->conn_broken) {
    dbh->conn_broken = true;  // the pool destroys it instead of reusing it
    conn->lost_in_transaction =
        (conn->last_status & SERVER_STATUS_IN_TRANS) != 0;
  }
  if (einfo->errcode == 0) {
    einfo->errmsg.clear();
    snprintf(*pdo_err, sizeof(pdo_error_type), "%s", PDO_ERR_NONE);
    return 0;
  }
  // pdo_mysql's own texts for two client errors, else Connector/C's (or the
  // server's) message.
  if (einfo->errcode == CR_COMMANDS_OUT_OF_SYNC) {
    einfo->errmsg =
        mysql_more_results(conn->mysql)
            ? "Cannot execute queries while there are pending result sets. "
              "Consider unsetting the previous PDOStatement or calling "
              "PDOStatement::closeCursor()"
            : "Cannot execute queries while other unbuffered queries are "
              "active.  Consider using PDOStatement::fetchAll().  "
              "Alternatively, if your code is only ever going to run against "
              "mysql, you may enable query buffering by setting the "
              "Pdo\\Mysql::ATTR_USE_BUFFERED_QUERY attribute.";
  } else if (einfo->errcode == CR_NEW_STMT_METADATA) {
    einfo->errmsg =
        "A stored procedure returning result sets of different size was "
        "called. This is not supported by libmysql";
  } else {
    einfo->errmsg =
        from != nullptr ? mysql_stmt_error(from) : mysql_error(conn->mysql);
    AsMysqlnd(&einfo->errcode, &einfo->errmsg);
  }
  snprintf(*pdo_err, sizeof(pdo_error_type), "%s",
           from != nullptr ? mysql_stmt_sqlstate(from)
                           : mysql_sqlstate(conn->mysql));
  return einfo->errcode;
}

void AsMysqlnd(unsigned int* code, std::string* message) {
  switch (*code) {
    case CR_SERVER_GONE_ERROR:
      *message = "MySQL server has gone away";
      return;
    case CR_SERVER_LOST:
      *code = CR_SERVER_GONE_ERROR;
      *message = "MySQL server has gone away";
      return;
    case CR_CONNECTION_ERROR:
    case CR_CONN_HOST_ERROR: {
      // Connector/C ends these with the connect's errno: "... (2)".
      const size_t open = message->rfind('(');
      const int error =
          open != std::string::npos ? atoi(message->c_str() + open + 1) : 0;
      if (error <= 0) return;
      *code = CR_CONNECTION_ERROR;
      *message = strerror(error);
      return;
    }
    default:
      return;
  }
}

int WaitFor(MysqlConnection* conn, int status) {
  int interest = 0;
  if (status & MYSQL_WAIT_READ) interest |= ASYNC_READABLE;
  if (status & MYSQL_WAIT_WRITE) interest |= ASYNC_WRITABLE;
  if (status & MYSQL_WAIT_EXCEPT) interest |= ASYNC_PRIORITIZED;
  // Connector/C may ask for 0 ms: a timer of 1 ms then, never "none".
  const uint32_t timeout_ms =
      status & MYSQL_WAIT_TIMEOUT
          ? std::max(1u, mysql_get_timeout_value_ms(conn->mysql))
          : 0;
  MutableStats().socket_waits++;
  async_poll_event ready;
  if (!conn->socket.Wait(mysql_get_socket(conn->mysql),
                         static_cast<async_poll_event>(interest), timeout_ms,
                         &ready)) {
    return -1;
  }
  if (ready == 0) return MYSQL_WAIT_TIMEOUT;
  int out = 0;
  if (ready & ASYNC_READABLE) out |= MYSQL_WAIT_READ;
  if (ready & ASYNC_WRITABLE) out |= MYSQL_WAIT_WRITE;
  if (ready & ASYNC_PRIORITIZED) out |= MYSQL_WAIT_EXCEPT;
  // A hang-up: whatever Connector/C waited for now fails at once.
  if (ready & ASYNC_DISCONNECT)
    out |= status & (MYSQL_WAIT_READ | MYSQL_WAIT_WRITE);
  return out != 0 ? out : status & ~MYSQL_WAIT_TIMEOUT;
}

void Abandon(MysqlConnection* conn) {
  MutableStats().cancelled++;
  mariadb_cancel(conn->mysql);
}

void ColumnValue(const MYSQL_FIELD& field, const char* data, size_t length,
                 zval* out) {
  if (data == nullptr) {
    ZVAL_NULL(out);
    return;
  }
  const std::string text(data, length);
  switch (field.type) {
    case MYSQL_TYPE_TINY:
    case MYSQL_TYPE_SHORT:
    case MYSQL_TYPE_INT24:
    case MYSQL_TYPE_LONG:
    case MYSQL_TYPE_LONGLONG:
    case MYSQL_TYPE_YEAR: {
      char* end = nullptr;
      errno = 0;
      const long long value = strtoll(text.c_str(), &end, 10);
      if (errno == 0 && end != nullptr && *end == '\0' && !text.empty()) {
        ZVAL_LONG(out, static_cast<zend_long>(value));
        return;
      }
      break;  // beyond zend_long (a large UNSIGNED BIGINT): a string
    }
    case MYSQL_TYPE_FLOAT:
    case MYSQL_TYPE_DOUBLE:
      ZVAL_DOUBLE(out, strtod(text.c_str(), nullptr));
      return;
    default:
      break;
  }
  ZVAL_STRINGL(out, data, length);
}

}  // namespace pdo_sim::mysql::internal

namespace pdo_sim::mysql {

Stats GetStats() { return internal::MutableStats(); }

void ResetStats() { internal::MutableStats() = Stats{}; }

std::vector<uint64_t> LiveConnectionIds() {
  std::vector<uint64_t> ids;
  for (internal::MysqlConnection* conn : internal::LiveConnections()) {
    ids.push_back(mysql_thread_id(conn->mysql));
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace pdo_sim::mysql
