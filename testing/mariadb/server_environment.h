// zend-async-ref testing: one private MariaDB server per test binary
// (mariadb_server.h), as a GoogleTest global environment.
//
//   // at namespace scope in a test binary that needs the server:
//   ZAR_MARIADB_SERVER_ENVIRONMENT();
//
//   void MySuite::SetUp() {                // a fixture whose tests need it
//     server_ = zar::testing::mariadb::RequireServer();
//     if (server_ == nullptr) return;      // skipped, or failed
//     ...
//   }
//
// The first RequireServer() of the binary starts the server, and the
// environment stops it after the last test (ctest runs each test in a
// process of its own: one server per test there, and none for a test that
// needs none). RequireServer() returns it; when mariadb-server's programs
// are not installed it skips the test (GTEST_SKIP, with
// NotInstalledMessage()), never fails it. When they are installed but the
// server does not come up, the test fails with what went wrong
// (mariadb_server.h), and so does every later one of the binary (the start
// is not tried again).
//
// Threading: the test's thread.

#ifndef ZAR_TESTING_MARIADB_SERVER_ENVIRONMENT_H_
#define ZAR_TESTING_MARIADB_SERVER_ENVIRONMENT_H_

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "testing/mariadb/mariadb_server.h"

namespace zar::testing::mariadb {

class ServerEnvironment : public ::testing::Environment {
 public:
  void TearDown() override;
};

// The server RequireServer() started; null before it did, after the
// environment stopped it, and when it could not start.
Server* SharedServer();

// The shared server, started by the first call. Null when there is none:
// the calling test has then been skipped (the programs are not installed)
// or failed; the caller returns.
Server* RequireServer();

}  // namespace zar::testing::mariadb

// Registers the environment (before main runs RUN_ALL_TESTS).
#define ZAR_MARIADB_SERVER_ENVIRONMENT()                                    \
  [[maybe_unused]] static ::testing::Environment* const                     \
      zar_mariadb_server_environment = ::testing::AddGlobalTestEnvironment( \
          new ::zar::testing::mariadb::ServerEnvironment)

#endif  // ZAR_TESTING_MARIADB_SERVER_ENVIRONMENT_H_
