// zend-async-ref PDO pool tests: the fixture of the tests that run PDO's
// "mysql" driver against a real server, the test binary's private MariaDB
// (testing/mariadb/server_environment.h: started at its first test,
// skipped when mariadb-server is not installed).
//
//   MysqlPdoTest   PdoTest whose SetUp also takes the shared server (the
//                  test is skipped without one); Dsn(), OpenPool(),
//                  OpenPlain() connect to it as root.
//
// The tests of one binary share the server: each makes its own tables
// (dropping any a previous test left).
//
// Threading: the test's thread.

#ifndef ZAR_TESTS_PDO_SUPPORT_MYSQL_TEST_H_
#define ZAR_TESTS_PDO_SUPPORT_MYSQL_TEST_H_

#include <string>

#include "testing/mariadb/server_environment.h"
#include "tests/pdo/support/pdo_test.h"

namespace zar::testing::pdo {

class MysqlPdoTest : public PdoTest {
 protected:
  void SetUp() override;

  // "mysql:unix_socket=<socket>;dbname=test".
  std::string Dsn() const;
  // new PDO(Dsn(), "root", "", PoolOptions(max, -1, extra)).
  Pdo OpenPool(zend_long max, Options extra = {});
  // new PDO(Dsn(), "root", "", [ERRMODE_EXCEPTION] + extra): no pool.
  Pdo OpenPlain(Options extra = {});

 private:
  mariadb::Server* server_ = nullptr;
};

}  // namespace zar::testing::pdo

#endif  // ZAR_TESTS_PDO_SUPPORT_MYSQL_TEST_H_
