#include "tests/pdo/support/mysql_test.h"

// One private server for this test binary (started before its first test).
ZAR_MARIADB_SERVER_ENVIRONMENT();

namespace zar::testing::pdo {

void MysqlPdoTest::SetUp() {
  PdoTest::SetUp();
  if (HasFatalFailure()) return;
  server_ = mariadb::RequireServer();
}

std::string MysqlPdoTest::Dsn() const { return server_->Dsn(); }

Pdo MysqlPdoTest::OpenPool(zend_long max, Options extra) {
  return Pdo::Open(Dsn(), PoolOptions(max, -1, std::move(extra)),
                   mariadb::Server::kUser, "");
}

Pdo MysqlPdoTest::OpenPlain(Options extra) {
  Options options = {{PDO_ATTR_ERRMODE, zend_long{PDO_ERRMODE_EXCEPTION}}};
  for (auto& option : extra) options.push_back(std::move(option));
  return Pdo::Open(Dsn(), options, mariadb::Server::kUser, "");
}

}  // namespace zar::testing::pdo
