// zend-async-ref PDO pool tests: one behaviour, every server a PDO pool
// can be checked against.
//
//   DriverTest   PdoTest whose tests run once per Driver (a value-
//                parameterized GoogleTest fixture):
//                  mock   the mock driver's in-process server
//                         (pdo_sim/mock_driver.h), reset before each test;
//                  mysql  PDO's mysql driver against the test binary's
//                         private MariaDB (testing/mariadb, started at the
//                         first such test; skipped, never failed, without
//                         mariadb-server; not instantiated where the driver
//                         is not built), its databases "shop" and "other"
//                         made afresh before each test.
//                Each test gets the DSN of database "shop", and the
//                driver's way of counting connections and of causing what
//                a real server can do to a connection (KILL from another
//                connection, the server-side state of its session), with
//                the same expectations on both.
//
//   class SessionTest : public DriverTest {};
//   ZAR_PDO_ON_EVERY_DRIVER(SessionTest);
//   TEST_P(SessionTest, ...) { Pdo pdo = Open(PoolOptions(1)); ... }
//
// Test names: "SessionTest.UserVariablePinsTheSlotUntilTheCoroutineEnds/mock"
// and ".../mysql".
//
// Threading: the test's thread. The mysql driver's helpers talk to the
// server over a connection of their own (Connector/C, blocking): neither
// PDO nor the driver's counters see it.

#ifndef ZAR_TESTS_PDO_SUPPORT_DRIVER_TEST_H_
#define ZAR_TESTS_PDO_SUPPORT_DRIVER_TEST_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tests/pdo/support/pdo_test.h"

namespace zar::testing::pdo {

enum class Driver { kMock, kMysql };

// The drivers built: mock, and mysql where Connector/C was found.
std::vector<Driver> BuiltDrivers();
// "mock", "mysql": the test name's suffix.
std::string DriverName(const ::testing::TestParamInfo<Driver>& info);
// The same in GoogleTest's messages.
void PrintTo(Driver driver, std::ostream* out);

// Runs the tests of fixture `suite` (a DriverTest) once per built driver.
#define ZAR_PDO_ON_EVERY_DRIVER(suite)                                   \
  INSTANTIATE_TEST_SUITE_P(                                              \
      , suite, ::testing::ValuesIn(::zar::testing::pdo::BuiltDrivers()), \
      ::zar::testing::pdo::DriverName)

class ServerConnection;

class DriverTest : public PdoTest,
                   public ::testing::WithParamInterface<Driver> {
 protected:
  DriverTest();
  ~DriverTest() override;
  void SetUp() override;

  bool OnMysql() const { return GetParam() == Driver::kMysql; }

  // The DSN of `database` ("shop", or "other", which exists too).
  std::string Dsn(const std::string& database = "shop") const;
  // new PDO(Dsn(), username, password, options). The mysql driver connects
  // as root without a password when no username is given.
  Pdo Open(const Options& options = {},
           const std::optional<std::string>& username = std::nullopt,
           const std::optional<std::string>& password = std::nullopt);

  // The server accepts `username` only with `password` (mock: nobody else;
  // mysql: a user made for the test, with every right on "shop").
  void RequireCredentials(const std::string& username,
                          const std::string& password);

  // From now on, every statement (QueriesWait), connect (ConnectsWait),
  // COMMIT and ROLLBACK (TransactionEndsWait) waits on the reactor for the
  // server's answer, so that the coroutine suspends there and others run:
  // the mock's scripted latency (1, 5 and 5 ms); the mysql driver always
  // waits for the server.
  void QueriesWait();
  void ConnectsWait();
  void TransactionEndsWait();

  // What the driver counted since the test began: connections made and
  // closed, sessions reset by the pool, transactions rolled back by PDO or
  // the pool.
  uint64_t ConnectionsMade() const;
  uint64_t ConnectionsClosed() const;
  uint64_t ConnectFailures() const;
  // Statements the server was sent: PDO::exec() and statement executions.
  uint64_t Queries() const;
  uint64_t Resets() const;
  uint64_t Rollbacks() const;
  // The driver's connections open now.
  uint64_t LiveConnections() const;
  // Their CONNECTION_ID()s, ascending.
  std::vector<zend_long> LiveConnectionIds() const;

  // Ends connection `id` server-side, as "KILL <id>" from another
  // connection does; returns once the server has ended it (the server's
  // KILL is asynchronous). The client learns of it at its next call.
  // False when no connection has that id.
  bool Kill(zend_long id);
  // The committed rows of table `table` of "shop", as another connection
  // reads them: each value as text, NULL as "NULL", in insertion order.
  std::vector<std::vector<std::string>> CommittedRows(
      const std::string& table) const;
  // The CONNECTION_ID() holding named lock `name` (GET_LOCK), as another
  // connection sees it (IS_USED_LOCK); nullopt when nobody holds it.
  std::optional<zend_long> LockHolder(const std::string& name) const;

 private:
  std::unique_ptr<ServerConnection> server_;
};

}  // namespace zar::testing::pdo

#endif  // ZAR_TESTS_PDO_SUPPORT_DRIVER_TEST_H_
