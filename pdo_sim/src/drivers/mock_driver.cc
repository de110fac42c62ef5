// zend-async-ref pdo_sim: the "mock" and "nopool" PDO drivers
// (pdo_sim/mock_driver.h): PDO's driver interface over the in-process SQL
// server of mock_sql.h, with scripted latency, failures and kills.
//
// A connection's driver_data is a MockConnection allocated with emalloc,
// so a connection nobody closed is reported by the request's leak check.

#include "pdo_sim/mock_driver.h"

#include <algorithm>
#include <set>

#include "pdo_sim/src/drivers/mock_server.h"
#include "pdo_sim/src/drivers/mock_sql.h"
#include "pdo_sim/src/drivers/mock_sql_parse.h"
#include "pdo_sim/src/drivers/reactor_wait.h"

extern "C" {
#include "ext/pdo/pdo_pool.h"
#include "ext/pdo/php_pdo_driver.h"
#include "ext/pdo/php_pdo_int.h"
}

namespace pdo_sim::mock {
namespace {

using internal::Database;
using internal::DeleteInRequest;
using internal::Error;
using internal::MockConnection;
using internal::MockStatement;
using internal::NewInRequest;
using internal::Params;
using internal::Result;
using internal::Server;
using internal::Session;
using internal::TheServer;
using internal::Value;

MockConnection* Conn(pdo_dbh_t* dbh) {
  return static_cast<MockConnection*>(dbh->driver_data);
}

bool Matches(const std::string& pattern, std::string_view sql) {
  if (pattern.empty()) return true;
  return internal::Upper(sql).find(internal::Upper(pattern)) !=
         std::string::npos;
}

// The first scripted failure matching `text`, consumed.
std::optional<Failure> TakeFailure(std::vector<Failure>& failures,
                                   std::string_view text) {
  for (auto it = failures.begin(); it != failures.end(); ++it) {
    if (!Matches(it->pattern, text)) continue;
    Failure failure = *it;
    if (it->times > 0 && --it->times == 0) failures.erase(it);
    return failure;
  }
  return std::nullopt;
}

void SetError(pdo_dbh_t* dbh, pdo_stmt_t* stmt, const Error& error) {
  pdo_error_type* dest = stmt != nullptr ? &stmt->error_code : &dbh->error_code;
  snprintf(*dest, sizeof(pdo_error_type), "%s", error.sqlstate.c_str());
  Conn(dbh)->last_error = error;
  if (stmt != nullptr) {
    static_cast<MockStatement*>(stmt->driver_data)->last_error = error;
  }
}

// The server side of a connection is gone: the handle is broken and its
// transaction lost.
bool Broken(pdo_dbh_t* dbh, pdo_stmt_t* stmt, Error error) {
  dbh->conn_broken = true;
  MockConnection* conn = Conn(dbh);
  if (conn->session.in_transaction) conn->transaction_lost = true;
  internal::Rollback(conn->session);
  SetError(dbh, stmt, error);
  return false;
}

bool CheckAlive(pdo_dbh_t* dbh, pdo_stmt_t* stmt) {
  if (TheServer().killed.count(Conn(dbh)->session.id) == 0) return true;
  return Broken(dbh, stmt, Error{"HY000", 2006, "MySQL server has gone away"});
}

// Waits `ms` on the reactor for the server's answer, which comes at once
// when the connection is killed meanwhile (a server ends the statement
// running on a connection it kills: checked every millisecond). An
// interruption (a cancellation) leaves the connection in an unknown state:
// broken, as the mysql driver reports an abandoned call (mysqlnd's 2006).
bool Wait(pdo_dbh_t* dbh, pdo_stmt_t* stmt, uint32_t ms) {
  const std::set<int64_t>& killed = TheServer().killed;
  const int64_t id = Conn(dbh)->session.id;
  for (uint32_t left = ms; left > 0 && killed.count(id) == 0;) {
    const uint32_t slice = std::min<uint32_t>(left, 1);
    if (!pdo_sim::internal::SleepOnReactor(slice)) {
      return Broken(dbh, stmt,
                    Error{"HY000", 2006, "MySQL server has gone away"});
    }
    left -= slice;
  }
  return CheckAlive(dbh, stmt);
}

bool RunQuery(pdo_dbh_t* dbh, pdo_stmt_t* stmt, std::string_view sql,
              const Params& params, Result* result) {
  Server& server = TheServer();
  server.counters.queries++;
  if (!CheckAlive(dbh, stmt)) return false;
  uint32_t latency = server.query_latency;
  for (const auto& [pattern, ms] : server.latencies) {
    if (Matches(pattern, sql)) latency += ms;
  }
  if (latency > 0 && !Wait(dbh, stmt, latency)) return false;
  if (auto failure = TakeFailure(server.failures, sql)) {
    SetError(dbh, stmt,
             Error{failure->sqlstate, failure->native_code, failure->message});
    return false;
  }
  MockConnection* conn = Conn(dbh);
  *result = internal::Execute(server.databases[conn->session.database],
                              server.locks, conn->session, sql, params);
  if (!result->ok) {
    SetError(dbh, stmt, result->error);
    return false;
  }
  return result->sleep_ms == 0 || Wait(dbh, stmt, result->sleep_ms);
}

// A value execute() gave, as pdo_mysql sends it (execute()'s values are
// PDO_PARAM_STR: emulated prepares quote each in as a string, server-side
// ones bind it as one): NULL, else its text ("42", "2.5", "1" for true, ""
// for false). The server then reads it as it reads a string.
Value ToValue(const zval* value) {
  if (Z_TYPE_P(value) == IS_NULL || Z_TYPE_P(value) == IS_UNDEF) {
    return std::monostate{};
  }
  zend_string* str = zval_get_string(const_cast<zval*>(value));
  std::string out(ZSTR_VAL(str), ZSTR_LEN(str));
  zend_string_release(str);
  return out;
}

// ---- Statements -------------------------------------------------------------

int StmtDtor(pdo_stmt_t* stmt) {
  DeleteInRequest(static_cast<MockStatement*>(stmt->driver_data));
  stmt->driver_data = nullptr;
  return 1;
}

int StmtExecute(pdo_stmt_t* stmt) {
  auto* st = static_cast<MockStatement*>(stmt->driver_data);
  Params params;
  if (stmt->bound_params != nullptr) {
    zend_ulong index;
    zend_string* name;
    zval* value;
    ZEND_HASH_FOREACH_KEY_VAL(stmt->bound_params, index, name, value) {
      if (name != nullptr) {
        std::string key(ZSTR_VAL(name), ZSTR_LEN(name));
        if (!key.empty() && key[0] == ':') key.erase(0, 1);
        params.named[key] = ToValue(value);
      } else {
        if (params.positional.size() <= index) {
          params.positional.resize(index + 1);
        }
        params.positional[index] = ToValue(value);
      }
    }
    ZEND_HASH_FOREACH_END();
  }
  Result result;
  if (!RunQuery(pdo_stmt_conn(stmt), stmt, st->sql, params, &result)) {
    return 0;
  }
  st->result = std::move(result);
  st->next_row = 0;
  php_pdo_stmt_set_column_count(stmt,
                                static_cast<int>(st->result.columns.size()));
  stmt->row_count = st->result.affected;
  return 1;
}

int StmtFetch(pdo_stmt_t* stmt, enum pdo_fetch_orientation, zend_long) {
  auto* st = static_cast<MockStatement*>(stmt->driver_data);
  if (st->next_row >= st->result.rows.size()) return 0;
  st->current_row = st->next_row++;
  return 1;
}

int StmtDescribe(pdo_stmt_t* stmt, int colno) {
  auto* st = static_cast<MockStatement*>(stmt->driver_data);
  const std::string& name = st->result.columns[static_cast<size_t>(colno)];
  stmt->columns[colno].name = zend_string_init(name.data(), name.size(), 0);
  return 1;
}

int StmtGetCol(pdo_stmt_t* stmt, int colno, zval* result,
               enum pdo_param_type*) {
  auto* st = static_cast<MockStatement*>(stmt->driver_data);
  const Value& value =
      st->result.rows[st->current_row][static_cast<size_t>(colno)];
  if (const auto* i = std::get_if<int64_t>(&value)) {
    ZVAL_LONG(result, *i);
  } else if (const auto* d = std::get_if<double>(&value)) {
    ZVAL_DOUBLE(result, *d);
  } else if (const auto* s = std::get_if<std::string>(&value)) {
    ZVAL_STRINGL(result, s->data(), s->size());
  } else {
    ZVAL_NULL(result);
  }
  return 1;
}

const pdo_stmt_methods kStmtMethods = {
    StmtDtor, StmtExecute, StmtFetch, StmtDescribe, StmtGetCol,
};

// ---- Handles ----------------------------------------------------------------

void Close(pdo_dbh_t* dbh) {
  MockConnection* conn = Conn(dbh);
  if (conn == nullptr) return;  // a pool template
  Server& server = TheServer();
  server.live.erase(conn->session.id);
  server.killed.erase(conn->session.id);
  internal::Rollback(conn->session);
  internal::ResetSession(server.locks, conn->session);
  server.counters.connections_closed++;
  DeleteInRequest(conn);
  dbh->driver_data = nullptr;
}

bool Prepare(pdo_dbh_t* dbh, zend_string* sql, pdo_stmt_t* stmt, zval*) {
  TheServer().counters.prepares++;
  if (!CheckAlive(dbh, nullptr)) return false;
  stmt->driver_data =
      NewInRequest<MockStatement>(std::string(ZSTR_VAL(sql), ZSTR_LEN(sql)));
  stmt->methods = &kStmtMethods;
  return true;
}

zend_long Do(pdo_dbh_t* dbh, const zend_string* sql) {
  Result result;
  if (!RunQuery(dbh, nullptr, std::string_view(ZSTR_VAL(sql), ZSTR_LEN(sql)),
                Params{}, &result)) {
    return -1;
  }
  // pdo_mysql's exec() of a statement with rows reports no affected rows.
  return result.columns.empty() ? result.affected : 0;
}

bool Begin(pdo_dbh_t* dbh) {
  if (!CheckAlive(dbh, nullptr)) return false;
  Session& session = Conn(dbh)->session;
  if (session.in_transaction) {
    internal::Commit(TheServer().databases[session.database], session);
  }
  session.in_transaction = true;
  return true;
}

bool EndTransaction(pdo_dbh_t* dbh, bool commit) {
  Server& server = TheServer();
  if (!CheckAlive(dbh, nullptr) ||
      (server.txn_end_latency > 0 &&
       !Wait(dbh, nullptr, server.txn_end_latency))) {
    // The transaction died with the connection (HY000 2006 is set);
    // reporting that ends it.
    Conn(dbh)->transaction_lost = false;
    return false;
  }
  Session& session = Conn(dbh)->session;
  if (commit) {
    internal::Commit(server.databases[session.database], session);
  } else {
    internal::Rollback(session);
    server.counters.rollbacks++;
  }
  return true;
}

bool Commit(pdo_dbh_t* dbh) { return EndTransaction(dbh, true); }
bool Rollback(pdo_dbh_t* dbh) { return EndTransaction(dbh, false); }

// The client's view: a kill is not seen before the server is next spoken
// to, and a transaction lost with its connection stays open until commit()
// or rollBack() reports the loss.
bool InTransaction(pdo_dbh_t* dbh) {
  MockConnection* conn = Conn(dbh);
  return conn != nullptr &&
         (conn->session.in_transaction || conn->transaction_lost);
}

bool SetAttribute(pdo_dbh_t* dbh, zend_long attr, zval* value) {
  MockConnection* conn = Conn(dbh);
  switch (attr) {
    case PDO_ATTR_AUTOCOMMIT: {
      const bool on = zend_is_true(value);
      if (on && conn->session.in_transaction) {
        internal::Commit(TheServer().databases[conn->session.database],
                         conn->session);
      }
      conn->session.autocommit = on;
      return true;
    }
    case PDO_ATTR_EMULATE_PREPARES:
      conn->emulate_prepares = zend_is_true(value);
      return true;
    default:
      return false;  // PDO::ATTR_TIMEOUT too: pdo_mysql takes it at connect
  }
}

int GetAttribute(pdo_dbh_t* dbh, zend_long attr, zval* value) {
  MockConnection* conn = Conn(dbh);
  switch (attr) {
    case PDO_ATTR_AUTOCOMMIT:
      ZVAL_BOOL(value, conn->session.autocommit);
      return 1;
    case PDO_ATTR_EMULATE_PREPARES:
      ZVAL_BOOL(value, conn->emulate_prepares);
      return 1;
    // As a MariaDB 10.11 server reached over its Unix socket answers
    // through mysqlnd (the greeting's version, the host info).
    case PDO_ATTR_SERVER_VERSION:
      ZVAL_STRING(value, "5.5.5-10.11.0-MariaDB-mock");
      return 1;
    case PDO_ATTR_CONNECTION_STATUS:
      ZVAL_STRING(value, "Localhost via UNIX socket");
      return 1;
    default:
      return 0;
  }
}

zend_string* LastId(pdo_dbh_t* dbh, const zend_string*) {
  const std::string id = std::to_string(Conn(dbh)->session.last_insert_id);
  return zend_string_init(id.data(), id.size(), 0);
}

void FetchError(pdo_dbh_t* dbh, pdo_stmt_t* stmt, zval* info) {
  const Error& error =
      stmt != nullptr && stmt->driver_data != nullptr
          ? static_cast<MockStatement*>(stmt->driver_data)->last_error
          : Conn(dbh)->last_error;
  if (error.native_code == 0 && error.message.empty()) return;
  add_next_index_long(info, error.native_code);
  add_next_index_string(info, error.message.c_str());
}

zend_result CheckLiveness(pdo_dbh_t* dbh) {
  MockConnection* conn = Conn(dbh);
  return conn != nullptr && TheServer().killed.count(conn->session.id) == 0
             ? SUCCESS
             : FAILURE;
}

// A slot leaves idle for a coroutine. As pdo_mysql's pool hook: a session
// an earlier coroutine's SQL dirtied is reset now (COM_RESET_CONNECTION),
// by whoever takes the slot; a clean one is handed over as it is, without
// a round trip, so a connection killed while idle is only found out by its
// next statement. A reset of a killed connection fails: the pool destroys
// the slot and tries another. The driver clears the mark.
bool PoolBeforeAcquire(pdo_dbh_t* dbh) {
  if (Conn(dbh) == nullptr) return false;
  if (!dbh->pool_session_dirty) return true;
  if (!CheckAlive(dbh, nullptr)) return false;
  Server& server = TheServer();
  Session& session = Conn(dbh)->session;
  internal::ResetSession(server.locks, session);
  // What the reset does not give back, as the mysql driver puts it back:
  // the handle's autocommit mode and the DSN's database.
  session.autocommit = dbh->auto_commit;
  session.database = session.default_database;
  server.counters.resets++;
  dbh->pool_session_dirty = false;
  return true;
}

const pdo_dbh_methods kMethods = {
    Close,
    Prepare,
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

std::optional<std::string> DsnOption(const pdo_dbh_t* dbh, const char* name) {
  pdo_data_src_parser vars[] = {{name, nullptr, 0}};
  php_pdo_parse_data_source(dbh->data_source, dbh->data_source_len, vars, 1);
  if (vars[0].optval == nullptr) return std::nullopt;
  std::string value(vars[0].optval);
  if (vars[0].freeme) efree(vars[0].optval);
  return value;
}

// Rewrites the handle's credentials the way real drivers do.
void Mutate(pdo_dbh_t* dbh, const std::string& mode) {
  if (mode == "pgsql") {
    for (char* c = const_cast<char*>(dbh->data_source); *c != '\0'; c++) {
      if (*c == ';') *c = ' ';
    }
  } else if (mode == "mysql") {
    if (dbh->username == nullptr) {
      if (auto user = DsnOption(dbh, "user")) {
        dbh->username = estrdup(user->c_str());
      }
    }
    if (dbh->password == nullptr) {
      if (auto password = DsnOption(dbh, "password")) {
        dbh->password = estrdup(password->c_str());
      }
    }
  } else if (mode == "odbc") {
    const std::string rebuilt =
        std::string(dbh->data_source) +
        ";UID=" + (dbh->username != nullptr ? dbh->username : "") +
        ";PWD=" + (dbh->password != nullptr ? dbh->password : "");
    efree(const_cast<char*>(dbh->data_source));
    dbh->data_source = estrdup(rebuilt.c_str());
    dbh->data_source_len = rebuilt.size();
  }
}

int Factory(pdo_dbh_t* dbh, zval* options) {
  Server& server = TheServer();
  server.connect_log.push_back(ConnectAttempt{
      dbh->data_source,
      dbh->username != nullptr ? std::optional<std::string>(dbh->username)
                               : std::nullopt,
      dbh->password != nullptr ? std::optional<std::string>(dbh->password)
                               : std::nullopt});
  const std::string database = DsnOption(dbh, "dbname").value_or("test");
  if (auto mode = DsnOption(dbh, "mutate")) Mutate(dbh, *mode);

  if (server.connect_latency > 0 &&
      !pdo_sim::internal::SleepOnReactor(server.connect_latency)) {
    server.counters.connect_failures++;
    return 0;  // cancelled while connecting
  }
  std::optional<Failure> failure =
      TakeFailure(server.connect_failures, dbh->data_source);
  if (!failure && server.credentials) {
    const char* user = dbh->username != nullptr ? dbh->username : "";
    const char* password = dbh->password != nullptr ? dbh->password : "";
    if (server.credentials->first != user ||
        server.credentials->second != password) {
      failure = Failure{"", "28000", 1045,
                        std::string("Access denied for user '") + user +
                            "'@'localhost' (using password: " +
                            (*password != '\0' ? "YES" : "NO") + ")"};
    }
  }
  if (failure) {
    server.counters.connect_failures++;
    pdo_error_type state;
    snprintf(state, sizeof(state), "%s", failure->sqlstate.c_str());
    pdo_throw_exception(static_cast<unsigned>(failure->native_code),
                        failure->message.c_str(), &state);
    return 0;
  }

  auto* conn = NewInRequest<MockConnection>();
  conn->session.id = server.next_id++;
  conn->session.database = conn->session.default_database = database;
  if (auto charset = DsnOption(dbh, "charset"))
    conn->session.charset = *charset;
  conn->session.autocommit = dbh->auto_commit;
  // pdo_mysql's default.
  conn->emulate_prepares = pdo_attr_lval(options, PDO_ATTR_EMULATE_PREPARES, 1);
  dbh->driver_data = conn;
  dbh->methods = &kMethods;
  server.live[conn->session.id] = conn;
  server.counters.connections_made++;
  return 1;
}

void InitMethods(pdo_dbh_t* dbh, bool* supports_pool) {
  dbh->methods = &kMethods;
  *supports_pool = true;
}

void InitMethodsNoPool(pdo_dbh_t* dbh, bool* supports_pool) {
  dbh->methods = &kMethods;
  *supports_pool = false;
}

}  // namespace
}  // namespace pdo_sim::mock

extern "C" {

const pdo_driver_t pdo_mock_driver = {
    PDO_DRIVER_HEADER(mock),
    pdo_sim::mock::Factory,
    pdo_sim::mock::InitMethods,
};

const pdo_driver_t pdo_nopool_driver = {
    PDO_DRIVER_HEADER(nopool),
    pdo_sim::mock::Factory,
    pdo_sim::mock::InitMethodsNoPool,
};

}  // extern "C"
