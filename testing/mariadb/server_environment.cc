// zend-async-ref testing: the test binary's private MariaDB server
// (server_environment.h).

#include "testing/mariadb/server_environment.h"

#include <memory>

namespace zar::testing::mariadb {
namespace {

std::unique_ptr<Server>& Shared() {
  static auto* server = new std::unique_ptr<Server>;
  return *server;
}

void Skip() { GTEST_SKIP() << NotInstalledMessage(); }

}  // namespace

void ServerEnvironment::SetUp() {
  const std::optional<Programs> programs = FindPrograms();
  if (!programs) return;  // each test that needs the server is skipped
  std::string error;
  Shared() = Server::Start(*programs, ServerOptions{}, &error);
  if (Shared() == nullptr) FAIL() << error;
}

void ServerEnvironment::TearDown() {
  if (Shared() == nullptr) return;
  const std::string problem = Shared()->Stop();
  Shared().reset();
  EXPECT_EQ(problem, "");
}

Server* SharedServer() { return Shared().get(); }

Server* RequireServer() {
  if (Shared() != nullptr) return Shared().get();
  if (!FindPrograms()) {
    Skip();
  } else {
    ADD_FAILURE() << "the private MariaDB server did not start (see the "
                     "environment's failure)";
  }
  return nullptr;
}

}  // namespace zar::testing::mariadb
