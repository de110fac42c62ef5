#include "tests/pdo/support/driver_test.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <thread>

#ifdef ZAR_PDO_MYSQL
#include <mysql.h>

#include "testing/mariadb/server_environment.h"

// One private server for the test binary, started by its first mysql test.
ZAR_MARIADB_SERVER_ENVIRONMENT();
#endif

namespace zar::testing::pdo {

std::vector<Driver> BuiltDrivers() {
#ifdef ZAR_PDO_MYSQL
  return {Driver::kMock, Driver::kMysql};
#else
  return {Driver::kMock};
#endif
}

std::string DriverName(const ::testing::TestParamInfo<Driver>& info) {
  return info.param == Driver::kMysql ? "mysql" : "mock";
}

void PrintTo(Driver driver, std::ostream* out) {
  *out << (driver == Driver::kMysql ? "mysql" : "mock");
}

#ifdef ZAR_PDO_MYSQL

// The test's own connection to the private server, as root, blocking:
// another client than the PDO objects under test.
class ServerConnection {
 public:
  explicit ServerConnection(const mariadb::Server& server)
      : mysql_(mysql_init(nullptr)) {
    if (mysql_real_connect(mysql_, nullptr, mariadb::Server::kUser, nullptr,
                           nullptr, 0, server.socket_path().c_str(),
                           0) == nullptr) {
      ADD_FAILURE() << "connecting to the private server: "
                    << mysql_error(mysql_);
    }
  }
  ~ServerConnection() { mysql_close(mysql_); }
  ServerConnection(const ServerConnection&) = delete;
  ServerConnection& operator=(const ServerConnection&) = delete;

  // Runs `sql`: "" or the server's error as "<code> <message>".
  std::string Exec(const std::string& sql) {
    if (mysql_real_query(mysql_, sql.data(), sql.size()) != 0) {
      return std::to_string(mysql_errno(mysql_)) + " " + mysql_error(mysql_);
    }
    if (MYSQL_RES* result = mysql_store_result(mysql_)) {
      mysql_free_result(result);
    }
    return "";
  }

  // Runs `sql`, which must succeed: its rows, each value as text (NULL as
  // "NULL").
  std::vector<std::vector<std::string>> Rows(const std::string& sql) {
    std::vector<std::vector<std::string>> rows;
    if (mysql_real_query(mysql_, sql.data(), sql.size()) != 0) {
      ADD_FAILURE() << sql << ": " << mysql_error(mysql_);
      return rows;
    }
    MYSQL_RES* result = mysql_store_result(mysql_);
    if (result == nullptr) return rows;
    const unsigned columns = mysql_num_fields(result);
    while (MYSQL_ROW row = mysql_fetch_row(result)) {
      const unsigned long* lengths = mysql_fetch_lengths(result);
      std::vector<std::string> values;
      for (unsigned i = 0; i < columns; i++) {
        values.push_back(row[i] != nullptr ? std::string(row[i], lengths[i])
                                           : "NULL");
      }
      rows.push_back(std::move(values));
    }
    mysql_free_result(result);
    return rows;
  }

  // The connections of the PDO objects under test: every client session
  // but this one.
  std::vector<zend_long> ClientIds() {
    std::vector<zend_long> ids;
    for (const auto& row :
         Rows("SELECT ID FROM information_schema.PROCESSLIST WHERE ID <> "
              "CONNECTION_ID() AND COMMAND <> 'Daemon' AND USER <> 'system "
              "user' ORDER BY ID")) {
      ids.push_back(std::stoll(row[0]));
    }
    return ids;
  }

 private:
  MYSQL* mysql_;
};

#else

class ServerConnection {};

#endif

DriverTest::DriverTest() = default;
DriverTest::~DriverTest() = default;

void DriverTest::SetUp() {
  PdoTest::SetUp();
  if (HasFatalFailure() || !OnMysql()) return;
#ifdef ZAR_PDO_MYSQL
  pdo_sim::mysql::ResetStats();
  mariadb::Server* server = mariadb::RequireServer();
  if (server == nullptr) return;  // skipped, or failed
  server_ = std::make_unique<ServerConnection>(*server);
  // Every test starts from empty databases, as the mock's Reset() gives.
  for (const char* database : {"shop", "other"}) {
    ASSERT_EQ(server_->Exec(std::string("DROP DATABASE IF EXISTS ") + database),
              "");
    ASSERT_EQ(server_->Exec(std::string("CREATE DATABASE ") + database), "");
  }
  ASSERT_EQ(server_->Exec("DROP USER IF EXISTS 'app'@'localhost'"), "");
#endif
}

std::string DriverTest::Dsn(const std::string& database) const {
#ifdef ZAR_PDO_MYSQL
  if (OnMysql()) return mariadb::SharedServer()->Dsn(database);
#endif
  return "mock:dbname=" + database;
}

Pdo DriverTest::Open(const Options& options,
                     const std::optional<std::string>& username,
                     const std::optional<std::string>& password) {
#ifdef ZAR_PDO_MYSQL
  if (OnMysql() && !username) {
    return Pdo::Open(Dsn(), options, std::string(mariadb::Server::kUser),
                     std::string());
  }
#endif
  return Pdo::Open(Dsn(), options, username, password);
}

void DriverTest::RequireCredentials(const std::string& username,
                                    const std::string& password) {
  if (!OnMysql()) {
    pdo_sim::mock::RequireCredentials(username, password);
    return;
  }
#ifdef ZAR_PDO_MYSQL
  const std::string user = "'" + username + "'@'localhost'";
  EXPECT_EQ(server_->Exec("DROP USER IF EXISTS " + user), "");
  EXPECT_EQ(server_->Exec("CREATE USER " + user + " IDENTIFIED BY '" +
                          password + "'"),
            "");
  EXPECT_EQ(server_->Exec("GRANT ALL ON shop.* TO " + user), "");
#endif
}

void DriverTest::QueriesWait() {
  if (!OnMysql()) pdo_sim::mock::SetQueryLatency(1);
}

void DriverTest::ConnectsWait() {
  if (!OnMysql()) pdo_sim::mock::SetConnectLatency(5);
}

void DriverTest::TransactionEndsWait() {
  if (!OnMysql()) pdo_sim::mock::SetTransactionEndLatency(5);
}

namespace {

// What a driver counted: the mock's `mock` counter, the mysql driver's
// `mysql` one.
#ifdef ZAR_PDO_MYSQL
using MysqlCounter = uint64_t pdo_sim::mysql::Stats::*;
#define ZAR_MYSQL_COUNTER(name) (&pdo_sim::mysql::Stats::name)
#else
using MysqlCounter = std::nullptr_t;
#define ZAR_MYSQL_COUNTER(name) nullptr
#endif

uint64_t Count(bool on_mysql, uint64_t pdo_sim::mock::Counters::*mock,
               [[maybe_unused]] MysqlCounter mysql) {
#ifdef ZAR_PDO_MYSQL
  if (on_mysql) return pdo_sim::mysql::GetStats().*mysql;
#endif
  return pdo_sim::mock::GetCounters().*mock;
}

}  // namespace

uint64_t DriverTest::ConnectionsMade() const {
  return Count(OnMysql(), &pdo_sim::mock::Counters::connections_made,
               ZAR_MYSQL_COUNTER(connections_opened));
}

uint64_t DriverTest::ConnectionsClosed() const {
  return Count(OnMysql(), &pdo_sim::mock::Counters::connections_closed,
               ZAR_MYSQL_COUNTER(connections_closed));
}

uint64_t DriverTest::ConnectFailures() const {
  return Count(OnMysql(), &pdo_sim::mock::Counters::connect_failures,
               ZAR_MYSQL_COUNTER(connect_failures));
}

uint64_t DriverTest::Queries() const {
  return Count(OnMysql(), &pdo_sim::mock::Counters::queries,
               ZAR_MYSQL_COUNTER(queries));
}

uint64_t DriverTest::Resets() const {
  return Count(OnMysql(), &pdo_sim::mock::Counters::resets,
               ZAR_MYSQL_COUNTER(resets));
}

uint64_t DriverTest::Rollbacks() const {
  return Count(OnMysql(), &pdo_sim::mock::Counters::rollbacks,
               ZAR_MYSQL_COUNTER(rollbacks));
}

uint64_t DriverTest::LiveConnections() const {
  if (!OnMysql()) return pdo_sim::mock::LiveConnections();
  return ConnectionsMade() - ConnectionsClosed();
}

std::vector<zend_long> DriverTest::LiveConnectionIds() const {
  std::vector<zend_long> ids;
#ifdef ZAR_PDO_MYSQL
  if (OnMysql()) {
    for (const uint64_t id : pdo_sim::mysql::LiveConnectionIds()) {
      ids.push_back(static_cast<zend_long>(id));
    }
    return ids;
  }
#endif
  for (const int64_t id : pdo_sim::mock::LiveConnectionIds()) {
    ids.push_back(static_cast<zend_long>(id));
  }
  return ids;
}

bool DriverTest::Kill(zend_long id) {
  if (!OnMysql()) return pdo_sim::mock::KillConnection(id);
#ifdef ZAR_PDO_MYSQL
  if (!server_->Exec("KILL " + std::to_string(id)).empty()) return false;
  // The server ends the session when its thread next looks: wait for it.
  for (int i = 0; i < 2000; i++) {
    const std::vector<zend_long> ids = server_->ClientIds();
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ADD_FAILURE() << "connection " << id << " still there 2 s after KILL";
#endif
  return false;
}

std::vector<std::vector<std::string>> DriverTest::CommittedRows(
    const std::string& table) const {
#ifdef ZAR_PDO_MYSQL
  if (OnMysql()) return server_->Rows("SELECT * FROM shop." + table);
#endif
  return pdo_sim::mock::CommittedRows("shop", table);
}

std::optional<zend_long> DriverTest::LockHolder(const std::string& name) const {
#ifdef ZAR_PDO_MYSQL
  if (OnMysql()) {
    const auto rows = server_->Rows("SELECT IS_USED_LOCK('" + name + "')");
    if (rows.empty() || rows[0][0] == "NULL") return std::nullopt;
    return std::stoll(rows[0][0]);
  }
#endif
  const std::optional<int64_t> holder = pdo_sim::mock::LockHolder(name);
  if (!holder) return std::nullopt;
  return static_cast<zend_long>(*holder);
}

}  // namespace zar::testing::pdo
