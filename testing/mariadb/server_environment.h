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
// The environment starts the server before the binary's first test and
// stops it after the last (ctest runs each test in a process of its own:
// one server per test there). RequireServer() returns it; when
// mariadb-server's programs are not installed it skips the test
// (GTEST_SKIP, with NotInstalledMessage()), never fails it. When they are
// installed but the server does not come up, the environment's SetUp fails
// with what went wrong (mariadb_server.h) and GoogleTest runs no test.
//
// Threading: the test's thread.

#ifndef ZAR_TESTING_MARIADB_SERVER_ENVIRONMENT_H_
#define ZAR_TESTING_MARIADB_SERVER_ENVIRONMENT_H_

#include <gtest/gtest.h>

#include "testing/mariadb/mariadb_server.h"

namespace zar::testing::mariadb {

class ServerEnvironment : public ::testing::Environment {
 public:
  void SetUp() override;
  void TearDown() override;
};

// The server the environment started; null before it did, after it
// stopped, and when it could not start.
Server* SharedServer();

// The shared server. Null when there is none: the calling test has then
// been skipped (the programs are not installed) or failed; the caller
// returns.
Server* RequireServer();

}  // namespace zar::testing::mariadb

// Registers the environment (before main runs RUN_ALL_TESTS).
#define ZAR_MARIADB_SERVER_ENVIRONMENT()                                    \
  [[maybe_unused]] static ::testing::Environment* const                     \
      zar_mariadb_server_environment = ::testing::AddGlobalTestEnvironment( \
          new ::zar::testing::mariadb::ServerEnvironment)

#endif  // ZAR_TESTING_MARIADB_SERVER_ENVIRONMENT_H_
